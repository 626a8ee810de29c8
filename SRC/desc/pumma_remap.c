/*
 * pumma_remap.c -- dst := src between any two ways of holding a matrix
 * (see pumma_desc.h): the heterogeneous layouts' redistribution and the
 * gathers of their multiply.
 *
 * Each process's part is a few boxes, each a list of row intervals times a
 * list of column intervals (one box for a block-cyclic part, one per
 * rectangle of a layout's region). The message from s to d is the
 * intersection of s's source boxes with d's destination boxes, walked in
 * one order (box pairs, then columns, then row intervals) by packer and
 * unpacker alike; inside one interval local indices are consecutive, so
 * every run is one memcpy. Nothing but the data travels.
 *
 * On a linear array (PUMMA_TOPO_LINEAR) a message between processes that
 * are not neighbours goes hop by hop along the layout's line; each relay
 * receives it whole, then forwards it. The elements every process sends,
 * forwards included, are counted (pumma_remap_sent): the volume the
 * heterogeneous layouts are judged by.
 *
 * PUMMA_LATENCY=seconds holds every message (and every relay's forward)
 * back that long before it is sent: network latency, emulated, where the
 * kernel cannot add it to a link (no netem). Receives are posted at once.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pumma_desc.h"

/* ------------------------------------------------------------- the sides */

typedef struct box { pumma_ilist_t r, c; } box_t;
typedef struct boxes { int n; box_t *b; } boxes_t;

static void boxes_free(boxes_t *x)
{
    for (int i = 0; i < x->n; i++) {
        pumma_ilist_free(&x->b[i].r);
        pumma_ilist_free(&x->b[i].c);
    }
    free(x->b);
    x->b = NULL;
    x->n = 0;
}

/* The indices of a 1D block-cyclic distribution that process `me` holds. */
static int dist_list(const pumma_dist_t *d, int me, pumma_ilist_t *out)
{
    int nb = pumma_dist_nblocks(d);
    out->n = 0;
    out->v = malloc(sizeof(pumma_ivl_t) * (size_t)(nb > 0 ? nb : 1));
    if (!out->v) return PUMMA_ENOMEM;
    for (int b = 0; b < nb; b++) {
        int own = pumma_dist_owner(d, b);
        if (own >= 0 && own != me) continue;
        int lo = pumma_dist_bstart(d, b), hi = lo + pumma_dist_bsize(d, b);
        if (out->n && out->v[out->n - 1].hi == lo)
            out->v[out->n - 1].hi = hi;
        else
            out->v[out->n++] = (pumma_ivl_t){lo, hi};
    }
    return PUMMA_OK;
}

static int one_ivl(pumma_ilist_t *l, int lo, int hi)
{
    l->v = malloc(sizeof(pumma_ivl_t));
    if (!l->v) return PUMMA_ENOMEM;
    l->n = 1;
    l->v[0] = (pumma_ivl_t){lo, hi};
    return PUMMA_OK;
}

static int copy_list(pumma_ilist_t *to, const pumma_ilist_t *from)
{
    to->n = from->n;
    to->v = malloc(sizeof(pumma_ivl_t) * (size_t)(from->n > 0 ? from->n : 1));
    if (!to->v) return PUMMA_ENOMEM;
    if (from->n > 0)     /* an empty list may have no intervals at all */
        memcpy(to->v, from->v, sizeof(pumma_ivl_t) * (size_t)from->n);
    return PUMMA_OK;
}

/* Process p's part of side s, in window coordinates. As a source, entries
 * a block-cyclic side replicates (source -1) are sent by the copy on grid
 * row (column) 0 only; as a destination every copy receives them. */
static int side_boxes(const pumma_side_t *s, int p, int as_src, boxes_t *out)
{
    int rc = PUMMA_OK;
    out->n = 0;
    out->b = NULL;
    if (s->kind == PUMMA_SIDE_BC) {
        pumma_dist_t r = as_src ? pumma_dist_owned(&s->row) : s->row;
        pumma_dist_t c = as_src ? pumma_dist_owned(&s->col) : s->col;
        out->b = calloc(1, sizeof(box_t));
        if (!out->b) return PUMMA_ENOMEM;
        out->n = 1;
        if ((rc = dist_list(&r, p / s->npcol, &out->b[0].r)) ||
            (rc = dist_list(&c, p % s->npcol, &out->b[0].c)))
            return rc;
    } else if (s->kind == PUMMA_SIDE_LAYOUT) {
        const pumma_layout_t *L = s->lay;
        int cnt = L->first[p + 1] - L->first[p];
        out->b = calloc((size_t)(cnt > 0 ? cnt : 1), sizeof(box_t));
        if (!out->b) return PUMMA_ENOMEM;
        for (int k = 0; k < cnt; k++) {
            const pumma_rect_t *x = &L->rect[L->first[p] + k];
            int r0 = x->r0 > s->i0 ? x->r0 : s->i0;
            int r1 = x->r1 < s->i0 + s->m ? x->r1 : s->i0 + s->m;
            int c0 = x->c0 > s->j0 ? x->c0 : s->j0;
            int c1 = x->c1 < s->j0 + s->n ? x->c1 : s->j0 + s->n;
            if (r0 >= r1 || c0 >= c1) continue;
            if ((rc = one_ivl(&out->b[out->n].r, r0 - s->i0, r1 - s->i0)) ||
                (rc = one_ivl(&out->b[out->n].c, c0 - s->j0, c1 - s->j0)))
                return rc;
            out->n++;
        }
    } else {
        out->b = calloc(1, sizeof(box_t));
        if (!out->b) return PUMMA_ENOMEM;
        out->n = 1;
        if ((rc = copy_list(&out->b[0].r, &s->prow[p])) ||
            (rc = copy_list(&out->b[0].c, &s->pcol[p])))
            return rc;
    }
    return rc;
}

/* Local row / column of window index g on this process (who holds it). */
static long local_row(const pumma_side_t *s, int me, int g)
{
    switch (s->kind) {
    case PUMMA_SIDE_BC: return pumma_dist_before(&s->row, g, me / s->npcol);
    case PUMMA_SIDE_LAYOUT: return g + s->i0 - s->lay->box[me].r0;
    default: return pumma_ilist_pos(&s->prow[me], g);
    }
}

static long local_col(const pumma_side_t *s, int me, int g)
{
    switch (s->kind) {
    case PUMMA_SIDE_BC: return pumma_dist_before(&s->col, g, me % s->npcol);
    case PUMMA_SIDE_LAYOUT: return g + s->j0 - s->lay->box[me].c0;
    default: return pumma_ilist_pos(&s->pcol[me], g);
    }
}

static pumma_side_t side_of(const pumma_grid_t *g, int kind, int rows,
                            int cols, void *data, int ld)
{
    pumma_side_t s = {0};
    s.kind = kind;
    s.m = rows;
    s.n = cols;
    s.nprow = g->nprow;
    s.npcol = g->npcol;
    s.data = data;
    s.ld = ld > 0 ? ld : 1;
    return s;
}

pumma_side_t pumma_side_view(const pumma_grid_t *g, const pumma_view_t *v,
                             int rows, int cols)
{
    pumma_side_t s = side_of(g, PUMMA_SIDE_BC, rows, cols, v->data, v->ld);
    s.row = v->row;
    s.col = v->col;
    return s;
}

pumma_side_t pumma_side_panel(const pumma_grid_t *g, const pumma_ilist_t *prow,
                              const pumma_ilist_t *pcol, int rows, int cols,
                              void *data, int ld)
{
    pumma_side_t s = side_of(g, PUMMA_SIDE_PANEL, rows, cols, data, ld);
    s.prow = prow;
    s.pcol = pcol;
    return s;
}

/* ---------------------------------------------------------- walking */

enum { COUNT, PACK, UNPACK, COPY };

/*
 * The entries of a's boxes that are in b's boxes, in the one order both
 * sides use. COUNT: returns how many. PACK: from `from` (this process's
 * storage of a source side) into buf. UNPACK: from buf into `to`. COPY:
 * from `from` to `to` (both this process's). Returns -1 when out of memory.
 */
static long walk(const boxes_t *a, const boxes_t *b, int mode, size_t es,
                 const pumma_side_t *from, const pumma_side_t *to, int me,
                 char *buf)
{
    long cnt = 0;
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++) {
            pumma_ilist_t R, C;
            R.v = malloc(sizeof(pumma_ivl_t) *
                         (size_t)(a->b[i].r.n + b->b[j].r.n + 1));
            C.v = malloc(sizeof(pumma_ivl_t) *
                         (size_t)(a->b[i].c.n + b->b[j].c.n + 1));
            if (!R.v || !C.v) {
                free(R.v);
                free(C.v);
                return -1;
            }
            pumma_ilist_meet(&a->b[i].r, &b->b[j].r, &R);
            pumma_ilist_meet(&a->b[i].c, &b->b[j].c, &C);
            long rows = pumma_ilist_len(&R);
            if (mode == COUNT) {
                cnt += rows * pumma_ilist_len(&C);
            } else {
                for (int ci = 0; ci < C.n; ci++)
                    for (int g = C.v[ci].lo; g < C.v[ci].hi; g++) {
                        long fj = from ? local_col(from, me, g) : 0;
                        long tj = to ? local_col(to, me, g) : 0;
                        for (int ri = 0; ri < R.n; ri++) {
                            size_t len = (size_t)(R.v[ri].hi - R.v[ri].lo) * es;
                            char *src = mode == UNPACK
                                ? buf + (size_t)cnt * es
                                : from->data + ((size_t)local_row(from, me, R.v[ri].lo) +
                                                (size_t)fj * (size_t)from->ld) * es;
                            char *dst = mode == PACK
                                ? buf + (size_t)cnt * es
                                : to->data + ((size_t)local_row(to, me, R.v[ri].lo) +
                                              (size_t)tj * (size_t)to->ld) * es;
                            memcpy(dst, src, len);
                            cnt += R.v[ri].hi - R.v[ri].lo;
                        }
                    }
            }
            free(R.v);
            free(C.v);
        }
    return cnt;
}

/* ---------------------------------------------------------- the remap */

enum { M_SEND, M_RECV, M_RELAY, M_FWD, M_DONE };
typedef struct msg {
    int origin, dest, kind;
    long count;
    char *buf;
    boxes_t from;            /* M_RECV: the origin's source boxes (unpack) */
    int held, to;            /* PUMMA_LATENCY: not sent before `due` */
    double due;
} msg_t;

struct pumma_remap {
    const pumma_type_t *t;
    const pumma_grid_t *g;
    pumma_side_t dst;        /* a copy: arrivals are unpacked after start */
    pumma_ilist_t *drow, *dcol;   /* a panel's lists, mine at [me] */
    boxes_t sb, db;          /* my source and destination boxes */
    int np, me, nmsg, left, topo, nheld;
    const pumma_layout_t *line;
    msg_t *msg;
    MPI_Request *req;
    int *idx;
    int tagbase;
    int nsend, posted;       /* my sends (msg[0 .. nsend-1]), how many out */
};

/* Sends in flight at once from one process, at most: an all-to-all over
 * hundreds of processes posts its sends in a ring order (to me+1, me+2,
 * ...) a window at a time, so no receiver is flooded by all at once and
 * the network (or SMPI, which solves the sharing of every flow in flight
 * at each event) holds a few flows per process, not hundreds. Receives
 * are all posted at the start. */
enum { SEND_WINDOW = 64 };

static double sent = 0;
double pumma_remap_sent(void) { return sent; }


/* The process after `me` on the way from it to `to`. */
static int hop(const pumma_remap_t *r, int me, int to)
{
    if (r->topo != PUMMA_TOPO_LINEAR || !r->line) return to;
    int a = r->line->pos[me], b = r->line->pos[to];
    return r->line->line[a + (b > a ? 1 : -1)];
}

/* 1 when `me` lies strictly between o and d on the line. */
static int relays(const pumma_remap_t *r, int me, int o, int d)
{
    if (r->topo != PUMMA_TOPO_LINEAR || !r->line) return 0;
    int a = r->line->pos[o], b = r->line->pos[d], x = r->line->pos[me];
    return (a < x && x < b) || (b < x && x < a);
}

static int send_now(pumma_remap_t *r, int i, int to)
{
    msg_t *m = &r->msg[i];
    sent += (double)m->count;
    return pumma_isend(m->buf, m->count, r->t->mpi, r->g->rank[to],
                       r->tagbase + m->origin * r->np + m->dest, r->g->all,
                       &r->req[i]) == MPI_SUCCESS ? PUMMA_OK : PUMMA_EMPI;
}

/* Send message i to `to`, now or, under PUMMA_LATENCY, once it is due. */
static int post_send(pumma_remap_t *r, int i, int to)
{
    msg_t *m = &r->msg[i];
    /* read at its first use: PUMMA_P?GEMR2D reaches it without P?GEMM */
    const double latency = pumma_setting(PUMMA_SET_LATENCY)->latency;
    if (latency == 0) return send_now(r, i, to);
    m->held = 1;
    m->to = to;
    m->due = MPI_Wtime() + latency;
    r->req[i] = MPI_REQUEST_NULL;
    r->nheld++;
    return PUMMA_OK;
}

/* Post my next send not yet out (ring order). */
static int post_next(pumma_remap_t *r)
{
    const int i = r->posted++;
    return post_send(r, i, hop(r, r->me, r->msg[i].dest));
}

/* Send the held messages that are due; *next: the earliest still held. */
static int release(pumma_remap_t *r, double *next)
{
    double now = MPI_Wtime();
    *next = 0;
    for (int i = 0; i < r->nmsg && r->nheld; i++) {
        msg_t *m = &r->msg[i];
        if (!m->held) continue;
        if (m->due <= now) {
            m->held = 0;
            r->nheld--;
            int rc = send_now(r, i, m->to);
            if (rc) return rc;
        } else if (*next == 0 || m->due < *next) {
            *next = m->due;
        }
    }
    return PUMMA_OK;
}

static void remap_free(pumma_remap_t *r)
{
    if (!r) return;
    for (int i = 0; i < r->nmsg; i++) {
        pumma_free(r->msg[i].buf);
        boxes_free(&r->msg[i].from);
    }
    if (r->drow) pumma_ilist_free(&r->drow[r->me]);
    if (r->dcol) pumma_ilist_free(&r->dcol[r->me]);
    free(r->drow);
    free(r->dcol);
    boxes_free(&r->sb);
    boxes_free(&r->db);
    free(r->msg);
    free(r->req);
    free(r->idx);
    free(r);
}

/* Remap tags: PUMMA_TAG_REMAP + (id * np + o) * np + d (pumma_comm.h). */
#define TAG0 PUMMA_TAG_REMAP

int pumma_remap_ids(const pumma_grid_t *g)
{
    const long top = g->tag_ub;
    const long np = (long)g->nprow * g->npcol;
    return top < TAG0 ? 0 : (int)((top - TAG0 + 1) / (np * np));
}

/* A new message of cnt elements between o and d (M_SEND, M_RECV or
 * M_RELAY as this process sees it), its buffer allocated. */
static msg_t *new_msg(pumma_remap_t *r, int o, int d, long cnt)
{
    msg_t *m = &r->msg[r->nmsg];
    memset(m, 0, sizeof *m);
    m->origin = o;
    m->dest = d;
    m->count = cnt;
    m->kind = o == r->me ? M_SEND : d == r->me ? M_RECV : M_RELAY;
    m->buf = pumma_malloc((size_t)cnt * r->t->size);
    if (!m->buf) return NULL;
    r->nmsg++;
    r->left++;
    return m;
}

/* Post the receive of message m (from its origin, through the relay
 * before this process on the line). */
static int post_recv(pumma_remap_t *r, msg_t *m)
{
    return pumma_irecv(m->buf, m->count, r->t->mpi,
                       r->g->rank[hop(r, r->me, m->origin)],
                       r->tagbase + m->origin * r->np + m->dest, r->g->all,
                       &r->req[m - r->msg]) == MPI_SUCCESS ? PUMMA_OK
                                                           : PUMMA_EMPI;
}

/*
 * Only this process's own boxes are kept, and each peer's are made as
 * its message is counted (a receive keeps its origin's, to unpack):
 * O(np) boxes and messages per process, not np^2, so a remap over
 * thousands of processes costs each of them what its own messages cost
 * (under SMPI every rank shares one address space). Relays on a line are
 * the exception: a relay counts messages between other pairs.
 */
int pumma_remap_start(const pumma_type_t *t, const pumma_grid_t *g,
                      const pumma_side_t *src, const pumma_side_t *dst,
                      int topo, const pumma_layout_t *line, int id,
                      pumma_remap_t **out)
{
    const int np = g->nprow * g->npcol, me = g->myrow * g->npcol + g->mycol;
    const size_t es = t->size;
    int rc = PUMMA_OK;
    *out = NULL;
    if (id >= pumma_remap_ids(g)) return PUMMA_EGRID;
    pumma_remap_t *r = calloc(1, sizeof(*r));
    if (!r) return PUMMA_ENOMEM;
    r->t = t;
    r->g = g;
    r->dst = *dst;
    r->np = np;
    r->me = me;
    r->topo = topo;
    r->line = line;
    r->tagbase = TAG0 + id * np * np;
    const int linear = topo == PUMMA_TOPO_LINEAR && line;
    const size_t cap = linear ? (size_t)np * (size_t)np : 2 * (size_t)np;
    r->msg = calloc(cap, sizeof(msg_t));
    r->req = malloc(sizeof(MPI_Request) * cap);
    r->idx = malloc(sizeof(int) * cap);
    if (!r->msg || !r->req || !r->idx) {
        remap_free(r);
        return PUMMA_ENOMEM;
    }
    if (!(rc = side_boxes(src, me, 1, &r->sb)))
        rc = side_boxes(dst, me, 0, &r->db);
    if (!rc && dst->kind == PUMMA_SIDE_PANEL) {
        r->drow = calloc((size_t)np, sizeof(pumma_ilist_t));
        r->dcol = calloc((size_t)np, sizeof(pumma_ilist_t));
        if (!r->drow || !r->dcol ||
            (rc = copy_list(&r->drow[me], &dst->prow[me])) ||
            (rc = copy_list(&r->dcol[me], &dst->pcol[me])))
            rc = rc ? rc : PUMMA_ENOMEM;
        r->dst.prow = r->drow;
        r->dst.pcol = r->dcol;
    }
    if (rc) {
        remap_free(r);
        return rc;
    }

    /* My own part first; then what I send, each destination's boxes made
     * and dropped in turn; then what I receive, keeping each origin's.
     * (Under a simulated run's compute model every copy is charged, not
     * run: pumma_charge_copy.) */
    const long mine = walk(&r->sb, &r->db, COUNT, es, NULL, NULL, me, NULL);
    if (!pumma_charge_copy(t, mine) &&
        walk(&r->sb, &r->db, COPY, es, src, dst, me, NULL) < 0)
        rc = PUMMA_ENOMEM;
    for (int s = 1; s < np && !rc; s++) {
        const int d = (me + s) % np;
        boxes_t peer;
        if ((rc = side_boxes(dst, d, 0, &peer))) {
            boxes_free(&peer);
            break;
        }
        long cnt = walk(&r->sb, &peer, COUNT, es, NULL, NULL, me, NULL);
        msg_t *m = cnt > 0 ? new_msg(r, me, d, cnt) : NULL;
        if (cnt > 0 && !m) rc = PUMMA_ENOMEM;
        else if (m) {
            r->req[m - r->msg] = MPI_REQUEST_NULL;    /* not yet posted */
            r->nsend++;
            if (!pumma_charge_copy(t, cnt) &&
                walk(&r->sb, &peer, PACK, es, src, NULL, me, m->buf) < 0)
                rc = PUMMA_ENOMEM;
        }
        boxes_free(&peer);
    }
    while (!rc && r->posted < r->nsend && r->posted < SEND_WINDOW)
        rc = post_next(r);
    for (int o = 0; o < np && !rc; o++) {
        if (o == me) continue;
        boxes_t peer;
        if ((rc = side_boxes(src, o, 1, &peer))) {
            boxes_free(&peer);
            break;
        }
        long cnt = walk(&peer, &r->db, COUNT, es, NULL, NULL, me, NULL);
        msg_t *m = cnt > 0 ? new_msg(r, o, me, cnt) : NULL;
        if (cnt > 0 && !m) rc = PUMMA_ENOMEM;
        if (m) {
            m->from = peer;
            rc = post_recv(r, m);
        } else {
            boxes_free(&peer);
        }
    }
    /* A relay on the line: the messages between others that pass it. */
    for (int o = 0; linear && o < np && !rc; o++)
        for (int d = 0; d < np && !rc; d++) {
            if (o == d || o == me || d == me || !relays(r, me, o, d))
                continue;
            boxes_t a, b;
            b.n = 0;
            b.b = NULL;
            if (!(rc = side_boxes(src, o, 1, &a)) &&
                !(rc = side_boxes(dst, d, 0, &b))) {
                long cnt = walk(&a, &b, COUNT, es, NULL, NULL, me, NULL);
                msg_t *m = cnt > 0 ? new_msg(r, o, d, cnt) : NULL;
                if (cnt > 0 && !m) rc = PUMMA_ENOMEM;
                else if (m) rc = post_recv(r, m);
            }
            boxes_free(&a);
            boxes_free(&b);
        }
    if (rc) {
        /* Requests already posted would outlive their buffers: an error
         * here ends the program anyway (pumma_fatal). */
        return rc;
    }
    *out = r;
    return PUMMA_OK;
}

/* Completed request i: forward a relay, unpack an arrival. */
static int finish(pumma_remap_t *r, int i)
{
    msg_t *m = &r->msg[i];
    if (m->kind == M_RELAY) {
        m->kind = M_FWD;
        return post_send(r, i, hop(r, r->me, m->dest));
    }
    if (m->kind == M_RECV && !pumma_charge_copy(r->t, m->count) &&
        walk(&m->from, &r->db, UNPACK, r->t->size, NULL, &r->dst, r->me,
             m->buf) < 0)
        return PUMMA_ENOMEM;
    boxes_free(&m->from);
    const int was_send = m->kind == M_SEND;
    m->kind = M_DONE;
    pumma_free(m->buf);
    m->buf = NULL;
    r->left--;
    return was_send && r->posted < r->nsend ? post_next(r) : PUMMA_OK;
}

/* My sends all posted and none held back (the window and PUMMA_LATENCY
 * otherwise post them as earlier ones complete). */
static int all_out(const pumma_remap_t *r)
{
    return r->posted == r->nsend && r->nheld == 0;
}

/* Completes what arrives (blocking: until all is done, or with `until_out`
 * until my sends are all out). */
static int advance_until(pumma_remap_t *r, int block, int until_out)
{
    while (r->left > 0 && !(until_out && all_out(r))) {
        int n = 0, rc;
        double next = 0;
        if (r->nheld && (rc = release(r, &next))) return rc;
        rc = block && !r->nheld
                 ? MPI_Waitsome(r->nmsg, r->req, &n, r->idx,
                                MPI_STATUSES_IGNORE)
                 : MPI_Testsome(r->nmsg, r->req, &n, r->idx,
                                MPI_STATUSES_IGNORE);
        if (rc != MPI_SUCCESS) return PUMMA_EMPI;
        if (n != MPI_UNDEFINED && n > 0) {
            for (int k = 0; k < n; k++)
                if ((rc = finish(r, r->idx[k]))) return rc;
            continue;
        }
        if (!block) return PUMMA_OK;
        /* Waiting with messages held back: nap until one is due (1 ms at
         * most, so arrivals are still taken in good time). */
        double nap = next - MPI_Wtime();
        if (nap > 1e-3 || !r->nheld) nap = 1e-3;
        if (nap > 0) {
            struct timespec ts = {0, (long)(nap * 1e9)};
            nanosleep(&ts, NULL);
        }
    }
    return PUMMA_OK;
}

static int advance(pumma_remap_t *r, int block)
{
    return advance_until(r, block, 0);
}

int pumma_remap_flush(pumma_remap_t *r)
{
    return all_out(r) ? PUMMA_OK : advance_until(r, 1, 1);
}

int pumma_remap_test(pumma_remap_t *r, int *done)
{
    int rc = advance(r, 0);
    *done = r->left == 0;
    return rc;
}

int pumma_remap_wait(pumma_remap_t *r)
{
    int rc = PUMMA_OK;
    while (!rc && r->left > 0) rc = advance(r, 1);
    remap_free(r);
    return rc;
}
