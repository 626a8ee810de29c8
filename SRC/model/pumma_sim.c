/*
 * pumma_sim.c -- pumma's broadcasts, reduces and shifts run on a model
 * clock instead of MPI (pumma_model.h).
 *
 * A variant's schedule is built from what its engine runs: the tree its
 * shape function gives (pumma_coll_ops_t.shape), the pieces pumma_coll_cut
 * makes of the message, and the order in which the engines of
 * pumma_bcast_tree.c and pumma_reduce_tree.c handle them -- a non-root
 * receives piece k from its parent and sends it to its children in their
 * order; an inner node of a reduce receives piece k from each child in
 * turn, adding each, then sends the sum on. The shifts' two schedules are
 * written out below beside the code they mirror. Each process then runs its
 * list of operations in order:
 *   send  starts when its process is free and its last send's gap has
 *         passed; the process is busy for the model's `busy`; the message
 *         is complete at its destination `arrive` after the start;
 *   recv  completes when its message is complete, and no sooner than the
 *         gap after the process's previous receive (a receiver takes
 *         messages one at a time); the process continues from then;
 *   add   the process is busy for the bytes times the model's add time.
 * Messages between two processes are matched in order, as MPI's
 * non-overtaking rule matches them. The prediction is when the last
 * process finishes. PLOGPC runs the same lists on shared processors
 * (sim_run_shared below).
 *
 * On a network whose messages in flight at once share their sender's
 * link (pumma_plogp_t.fair, measured), the sends a process posts without
 * waiting are not gated one after another: they share its link, each
 * needing its gap of it (processor sharing: every message in flight at a
 * rate of 1/n), and arrive when through it plus the rest of their
 * pLogP time; the next sends after a wait start once the link is free.
 * A receiver then takes a sender's messages as they arrive (their sharing
 * is the sender's); a message from another sender than its last still
 * waits out the receiver's gap.
 *
 * Where the model has one of its own for processes of one node
 * (pumma_netmodel_t.local), a message between two of them is priced by
 * it, and on a fair network shares its sender's memory, not its link.
 */
#include <math.h>
#include <stdlib.h>

#include "pumma_model.h"

enum { SEND, RECV, ADD };
typedef struct op {
    int kind, peer;
    double bytes;
} op_t;

typedef struct sim {
    int np;
    op_t **ops;               /* ops[p]: process p's list */
    int *nops, *cap;
    double **arr;             /* arr[s*np+d]: arrivals of s's messages to d */
    int *nsent, *acap, *nrecv;
    int fail;
} sim_t;

static void emit(sim_t *s, int p, int kind, int peer, double bytes)
{
    if (s->fail) return;
    if (s->nops[p] == s->cap[p]) {
        int c = s->cap[p] ? 2 * s->cap[p] : 16;
        op_t *o = realloc(s->ops[p], sizeof(op_t) * (size_t)c);
        if (!o) { s->fail = 1; return; }
        s->ops[p] = o;
        s->cap[p] = c;
    }
    s->ops[p][s->nops[p]++] = (op_t){kind, peer, bytes};
}

static int sim_init(sim_t *s, int np)
{
    s->np = np;
    s->fail = 0;
    s->ops = calloc((size_t)np, sizeof(op_t *));
    s->nops = calloc((size_t)np * 2, sizeof(int));
    s->arr = calloc((size_t)np * np, sizeof(double *));
    s->nsent = calloc((size_t)np * np * 3, sizeof(int));
    if (!s->ops || !s->nops || !s->arr || !s->nsent) return -1;
    s->cap = s->nops + np;
    s->acap = s->nsent + np * np;
    s->nrecv = s->acap + np * np;
    return 0;
}

static void sim_free(sim_t *s)
{
    for (int p = 0; s->ops && p < s->np; p++) free(s->ops[p]);
    for (int i = 0; s->arr && i < s->np * s->np; i++) free(s->arr[i]);
    free(s->ops);
    free(s->nops);
    free(s->arr);
    free(s->nsent);
}

static int push_arrival(sim_t *s, int from, int to, double t)
{
    const int q = from * s->np + to;
    if (s->nsent[q] == s->acap[q]) {
        int c = s->acap[q] ? 2 * s->acap[q] : 8;
        double *a = realloc(s->arr[q], sizeof(double) * (size_t)c);
        if (!a) return -1;
        s->arr[q] = a;
        s->acap[q] = c;
    }
    s->arr[q][s->nsent[q]++] = t;
    return 0;
}

/*
 * PLOGPC: the lists run on processors the processes of a node share.
 * Nodes hold min(np, ppn) consecutive ranks and `cores` processors. A send
 * is a burst of its sender's processor (busy), then the wire, then a
 * burst of its receiver's (the receive overhead or(m), as much of it as
 * the message's pLogP time leaves: unshared and with the receiver
 * waiting, the message is complete when pLogP says); an add is a burst.
 * While r of a node's n processes are in bursts and the others wait
 * (polling, each taking theta of a processor), every burst there runs at
 * min(1, cores / (r + theta (n - r))) of a processor's speed. On a node
 * of more processes than processors a receive's burst is `wake` longer:
 * its process must be switched back in. Event driven: the clock moves to
 * the first burst to end or wait to pass.
 */
enum { READY, BURST, WAIT, BLOCKED, DONE };

/* The model of a message between processes a and b. */
static const pumma_netmodel_t *link_of(const pumma_netmodel_t *nm, int a,
                                       int b)
{
    return nm->local && nm->per > 1 && a / nm->per == b / nm->per ? nm->local
                                                                   : nm;
}

int pumma_sim_always_shared = 0;

static double recv_cpu(const pumma_netmodel_t *nm, double m,
                       const pumma_nm_cost_t *c)
{
    const double o = pumma_plogp_at(&nm->s, nm->s.orv, m),
                 room = c->arrive - c->busy;
    return o < room ? o : room > 0 ? room : 0;
}

static double sim_run_shared(sim_t *s, const pumma_netmodel_t *nm, int kind)
{
    const int np = s->np;
    const int per = nm->s.ppn >= 1 && nm->s.ppn < np ? (int)nm->s.ppn : np;
    const int nn = (np + per - 1) / per;
    int *st = calloc((size_t)(2 * np + 2 * nn), sizeof(int));
    double *d = calloc((size_t)(5 * np + nn), sizeof(double));
    double end = -1;
    if (!st || !d) goto out;
    int *pc = st + np, *nb = pc + np, *crowded = nb + nn;
    for (int n = 0; n < nn; n++)
        crowded[n] = nm->s.cores > 0 &&
                     (n < nn - 1 ? per : np - n * per) > nm->s.cores;
    double *rem = d, *wake = d + np, *sgate = d + 2 * np, *rlast = d + 3 * np,
           *wire = d + 4 * np, *rate = d + 5 * np;
    for (int p = 0; p < np; p++) rlast[p] = -INFINITY;
    double T = 0;
    end = 0;
    for (;;) {
        /* everything that can start at T */
        for (int moved = 1; moved;) {
            moved = 0;
            for (int p = 0; p < np; p++) {
                if (st[p] == BLOCKED) st[p] = READY;
                while (st[p] == READY) {
                    if (pc[p] == s->nops[p]) {
                        st[p] = DONE;
                        if (T > end) end = T;
                        break;
                    }
                    const op_t *o = &s->ops[p][pc[p]];
                    pumma_nm_cost_t c;
                    if (o->kind == ADD) {
                        rem[p] = o->bytes * nm->add;
                    } else if (o->kind == SEND) {
                        const pumma_netmodel_t *ln = link_of(nm, p, o->peer);
                        pumma_nm_msg(ln, kind, o->bytes, &c);
                        if (sgate[p] > T) {
                            st[p] = WAIT, wake[p] = sgate[p];
                            break;
                        }
                        sgate[p] = T + c.gap;
                        rem[p] = c.busy;
                        wire[p] = c.arrive - c.busy - recv_cpu(ln, o->bytes, &c);
                    } else {
                        const int q = o->peer * np + p;
                        if (s->nrecv[q] == s->nsent[q]) {
                            st[p] = BLOCKED;
                            break;
                        }
                        const pumma_netmodel_t *ln = link_of(nm, o->peer, p);
                        pumma_nm_msg(ln, kind, o->bytes, &c);
                        double at = s->arr[q][s->nrecv[q]];
                        if (at < rlast[p] + c.gap) at = rlast[p] + c.gap;
                        if (at > T) {
                            st[p] = WAIT, wake[p] = at;
                            break;
                        }
                        s->nrecv[q]++;
                        rlast[p] = at;
                        rem[p] = recv_cpu(ln, o->bytes, &c) +
                                 (crowded[p / per] ? nm->s.wake : 0);
                    }
                    st[p] = BURST;
                    moved = 1;
                    if (rem[p] > 0) break;
                    /* an empty burst ends at once */
                    if (o->kind == SEND &&
                        push_arrival(s, p, o->peer, T + wire[p])) {
                        end = -1;
                        goto out;
                    }
                    pc[p]++;
                    st[p] = READY;
                }
            }
        }
        /* each node's speed, then the next event */
        for (int n = 0; n < nn; n++) nb[n] = 0;
        for (int p = 0; p < np; p++) nb[p / per] += st[p] == BURST;
        for (int n = 0; n < nn; n++) {
            const int size = n < nn - 1 ? per : np - n * per;
            const double load = nb[n] + nm->s.theta * (size - nb[n]);
            rate[n] = nm->s.cores > 0 && load > nm->s.cores
                          ? nm->s.cores / load : 1;
        }
        double dt = INFINITY;
        for (int p = 0; p < np; p++) {
            if (st[p] == BURST && rem[p] / rate[p / per] < dt)
                dt = rem[p] / rate[p / per];
            if (st[p] == WAIT && wake[p] - T < dt) dt = wake[p] - T;
        }
        if (dt == INFINITY) break;
        if (dt < 0) dt = 0;
        const double cut = dt * (1 + 1e-12);
        for (int p = 0; p < np; p++) {
            if (st[p] == WAIT && wake[p] - T <= cut) st[p] = READY;
            if (st[p] != BURST) continue;
            if (rem[p] / rate[p / per] > cut) {
                rem[p] -= dt * rate[p / per];
                continue;
            }
            const op_t *o = &s->ops[p][pc[p]];
            if (o->kind == SEND &&
                push_arrival(s, p, o->peer, T + dt + wire[p])) {
                end = -1;
                goto out;
            }
            pc[p]++;
            st[p] = READY;
        }
        T += dt;
    }
    for (int p = 0; p < np; p++)
        if (st[p] != DONE) end = -1;
out:
    free(st);
    free(d);
    return end;
}

/* The sends a process posts between two waits, on a fair network: each
 * through its sender's link from `start`, needing `work` of it, then
 * `tail` more to its destination's arrival slot arr[q][slot]. */
typedef struct flow {
    double start, work, tail;
    int q, slot;
} flow_t;

typedef struct burst {
    flow_t *f;
    int n, cap;
} burst_t;

/* A min-heap of flow indices keyed by their finish tags. */
static void heap_push(int *h, int *n, const double *key, int x)
{
    int i = (*n)++;
    while (i > 0 && key[h[(i - 1) / 2]] > key[x]) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

static int heap_pop(int *h, int *n, const double *key)
{
    const int top = h[0], x = h[--*n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && key[h[c + 1]] < key[h[c]]) c++;
        if (key[h[c]] >= key[x]) break;
        h[i] = h[c];
        i = c;
    }
    if (*n > 0) h[i] = x;
    return top;
}

/*
 * Processor sharing of one link by the burst's flows (in order of their
 * starts): each of the n in flight goes at 1/n of the link. In virtual
 * time V (the service each flow in flight has had so far), flow i is
 * through when V reaches its tag, V at its start plus its work; flows
 * finish in the order of their tags, and V advances at 1/n of real time.
 * Writes each arrival; returns when the link is free again.
 */
static double burst_flush(sim_t *s, burst_t *b)
{
    const int n = b->n;
    if (n == 0) return -INFINITY;
    double *tag = malloc(sizeof(double) * (size_t)n);
    int *heap = malloc(sizeof(int) * (size_t)n);
    if (!tag || !heap) {
        free(tag);
        free(heap);
        s->fail = 1;
        b->n = 0;
        return -INFINITY;
    }
    double T = b->f[0].start, V = 0;
    int next = 0, live = 0;
    while (next < n || live > 0) {
        const double t_end =
            live > 0 ? T + (tag[heap[0]] - V) * live : INFINITY;
        if (next < n && b->f[next].start <= t_end) {
            if (live > 0) V += (b->f[next].start - T) / live;
            if (b->f[next].start > T) T = b->f[next].start;
            tag[next] = V + b->f[next].work;
            heap_push(heap, &live, tag, next);
            next++;
        } else {
            const int j = heap_pop(heap, &live, tag);
            V = tag[j];
            T = t_end;
            const flow_t *f = &b->f[j];
            s->arr[f->q][f->slot] = T + f->tail;
        }
    }
    free(tag);
    free(heap);
    b->n = 0;
    return T;
}

static int burst_add(burst_t *b, flow_t f)
{
    if (b->n == b->cap) {
        int c = b->cap ? 2 * b->cap : 64;
        flow_t *x = realloc(b->f, sizeof(flow_t) * (size_t)c);
        if (!x) return -1;
        b->f = x;
        b->cap = c;
    }
    b->f[b->n++] = f;
    return 0;
}

/* Run every process's list; the time the last one finishes, or -1 if some
 * receive never finds its message (a schedule that would deadlock). */
static double sim_run(sim_t *s, const pumma_netmodel_t *nm, int kind)
{
    const int np = s->np;
    if (s->fail) return -1;
    /* PLOGPC on nodes with a processor for each process: the receive's
     * overhead charged, nothing shared -- this loop does that exactly,
     * and much faster than the shared engine */
    const int per = nm->s.ppn >= 1 && nm->s.ppn < np ? (int)nm->s.ppn : np;
    const int charge_or = kind == PUMMA_NM_PLOGPC;
    if (charge_or && (pumma_sim_always_shared ||
                      (nm->s.cores > 0 && nm->s.cores < per)))
        return sim_run_shared(s, nm, kind);
    int *pc = calloc((size_t)np * 2, sizeof(int));
    double *t = calloc((size_t)np * 6, sizeof(double));
    burst_t b[2] = {{0}, {0}};          /* the network link's, the memory's */
    if (!pc || !t) {
        free(pc);
        free(t);
        return -1;
    }
    double *sgate = t + np, *rlast = t + 2 * np, *lfree = t + 3 * np,
           *tw = t + 5 * np;      /* when it last waited (fair bursts) */
    int *rfrom = pc + np;
    for (int p = 0; p < np; p++) rlast[p] = -INFINITY, rfrom[p] = -1;
    for (int i = 0; i < 2 * np; i++) lfree[i] = -INFINITY;
    double end = 0;
    for (int moved = 1; moved;) {
        moved = 0;
        for (int p = 0; p < np; p++) {
            for (; pc[p] < s->nops[p]; pc[p]++) {
                const op_t *o = &s->ops[p][pc[p]];
                pumma_nm_cost_t c;
                if (o->kind == ADD) {
                    t[p] += o->bytes * nm->add;
                    tw[p] = t[p];
                } else if (o->kind == SEND &&
                           link_of(nm, p, o->peer)->s.fair > 0.5) {
                    /* through its link (the node's memory, or its network
                     * link) with the others posted meanwhile (burst_flush,
                     * when this process waits) */
                    const pumma_netmodel_t *ln = link_of(nm, p, o->peer);
                    const int l = ln != nm;
                    pumma_nm_msg(ln, kind, o->bytes, &c);
                    const double orc =
                        charge_or ? recv_cpu(ln, o->bytes, &c) : 0;
                    const int q = p * np + o->peer;
                    /* posted together: from when it last waited, not
                     * a send overhead after the one before (SimGrid
                     * starts a burst's messages at one instant, and so
                     * they finish together) */
                    const double free_at = lfree[2 * p + l],
                                 posted = tw[p];
                    if (push_arrival(s, p, o->peer, 0) ||
                        burst_add(&b[l], (flow_t){posted > free_at ? posted : free_at,
                                                  c.gap, c.arrive - c.gap - orc,
                                                  q, s->nsent[q] - 1})) {
                        end = -1;
                        goto out;
                    }
                    t[p] += c.busy;
                } else if (o->kind == SEND) {
                    const pumma_netmodel_t *ln = link_of(nm, p, o->peer);
                    pumma_nm_msg(ln, kind, o->bytes, &c);
                    double start = t[p] > sgate[p] ? t[p] : sgate[p];
                    const double orc =
                        charge_or ? recv_cpu(ln, o->bytes, &c) : 0;
                    if (push_arrival(s, p, o->peer, start + c.arrive - orc)) {
                        end = -1;
                        goto out;
                    }
                    t[p] = start + c.busy;
                    sgate[p] = start + c.gap;
                } else {
                    const int q = o->peer * np + p;
                    if (s->nrecv[q] == s->nsent[q]) break;  /* not sent yet */
                    const pumma_netmodel_t *ln = link_of(nm, o->peer, p);
                    pumma_nm_msg(ln, kind, o->bytes, &c);
                    double done = s->arr[q][s->nrecv[q]++];
                    if ((ln->s.fair <= 0.5 || rfrom[p] != o->peer) &&
                        done < rlast[p] + c.gap)
                        done = rlast[p] + c.gap;
                    rlast[p] = done;
                    rfrom[p] = o->peer;
                    if (t[p] < done) t[p] = done;
                    if (charge_or) t[p] += recv_cpu(ln, o->bytes, &c);
                    if (done > tw[p]) tw[p] = done;
                }
                moved = 1;
            }
            /* this process waits (or is done): its sends' arrivals, before
             * anyone looks for them */
            for (int l = 0; l < 2; l++) {
                if (b[l].n == 0) continue;
                const double f = burst_flush(s, &b[l]);
                if (f > lfree[2 * p + l]) lfree[2 * p + l] = f;
                if (s->fail) {
                    end = -1;
                    goto out;
                }
            }
        }
    }
    for (int p = 0; p < np; p++) {
        if (pc[p] < s->nops[p]) {
            end = -1;
            goto out;
        }
        if (t[p] > end) end = t[p];
    }
out:
    free(pc);
    free(t);
    free(b[0].f);
    free(b[1].f);
    return end;
}

/* The MPI variants have no tree of pumma's: simulated as Open MPI's
 * binomial, or in an SMPI build as SMPI's flat tree (pumma_bcast_mpi.c). */
static const pumma_coll_ops_t *tree_of(const pumma_coll_ops_t *v)
{
#ifdef PUMMA_SMPI
    const char *mpi_tree = "linear";
#else
    const char *mpi_tree = "binomial";
#endif
    return v->shape ? v : pumma_comm_find(PUMMA_BCAST_TABLE, mpi_tree);
}

/* Process me's part of a broadcast (reduce) with variant v: the pieces as
 * v's start() asks its engine for them, in the order the engine handles
 * them. emit(s, me, ...) gets each operation. */
static void build(sim_t *s, const pumma_coll_ops_t *v, int reduce, int np,
                  int root, int me, int64_t count, int esize, int seg_elems,
                  int *kids)
{
    const pumma_coll_ops_t *tv = tree_of(v);
    int seg = tv->seg_default < 0 ? 0
              : seg_elems > 0    ? seg_elems
                                 : tv->seg_default / esize;
    int npc, piece, parent;
    pumma_coll_cut(count, seg, &npc, &piece);
    const int nk = tv->shape(np, root, me, &parent, kids);
    for (int k = 0; k < npc; k++) {
        int64_t rest = count - (int64_t)k * piece;
        double len = (double)(rest < piece ? rest : piece) * esize;
        if (!reduce) {
            if (parent >= 0) emit(s, me, RECV, parent, len);
            for (int j = 0; j < nk; j++) emit(s, me, SEND, kids[j], len);
        } else {
            for (int j = 0; j < nk; j++) {
                emit(s, me, RECV, kids[j], len);
                emit(s, me, ADD, -1, len);
            }
            if (parent >= 0) emit(s, me, SEND, parent, len);
        }
    }
}

static double coll(const pumma_coll_ops_t *v, int reduce,
                   const pumma_netmodel_t *nm, int kind, int np, int root,
                   double bytes, double seg_bytes, int esize)
{
    if (np <= 1 || bytes <= 0) return 0;
    if (esize < 1) esize = 1;
    const int64_t count = (int64_t)ceil(bytes / esize);
    const int seg = (int)fmin(floor(seg_bytes / esize), 2147483647.0);
    sim_t s = {0};
    int *kids = malloc(sizeof(int) * (size_t)np);
    double r = -1;
    if (kids && !sim_init(&s, np)) {
        for (int me = 0; me < np; me++)
            build(&s, v, reduce, np, root, me, count, esize, seg, kids);
        r = sim_run(&s, nm, kind);
    }
    sim_free(&s);
    free(kids);
    return r;
}

double pumma_sim_bcast(const pumma_coll_ops_t *v, const pumma_netmodel_t *nm,
                       int kind, int np, int root, double bytes,
                       double seg_bytes, int esize)
{
    return coll(v, 0, nm, kind, np, root, bytes, seg_bytes, esize);
}

double pumma_sim_reduce(const pumma_coll_ops_t *v,
                        const pumma_netmodel_t *nm, int kind, int np,
                        int root, double bytes, double seg_bytes, int esize)
{
    return coll(v, 1, nm, kind, np, root, bytes, seg_bytes, esize);
}

int pumma_sim_sends(const pumma_coll_ops_t *v, int reduce, int np, int root,
                    int me, int64_t count, int esize, int seg_elems,
                    int *dest, double *bytes, int max)
{
    sim_t s = {0};
    int *kids = malloc(sizeof(int) * (size_t)(np > 0 ? np : 1)), n = -1;
    if (kids && np > 1 && !sim_init(&s, np)) {
        build(&s, v, reduce, np, root, me, count, esize, seg_elems, kids);
        n = 0;
        for (int i = 0; !s.fail && i < s.nops[me]; i++) {
            const op_t *o = &s.ops[me][i];
            if (o->kind != SEND) continue;
            if (n < max) {
                dest[n] = o->peer;
                bytes[n] = o->bytes;
            }
            n++;
        }
        if (s.fail) n = -1;
    } else if (kids && np <= 1) {
        n = 0;
    }
    sim_free(&s);
    free(kids);
    return n;
}

/* The two shifts (pumma_shift_simultaneous.c, pumma_shift_oddeven.c): a
 * roll to the next process, from the previous. oddeven: odd processes send
 * first; an even one sends once its receive from an odd one is in (on a
 * ring of odd length process 0 and the last, both even, send at once). */
double pumma_sim_shift(const pumma_shift_ops_t *v, const pumma_netmodel_t *nm,
                       int kind, int np, double bytes)
{
    if (np <= 1 || bytes <= 0) return 0;
    sim_t s = {0};
    double r = -1;
    const int oddeven = v->two_steps;
    if (sim_init(&s, np)) goto out;
    for (int me = 0; me < np; me++) {
        const int dest = (me + 1) % np, source = (me - 1 + np) % np;
        if (oddeven && me % 2 == 0 && source % 2 == 1) {
            emit(&s, me, RECV, source, bytes);
            emit(&s, me, SEND, dest, bytes);
        } else {
            emit(&s, me, SEND, dest, bytes);
            emit(&s, me, RECV, source, bytes);
        }
    }
    r = sim_run(&s, nm, kind);
out:
    sim_free(&s);
    return r;
}
