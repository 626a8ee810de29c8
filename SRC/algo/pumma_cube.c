/*
 * pumma_cube.c -- the engine of split and layers: C := alpha*op(A)*op(B)
 * + beta*C on a cube of pm x pn x pk processes carved from the grid,
 * whatever the grid's shape (processes beyond pm*pn*pk stay idle but for
 * their share of the caller's data).
 *
 * Process (i, j, l) computes the product of op(A)'s rows I_i (M cut in
 * pm contiguous ranges) and op(B)'s columns J_j (N in pn) over K's slice
 * l (K in pk): a partial sum of C's block (I_i, J_j), which the pk layers
 * hold one each, taken in `steps` steps of the slice. The pn processes
 * (i, *, l) share op(A)'s block, the pm processes (*, j, l) op(B)'s.
 * First each fetches its home -- its n-th of the blocks, every step's --
 * from the caller's block-cyclic arrays by one all-to-all (pumma_remap:
 * each process receives its own box, contiguous); then each step's
 * blocks are gathered along the lines (pumma_allgather, Bruck's log2
 * rounds), the next step's in flight while one is multiplied. A
 * step-by-step all-to-all from the owners instead (this engine's first
 * form) sent each replica from its owner: on 64 simulated ranks it took
 * 0.30-0.37 s where this takes 0.20-0.22, and its hundreds of concurrent
 * flows a process made SMPI 5x slower. At the end each layer's block
 * goes by one all-to-all to the processes holding those entries of
 * sub(C), which add the pk partial sums into C (in layer order, so
 * results do not depend on arrival) with BETA.
 *
 * Each process receives (MK + KN)/P words for its homes, about (M/pm)(K/pk)
 * + (K/pk)(N/pn) gathered, and, holding C, pk times its part of it: with
 * pm = pn = pk = P^(1/3), about 3 (MNK/P)^(2/3) in all -- the lower
 * bound's leading term (Kwasniewski et al., SC'19) against 2D's (MK +
 * KN)/sqrt(P). The cube is chosen by the rows: split prices every cube
 * (pumma_split.c), layers replicates as memory allows (pumma_layers.c).
 *
 * Needs nothing of the layouts: A, B and C are read and written where
 * the caller has them.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_algo.h"

/* Remap ids (pumma_remap_ids): the homes of A and B use 0 and 1; sub(C)'s
 * way back, the layers' ids 0, 1, ...: at least this many. */
enum { IDS_LEAST = 2 };

/* The narrowest panel of a step's multiply cut for progress points. */
enum { PANEL_LEAST = 32 };

int pumma_cube_handles(char ta, char tb)
{
    (void)ta;
    (void)tb;
    return 1;
}

void pumma_cube_align(const pumma_problem_t *have, pumma_problem_t *want)
{
    *want = *have;
}

unsigned pumma_cube_uses(const pumma_problem_t *p)
{
    (void)p;
    return 0;
}

pumma_cube_t pumma_cube_of(const pumma_plan_t *pl)
{
    pumma_cube_t c = {pl->cube[0], pl->cube[1], pl->cube[2], pl->cube[3]};
    return c;
}

void pumma_cube_set(pumma_plan_t *pl, const pumma_cube_t *c)
{
    pl->cube[0] = c->pm;
    pl->cube[1] = c->pn;
    pl->cube[2] = c->pk;
    pl->cube[3] = c->steps;
}

/* The start of part i of n indices cut into `parts` contiguous ranges. */
static int cut(int n, int parts, int i)
{
    return (int)((int64_t)n * i / parts);
}

/* The most indices of one part. */
static int most(int n, int parts)
{
    return (int)(((int64_t)n + parts - 1) / parts);
}

/* Process r's place in the cube: i fastest, then j, then l; -1 in i when
 * it is idle. */
typedef struct place { int i, j, l; } place_t;
static place_t place_of(const pumma_cube_t *c, int r)
{
    place_t x = {-1, -1, -1};
    if (r >= c->pm * c->pn * c->pk) return x;
    x.i = r % c->pm;
    x.j = r / c->pm % c->pn;
    x.l = r / (c->pm * c->pn);
    return x;
}

/* ----------------------------------------------------------- the model */

/* How many processes of d hold a piece of a contiguous range of len
 * indices, at most. */
static double spread(const pumma_dist_t *d, double len)
{
    if (d->src < 0 || d->np == 1 || len <= 0) return 1;
    const double b = d->b > 0 ? d->b : 1;
    const double s = ceil(len / b) + 1;
    return s < d->np ? s : d->np;
}

/* op(A)'s distributions along M and K (or op(B)'s along K and N). */
static void op_dists(const pumma_view_t *v, char tr, int k_first,
                     const pumma_dist_t **mn, const pumma_dist_t **kd)
{
    const pumma_dist_t *r = &v->row, *c = &v->col;
    if (tr != 'N') {
        const pumma_dist_t *x = r;
        r = c;
        c = x;
    }
    /* op(A): rows M, columns K; op(B): rows K, columns N */
    *mn = k_first ? c : r;
    *kd = k_first ? r : c;
}

/* A step's all-to-all or sub(C)'s way back, as two parts: the network's
 * (a message per peer, the bytes through this host's link, which every
 * process on it uses at once: the model's shares of the grid's lines on
 * a host), which a multiply may hide; and the processor's, packing what
 * goes and unpacking what comes, which nothing hides. The copies are
 * scattered runs of a block's length or less (a box cut from a
 * block-cyclic array), priced at the model's scattered rate (delta_t,
 * the transposed copy's) rather than a plain copy's. */
typedef struct xcost { double net, cpu; } xcost_t;
static xcost_t exchange(const pumma_model_t *mo, double msgs, double bytes)
{
    double share = mo->share[0] * mo->share[1];
    if (share < 1) share = 1;
    xcost_t x = {mo->alpha * msgs + mo->beta * share * bytes,
                 pumma_model_copy(mo, 2 * bytes, 1)};
    return x;
}

/* What the cost and the workspace of p's cube start from: its shape; the
 * most rows, columns, K of a step and K of a layer of one process's
 * product; op(A)'s and op(B)'s distributions; a process's homes of them
 * (its piece of its line's block, every step) and its parts of the
 * caller's arrays. 0 when p's plan has no cube. */
typedef struct dims {
    pumma_cube_t c;
    double e, mi, nj, kc, kl, home_a, home_b, own_a, own_b, own_c;
    const pumma_dist_t *am, *ak, *bk, *bn;
} dims_t;

/* The most elements a process holds of A, B and C: the same for every
 * cube, and (pumma_view_maxelems walks the distributions) most of a
 * search's time were they counted for each. */
typedef struct owns { double a, b, c; } owns_t;
static owns_t owns_of(const pumma_problem_t *p)
{
    owns_t o = {(double)pumma_view_maxelems(&p->a),
                (double)pumma_view_maxelems(&p->b),
                (double)pumma_view_maxelems(&p->c)};
    return o;
}

static int dims_of(const pumma_problem_t *p, const owns_t *own, dims_t *d)
{
    d->c = pumma_cube_of(p->plan);
    if (d->c.pm < 1) return 0;
    d->e = (double)p->t->size;
    d->mi = most(p->m, d->c.pm);
    d->nj = most(p->n, d->c.pn);
    d->kc = most(p->k, d->c.pk * d->c.steps);
    d->kl = most(p->k, d->c.pk);
    op_dists(&p->a, p->transa, 0, &d->am, &d->ak);
    op_dists(&p->b, p->transb, 1, &d->bn, &d->bk);
    /* a home is X's rows times its pieces of every step's K (stored
     * columns K: op(A) of 'N', op(B) transposed), each rounding up by one
     * index, or K_l's rows times its piece of X, rounding up once */
    d->home_a = p->transa == 'N' ? d->mi * (d->kl / d->c.pn + d->c.steps)
                                 : d->kl * (d->mi / d->c.pn + 1);
    d->home_b = p->transb != 'N' ? d->nj * (d->kl / d->c.pm + d->c.steps)
                                 : d->kl * (d->nj / d->c.pm + 1);
    d->own_a = own->a;
    d->own_b = own->b;
    d->own_c = own->c;
    return 1;
}

static double cost(const pumma_problem_t *p, const pumma_model_t *mo,
                   const owns_t *own)
{
    dims_t d;
    if (!dims_of(p, own, &d)) return INFINITY;
    const pumma_cube_t c = d.c;
    const double mi = d.mi, nj = d.nj, kc = d.kc, e = d.e;
    /* the homes, exposed: each from the processes holding pieces of its
     * rows and K, and mine of the caller's arrays to the homes they
     * cross */
    const double hin = spread(d.am, mi) * spread(d.ak, d.kl) +
                       spread(d.bk, d.kl) * spread(d.bn, nj);
    const double hout = fmin(c.pm * c.pn * c.pk,
                             spread(d.am, p->m) * spread(d.ak, p->k) +
                                 spread(d.bk, p->k) * spread(d.bn, p->n));
    const double hbytes = e * fmax((d.home_a + d.home_b) / 2, d.own_a + d.own_b);
    const xcost_t homes = exchange(mo, fmax(hin, hout), hbytes);
    /* a step: op(A)'s block gathered along my line of pn, op(B)'s along
     * my line of pm (Bruck's rounds, log2 of the line, the two lines at
     * once), behind the previous step's multiply */
    double share = mo->share[0] * mo->share[1];
    if (share < 1) share = 1;
    const double step =
        mo->alpha * (pumma_model_log2(c.pn) +
                     pumma_model_log2(c.pm)) +
        mo->beta * share * e * kc *
            (mi * (c.pn - 1) / c.pn + nj * (c.pm - 1) / c.pm);
    const double gemm = pumma_model_gemm(mo, p->t, mi, nj, kc,
                                         p->transa != 'N' && p->transb != 'N');
    const double t = homes.net + homes.cpu + step + gemm +
                     (c.steps - 1) * pumma_model_hide(mo, gemm, step);
    /* sub(C)'s way back, exposed: the holder of a part receives it from
     * each layer, as many pieces as blocks of the cube cross it; a block
     * goes to the holders of its entries; then the layers' sums */
    const double own_c = d.own_c;
    const double in = c.pk * fmin(c.pm, p->c.row.np) * fmin(c.pn, p->c.col.np);
    const double out = spread(&p->c.row, mi) * spread(&p->c.col, nj);
    const xcost_t back = exchange(mo, fmax(in, out), e * fmax(c.pk * own_c, mi * nj));
    return t + back.net + back.cpu + pumma_model_copy(mo, e * c.pk * own_c, 0);
}

double pumma_cube_cost(const pumma_problem_t *p, const pumma_model_t *mo)
{
    const owns_t own = owns_of(p);
    return cost(p, mo, &own);
}

/* The bytes of temporaries, at most, on any process. */
static size_t workspace(const pumma_problem_t *p, const owns_t *own)
{
    dims_t d;
    if (!dims_of(p, own, &d)) return 0;
    const double part = d.mi * d.nj;
    const double gathers = 2 * d.kc * (d.mi + d.nj);   /* two steps' */
    const double homes = d.home_a + d.home_b;
    /* fetching the homes: them, the messages bringing them, and my parts
     * of the caller's arrays packed for them */
    const double fetch = part + gathers + 2 * homes + d.own_a + d.own_b;
    /* the way back: my block packed, each layer's sums and messages */
    const double back = 2 * part + 2.0 * d.c.pk * d.own_c;
    const double w = d.e * (fetch > back ? fetch : back);
    return w >= (double)SIZE_MAX ? SIZE_MAX : (size_t)w;
}

size_t pumma_cube_workspace(const pumma_problem_t *p)
{
    const owns_t own = owns_of(p);
    return workspace(p, &own);
}

/* ------------------------------------------------------- the search */

/* The steps tried: 1, 2, 4, ... while each step keeps some of K. */
enum { STEPS_MOST = 64 };

/* The best and the least cube of more than `half` processes. */
typedef struct found {
    pumma_cube_t best, least;
    double best_t;
    size_t least_ws;
} found_t;

/* The sides a search tries along a free dimension: all up to 16, and
 * beyond only products of 2, 3, 5 and 7 (about 140 up to 1,024). Every
 * cube priced cost 17 ms a call at 1,024 processes, a plan made at each
 * call; the cube of a grid that does not factor still comes out, the
 * third side taking what is left (and leaving the rest idle). */
static int tried(int x)
{
    if (x <= 16) return 1;
    static const int primes[] = {2, 3, 5, 7};
    for (int i = 0; i < 4; i++)
        while (x % primes[i] == 0) x /= primes[i];
    return x == 1;
}

/* Cube pm x pn x pk at its best number of steps into f: the steps from
 * 1 up while the time falls (it falls, then rises: fewer, longer steps
 * hide less of the gathers behind the multiply; more pay each step's
 * messages), the least workspace kept for when nothing fits. */
static void try_cube(const pumma_problem_t *p, const pumma_model_t *mo,
                     pumma_plan_t *pl, const owns_t *own, int pm, int pn,
                     int pk, found_t *f)
{
    double prev = INFINITY;
    for (int s = 1; s <= STEPS_MOST && (int64_t)pk * s <= p->k; s *= 2) {
        const pumma_cube_t c = {pm, pn, pk, s};
        pumma_cube_set(pl, &c);
        const size_t ws = workspace(p, own);
        if (ws < f->least_ws) {
            f->least_ws = ws;
            f->least = c;
        }
        if ((double)ws > pl->limit) continue;
        const double t = cost(p, mo, own);
        if (t < f->best_t) {
            f->best_t = t;
            f->best = c;
        }
        if (t > prev) break;
        prev = t;
    }
}

/* The cubes of more than `half` processes with pk in [klo, khi]: pm (or
 * pn) and pk among the sides tried (pk any in a range of one), the third
 * side as large as the processes allow -- more processes on a dimension
 * cut each one's part of the product and its share of the gathers. */
static void scan(const pumma_problem_t *p, const pumma_model_t *mo,
                 pumma_plan_t *pl, int klo, int khi, int half, found_t *f)
{
    const owns_t own = owns_of(p);
    const int np = p->g->nprow * p->g->npcol;
    for (int rows = 1; rows >= 0; rows--)      /* pm tried, pn the rest; then turned */
        for (int x = 1; x <= np && x <= (rows ? p->m : p->n); x++) {
            if (!tried(x)) continue;
            for (int pk = klo; pk <= khi && x * pk <= np && pk <= p->k; pk++) {
                if (klo < khi && !tried(pk)) continue;
                int y = np / (x * pk);
                const int ylim = rows ? p->n : p->m;
                if (y > ylim) y = ylim;
                if (x * y * pk <= half) continue;
                try_cube(p, mo, pl, &own, rows ? x : y, rows ? y : x, pk, f);
            }
        }
}

int pumma_cube_search(const pumma_problem_t *p, const pumma_model_t *mo,
                      pumma_plan_t *pl, int klo, int khi)
{
    found_t f = {{0, 0, 0, 0}, {0, 0, 0, 0}, INFINITY, SIZE_MAX};
    if (pumma_remap_ids(p->g) < IDS_LEAST) {
        memset(pl->cube, 0, sizeof pl->cube);   /* cost(): INFINITY */
        return 0;
    }
    /* more than half the processes; a product too small for that: any */
    scan(p, mo, pl, klo, khi, p->g->nprow * p->g->npcol / 2, &f);
    if (!f.least.pm) scan(p, mo, pl, klo, khi, 0, &f);
    pumma_cube_set(pl, f.best.pm ? &f.best : &f.least);
    return f.best.pm > 0;
}

/* ------------------------------------------------------------- the run */

/*
 * An operand's part in the cube, in its stored orientation: the step
 * block op(A) (op(B)) of process (i, j, l) is stored R x S, and its q
 * sharers (the pn processes (i, *, l) for op(A), the pm (*, j, l) for
 * op(B)) each fetch and keep a piece of its stored columns (its "home"),
 * the step's block then gathered along their line. When the stored
 * columns are K (A 'N', B 'T': kcols) the pieces cut each step's K, and
 * a process's home is its X rows (I_i or J_j) times its pieces of every
 * step, one after the other: a step's piece is contiguous there. Else
 * (A 'T', B 'N') the pieces cut X, and the home is K_l's rows times its
 * piece of X: a step's piece is a strided window of it.
 */
typedef struct opnd {
    int kcols;               /* 1: the stored columns are K */
    int x0, x1;              /* my X range (I_i, J_j) */
    int k0, k1;              /* my layer's K range */
    int q, me;               /* sharers, my index among them */
} opnd_t;

/* The start of my layer's step t within K, and its length. */
static int step_lo(const pumma_problem_t *p, const pumma_cube_t *c, int l,
                   int t)
{
    return cut(p->k, c->pk * c->steps, l * c->steps + t);
}

/* The operand of process `who` (A: a = 1) as opnd_t; 0 when idle. */
static int opnd_of(const pumma_problem_t *p, const pumma_cube_t *c, int a,
                   int who, opnd_t *o)
{
    const place_t x = place_of(c, who);
    if (x.i < 0) return 0;
    o->kcols = a ? p->transa == 'N' : p->transb != 'N';
    o->x0 = a ? cut(p->m, c->pm, x.i) : cut(p->n, c->pn, x.j);
    o->x1 = a ? cut(p->m, c->pm, x.i + 1) : cut(p->n, c->pn, x.j + 1);
    o->k0 = step_lo(p, c, x.l, 0);
    o->k1 = step_lo(p, c, x.l, c->steps);
    o->q = a ? c->pn : c->pm;
    o->me = a ? x.j : x.i;
    return 1;
}

/* The stored rows x columns of step t's piece r (r = -1: the whole
 * step block), as [r0, r1) x [c0, c1) in the stored window. */
static void piece_box(const pumma_problem_t *p, const pumma_cube_t *c,
                      const opnd_t *o, int l, int t, int r, int *r0, int *r1,
                      int *c0, int *c1)
{
    const int s0 = step_lo(p, c, l, t), s1 = step_lo(p, c, l, t + 1);
    int x0 = o->x0, x1 = o->x1, k0 = s0, k1 = s1;
    if (r >= 0 && o->kcols) {
        k0 = s0 + cut(s1 - s0, o->q, r);
        k1 = s0 + cut(s1 - s0, o->q, r + 1);
    } else if (r >= 0) {
        x0 = o->x0 + cut(o->x1 - o->x0, o->q, r);
        x1 = o->x0 + cut(o->x1 - o->x0, o->q, r + 1);
    }
    if (o->kcols) { *r0 = x0; *r1 = x1; *c0 = k0; *c1 = k1; }
    else { *r0 = k0; *r1 = k1; *c0 = x0; *c1 = x1; }
}

/* Every process's home of operand a (or, c_layer >= 0, its block of C if
 * it is in that layer) as a panel side's lists, for pumma_remap_start. */
typedef struct homes {
    pumma_ilist_t *r, *c;
    pumma_ivl_t *v;          /* np x (1 + steps) intervals */
    int per;
} homes_t;

static int homes_alloc(homes_t *h, int np, int steps)
{
    h->per = 1 + steps;
    h->r = calloc((size_t)np, sizeof *h->r);
    h->c = calloc((size_t)np, sizeof *h->c);
    h->v = calloc((size_t)np * (size_t)h->per, sizeof *h->v);
    return h->r && h->c && h->v ? PUMMA_OK : PUMMA_ENOMEM;
}

static void homes_free(homes_t *h)
{
    free(h->r);
    free(h->c);
    free(h->v);
}

static void homes_of(const pumma_problem_t *p, const pumma_cube_t *c, int a,
                     int c_layer, homes_t *h)
{
    const int np = p->g->nprow * p->g->npcol;
    for (int w = 0; w < np; w++) {
        pumma_ivl_t *v = &h->v[(size_t)w * (size_t)h->per];
        h->r[w] = (pumma_ilist_t){0, v};
        h->c[w] = (pumma_ilist_t){0, v + 1};
        const place_t x = place_of(c, w);
        if (x.i < 0) continue;
        if (c_layer >= 0) {                   /* C's block, its layer only */
            if (x.l != c_layer) continue;
            const int i0 = cut(p->m, c->pm, x.i), i1 = cut(p->m, c->pm, x.i + 1);
            const int j0 = cut(p->n, c->pn, x.j), j1 = cut(p->n, c->pn, x.j + 1);
            if (i1 <= i0 || j1 <= j0) continue;
            v[0] = (pumma_ivl_t){i0, i1};
            v[1] = (pumma_ivl_t){j0, j1};
            h->r[w].n = h->c[w].n = 1;
            continue;
        }
        opnd_t o;
        opnd_of(p, c, a, w, &o);
        int r0 = 0, r1 = 0, c0 = 0, c1 = 0, n = 0;
        if (o.kcols) {               /* X rows, my piece of every step */
            for (int t = 0; t < c->steps; t++) {
                piece_box(p, c, &o, x.l, t, o.me, &r0, &r1, &c0, &c1);
                if (c1 > c0) h->c[w].v[n++] = (pumma_ivl_t){c0, c1};
            }
            h->c[w].n = n;
        } else {                     /* K_l's rows, my piece of X */
            piece_box(p, c, &o, x.l, 0, o.me, &r0, &r1, &c0, &c1);
            r1 = o.k1;
            if (c1 > c0) h->c[w].v[n++] = (pumma_ivl_t){c0, c1};
            h->c[w].n = n;
        }
        h->r[w].v[0] = (pumma_ivl_t){r0, r1};
        h->r[w].n = r1 > r0 && h->c[w].n > 0;
        if (!h->r[w].n) h->c[w].n = 0;
    }
}

/* ------------------------------------------------ the lines of a cube */

/*
 * The communicators of a cube's lines on a grid's communicator: for each
 * process in the cube, its line along j (the pn sharers of its op(A)
 * block, rank j) and along i (the pm sharers of its op(B) block, rank i).
 * Made at a cube's first call on the communicator (two MPI_Comm_split),
 * kept as an MPI attribute of it and freed with it (the grid's epochs
 * each have theirs: pumma_grid.c); at most LINES_KEPT cubes' lines, the
 * one least recently used freed for a new one -- a solver's calls of
 * changing shapes would otherwise take a communicator pair for every
 * cube it meets, and MPI has a few thousand. Every process of the grid
 * makes the same calls, so all free the same.
 */
enum { LINES_KEPT = 8 };
typedef struct line_set {
    int pm, pn, pk;
    MPI_Comm a, b;
    struct line_set *next;
} line_set_t;
typedef struct line_cache { line_set_t *head; } line_cache_t;
static int lines_key = MPI_KEYVAL_INVALID;

static int lines_delete(MPI_Comm comm, int key, void *val, void *extra)
{
    int fin = 0;
    MPI_Finalized(&fin);
    line_cache_t *lc = val;
    for (line_set_t *l = lc->head, *n; l; l = n) {
        n = l->next;
        if (!fin && l->a != MPI_COMM_NULL) MPI_Comm_free(&l->a);
        if (!fin && l->b != MPI_COMM_NULL) MPI_Comm_free(&l->b);
        free(l);
    }
    free(lc);
    return MPI_SUCCESS;
}

static int lines_of(const pumma_grid_t *g, const pumma_cube_t *c, int me,
                    MPI_Comm *la, MPI_Comm *lb)
{
    void *val = NULL;
    int flag = 0;
    if (lines_key == MPI_KEYVAL_INVALID &&
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, lines_delete,
                               &lines_key, NULL) != MPI_SUCCESS)
        return PUMMA_EMPI;
    if (MPI_Comm_get_attr(g->all, lines_key, &val, &flag) != MPI_SUCCESS)
        return PUMMA_EMPI;
    line_cache_t *lc = flag ? val : NULL;
    if (!lc) {
        if (!(lc = calloc(1, sizeof *lc))) return PUMMA_ENOMEM;
        if (MPI_Comm_set_attr(g->all, lines_key, lc) != MPI_SUCCESS) {
            free(lc);
            return PUMMA_EMPI;
        }
    }
    for (line_set_t **at = &lc->head, *l; (l = *at) != NULL; at = &l->next)
        if (l->pm == c->pm && l->pn == c->pn && l->pk == c->pk) {
            *at = l->next;                    /* to the front: used last */
            l->next = lc->head;
            lc->head = l;
            *la = l->a;
            *lb = l->b;
            return PUMMA_OK;
        }
    line_set_t *l = calloc(1, sizeof *l);
    if (!l) return PUMMA_ENOMEM;
    const place_t x = place_of(c, me);
    const int in = x.i >= 0;
    l->pm = c->pm;
    l->pn = c->pn;
    l->pk = c->pk;
    if (MPI_Comm_split(g->all, in ? x.i + c->pm * x.l : MPI_UNDEFINED,
                       in ? x.j : 0, &l->a) != MPI_SUCCESS ||
        MPI_Comm_split(g->all, in ? x.j + c->pn * x.l : MPI_UNDEFINED,
                       in ? x.i : 0, &l->b) != MPI_SUCCESS) {
        free(l);
        return PUMMA_EMPI;
    }
    l->next = lc->head;
    lc->head = l;
    *la = l->a;
    *lb = l->b;
    /* beyond LINES_KEPT, those unused longest go */
    int kept = 1;
    for (line_set_t *x = lc->head; x; x = x->next, kept++)
        if (kept == LINES_KEPT) {
            line_set_t *old = x->next;
            x->next = NULL;
            for (line_set_t *n; old; old = n) {
                n = old->next;
                if (old->a != MPI_COMM_NULL) MPI_Comm_free(&old->a);
                if (old->b != MPI_COMM_NULL) MPI_Comm_free(&old->b);
                free(old);
            }
            break;
        }
    return PUMMA_OK;
}

/* ------------------------------------------------------------ steps */

/* A step's gather along one line: the block it fills, stored R x S
 * (ld R), and the gather in flight (pumma_allgather.c). */
typedef struct gath {
    char *buf;
    int rows, cols;          /* the step block, stored */
    int *cnt, *dsp;          /* per sharer, in elements */
    int live;                /* started and not yet waited for */
    pumma_allgather_t ag;
} gath_t;

/* Start gathering step t of operand a into g (my home `home`, ld hld):
 * my piece copied into its place, the rest gathered. Steps t and t + 2
 * use the same tags: step t's gather is done before t + 2's starts, and
 * messages between two processes on one communicator and tag arrive in
 * the order sent. */
static int gath_start(const pumma_problem_t *p, const pumma_cube_t *c, int a,
                      int t, const char *home, int hld, MPI_Comm line,
                      gath_t *g)
{
    const pumma_grid_t *gr = p->g;
    const pumma_type_t *ty = p->t;
    const int me = gr->myrow * gr->npcol + gr->mycol;
    const place_t x = place_of(c, me);
    opnd_t o;
    opnd_of(p, c, a, me, &o);
    int r0, r1, c0, c1;
    piece_box(p, c, &o, x.l, t, -1, &r0, &r1, &c0, &c1);
    g->rows = r1 - r0;
    g->cols = c1 - c0;
    int off = 0;
    for (int r = 0; r < o.q; r++) {
        int a0, a1, b0, b1;
        piece_box(p, c, &o, x.l, t, r, &a0, &a1, &b0, &b1);
        g->cnt[r] = (a1 - a0) * (b1 - b0);
        g->dsp[r] = off;
        off += g->cnt[r];
    }
    /* my piece in my home: kcols, the steps' pieces one after the other
     * (R x its K); else rows t's K of K_l, my columns of X (a window) */
    int mr0, mr1, mc0, mc1;
    piece_box(p, c, &o, x.l, t, o.me, &mr0, &mr1, &mc0, &mc1);
    const char *from;
    int ld;
    if (o.kcols) {
        size_t before = 0;
        for (int u = 0; u < t; u++) {
            int q0, q1, s0, s1;
            piece_box(p, c, &o, x.l, u, o.me, &q0, &q1, &s0, &s1);
            before += (size_t)(s1 - s0);
        }
        from = home + before * (size_t)g->rows * ty->size;
        ld = g->rows;
    } else {
        from = home + (size_t)(mr0 - o.k0) * ty->size;
        ld = hld;
    }
    if (g->cnt[o.me] > 0)
        ty->geadd('N', mr1 - mr0, mc1 - mc0, ty->one, from, ld, ty->zero,
                  g->buf + (size_t)g->dsp[o.me] * ty->size,
                  mr1 - mr0 > 0 ? mr1 - mr0 : 1);
    pumma_stats_recv((double)(off - g->cnt[o.me]) * (double)ty->size);
    g->live = 1;
    return pumma_allgather_start(&g->ag, g->buf, g->cnt, g->dsp, ty->mpi,
                                 ty->size, line, (t % 2) * 64);
}

static int gath_wait(gath_t *g)
{
    if (!g->live) return PUMMA_OK;
    g->live = 0;
    return pumma_allgather_wait(&g->ag);
}

/* pumma_local_gemm's progress: the next step's gathers. */
static int progress(void *ctx)
{
    gath_t *g = ctx;
    int pending = 0;
    for (int a = 0; a < 2; a++) {
        int done = 1;
        if (g[a].live && pumma_allgather_test(&g[a].ag, &done)) done = 1;
        pending |= !done;
    }
    return pending;
}

/* sub(C) := beta*sub(C) + the layers' sums, the first batch of layers
 * bringing beta, the rest adding (in layer order). */
static int way_back(const pumma_problem_t *p, const pumma_cube_t *c,
                    homes_t *hx, const char *part, int ldp)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const int batch_most = pumma_remap_ids(g);
    const int mloc = pumma_view_mloc(&p->c, g->myrow);
    const int nloc = pumma_view_nloc(&p->c, g->mycol);
    const pumma_side_t cs = pumma_side_view(g, &p->c, p->m, p->n);
    int rc = PUMMA_OK;
    for (int l0 = 0; l0 < c->pk && !rc; l0 += batch_most) {
        const int nb = c->pk - l0 < batch_most ? c->pk - l0 : batch_most;
        pumma_remap_t **r = calloc((size_t)nb, sizeof *r);
        pumma_view_t *sum = calloc((size_t)nb, sizeof *sum);
        if (!r || !sum) rc = PUMMA_ENOMEM;
        for (int b = 0; b < nb && !rc; b++) {
            sum[b] = p->c;
            if ((rc = pumma_view_alloc(t, g, &sum[b]))) break;
            homes_of(p, c, 0, l0 + b, hx);
            const pumma_side_t src =
                pumma_side_panel(g, hx->r, hx->c, p->m, p->n, (void *)part, ldp);
            pumma_side_t dst = cs;
            dst.data = sum[b].data;
            dst.ld = sum[b].ld;
            rc = pumma_remap_start(t, g, &src, &dst, 0, NULL, b, &r[b]);
        }
        for (int b = 0; b < nb && !rc; b++) {
            rc = pumma_remap_wait(r[b]);
            r[b] = NULL;
            if (!rc && mloc > 0 && nloc > 0)
                t->geadd('N', mloc, nloc, t->one, sum[b].data, sum[b].ld,
                         l0 + b == 0 ? p->beta : t->one, p->c.data, p->c.ld);
        }
        for (int b = 0; sum && b < nb; b++) pumma_free(sum[b].data);
        free(r);
        free(sum);
    }
    return rc;
}

/* My homes of op(A) and op(B), fetched from the caller's arrays by one
 * all-to-all each (both in flight at once). */
static int fetch_homes(const pumma_problem_t *p, const pumma_cube_t *c,
                       homes_t *hx, char *home[2], int hld[2])
{
    const pumma_grid_t *g = p->g;
    const int me = g->myrow * g->npcol + g->mycol;
    pumma_remap_t *r[2] = {NULL, NULL};
    int rc = PUMMA_OK;
    for (int a = 1; a >= 0 && !rc; a--) {
        const int x = a ? 0 : 1;
        const char tr = a ? p->transa : p->transb;
        const int rows = a ? (tr == 'N' ? p->m : p->k) : (tr == 'N' ? p->k : p->n);
        const int cols = a ? (tr == 'N' ? p->k : p->m) : (tr == 'N' ? p->n : p->k);
        homes_of(p, c, a, -1, hx);
        const long hr = pumma_ilist_len(&hx->r[me]);
        const long hc = pumma_ilist_len(&hx->c[me]);
        hld[x] = hr > 0 ? (int)hr : 1;
        home[x] = pumma_malloc((size_t)(hr * hc) * p->t->size);
        if (hr * hc > 0 && !home[x]) return PUMMA_ENOMEM;
        const pumma_side_t src = pumma_side_view(g, a ? &p->a : &p->b, rows, cols);
        const pumma_side_t dst = pumma_side_panel(g, hx->r, hx->c, rows, cols, home[x], hld[x]);
        rc = pumma_remap_start(p->t, g, &src, &dst, 0, NULL, x, &r[x]);
    }
    for (int x = 0; x < 2; x++)
        if (r[x]) {
            const int w = pumma_remap_wait(r[x]);
            if (!rc) rc = w;
        }
    return rc;
}

int pumma_cube_run(const pumma_problem_t *p)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const pumma_cube_t c = pumma_cube_of(p->plan);
    const int np = g->nprow * g->npcol, me = g->myrow * g->npcol + g->mycol;
    if (c.pm < 1 || c.pm * c.pn * c.pk > np || c.steps < 1)
        return PUMMA_EGRID;
    if (pumma_remap_ids(g) < IDS_LEAST) return PUMMA_EGRID;
    const place_t x = place_of(&c, me);
    const int in = x.i >= 0;
    const int mi = in ? cut(p->m, c.pm, x.i + 1) - cut(p->m, c.pm, x.i) : 0;
    const int nj = in ? cut(p->n, c.pn, x.j + 1) - cut(p->n, c.pn, x.j) : 0;
    const int kc = most(p->k, c.pk * c.steps);
    const size_t e = t->size;
    MPI_Comm la = MPI_COMM_NULL, lb = MPI_COMM_NULL;
    homes_t hx = {0};
    char *home[2] = {NULL, NULL}, *part = NULL;
    int hld[2] = {1, 1};
    gath_t gs[2][2];             /* [step % 2][A, B] */
    memset(gs, 0, sizeof gs);
    int *cnt = calloc(4 * (size_t)(c.pm + c.pn), sizeof *cnt);
    int rc = cnt ? homes_alloc(&hx, np, c.steps) : PUMMA_ENOMEM;
    if (!rc) rc = lines_of(g, &c, me, &la, &lb);
    for (int s = 0; s < 2 && cnt; s++)
        for (int a = 0; a < 2; a++) {
            gath_t *q = &gs[s][a];
            const int n = a ? c.pm : c.pn;
            q->cnt = cnt + (size_t)(2 * s) * (size_t)(c.pm + c.pn) +
                     (a ? (size_t)(2 * c.pn) : 0);
            q->dsp = q->cnt + n;
            if (!rc && in && (size_t)kc * (size_t)(a ? nj : mi) > 0 &&
                !(q->buf = pumma_malloc((size_t)kc * (size_t)(a ? nj : mi) * e)))
                rc = PUMMA_ENOMEM;
        }
    if (!rc && in && mi > 0 && nj > 0 &&
        !(part = pumma_malloc((size_t)mi * (size_t)nj * e)))
        rc = PUMMA_ENOMEM;
    if (!rc) rc = fetch_homes(p, &c, &hx, home, hld);
    if (!rc && in) {
        rc = gath_start(p, &c, 1, 0, home[0], hld[0], la, &gs[0][0]);
        if (!rc) rc = gath_start(p, &c, 0, 0, home[1], hld[1], lb, &gs[0][1]);
    }
    /* The next step's gathers advance a round at each of the multiply's
     * progress points: at least as many points as their rounds, the
     * panels no narrower than PANEL_LEAST (a fixed width, as
     * pumma_local_gemm wants, whatever the arrivals). */
    pumma_plan_t wpl = *p->plan;
    pumma_problem_t pw = *p;
    pw.plan = &wpl;
    {
        const int ra = pumma_model_log2(c.pn);
        const int rb = pumma_model_log2(c.pm);
        const int need = (ra > rb ? ra : rb) + 1;
        int w = wpl.panel > 0 && wpl.panel < nj ? wpl.panel : nj;
        if (nj > 0 && (nj + w - 1) / w < need) w = (nj + need - 1) / need;
        wpl.panel = w > PANEL_LEAST ? w : PANEL_LEAST;
    }
    for (int s = 0; in && s < c.steps && !rc; s++) {
        gath_t *now = gs[s % 2], *next = gs[(s + 1) % 2];
        const int more = s + 1 < c.steps;
        if (more &&
            ((rc = gath_start(p, &c, 1, s + 1, home[0], hld[0], la, &next[0])) ||
             (rc = gath_start(p, &c, 0, s + 1, home[1], hld[1], lb, &next[1]))))
            break;
        if ((rc = gath_wait(&now[0])) || (rc = gath_wait(&now[1]))) break;
        const int kt = p->transa == 'N' ? now[0].cols : now[0].rows;
        if (mi > 0 && nj > 0)
            pumma_local_gemm(&pw, p->transa, p->transb, mi, nj, kt,
                             p->alpha,
                             now[0].buf, now[0].rows > 0 ? now[0].rows : 1,
                             now[1].buf, now[1].rows > 0 ? now[1].rows : 1,
                             s ? t->one : t->zero, part, mi,
                             more ? progress : NULL, next);
    }
    /* the homes and steps' buffers go before sub(C)'s way back */
    for (int s = 0; s < 2; s++)
        for (int a = 0; a < 2; a++) {
            const int w = gath_wait(&gs[s][a]);
            if (!rc) rc = w;
            pumma_free(gs[s][a].buf);
        }
    pumma_free(home[0]);
    pumma_free(home[1]);
    if (!rc) rc = way_back(p, &c, &hx, part, mi);
    pumma_free(part);
    free(cnt);
    homes_free(&hx);
    return rc;
}
