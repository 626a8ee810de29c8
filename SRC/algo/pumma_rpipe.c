/*
 * pumma_rpipe.c -- the pipeline of partial-product reductions used by the
 * transposed algorithms (A**T*B and A*B**T). See pumma_algo.h.
 */
#include <stdlib.h>

#include "pumma_algo.h"

int pumma_rpipe_init(pumma_rpipe_t *rp, const pumma_problem_t *p, int depth,
                     size_t slot_elems)
{
    rp->p = p;
    rp->depth = depth;
    rp->head = rp->count = 0;
    rp->slot = calloc((size_t)depth, sizeof(pumma_rslot_t));
    if (!rp->slot) return PUMMA_ENOMEM;
    for (int i = 0; i < depth; i++) {
        /* The sum exists only at the root, and only while it is in flight
         * (pumma_rpipe_post): memory stays near depth x one product. */
        rp->slot[i].part = pumma_malloc(slot_elems * p->t->size);
        if (slot_elems && !rp->slot[i].part) return PUMMA_ENOMEM;
    }
    return PUMMA_OK;
}

/* Complete the oldest reduce; its root adds the sum into C. */
static int retire(pumma_rpipe_t *rp)
{
    pumma_rslot_t *s = &rp->slot[rp->head];
    double t0 = pumma_stats_clock();
    if (rp->p->plan->reduce->wait(&s->coll)) return PUMMA_EMPI;
    pumma_stats_comm(t0);
    if (s->coll.root == rp->me) rp->land(rp, s);
    pumma_free(s->sum);
    s->sum = NULL;
    s->busy = 0;
    rp->head = (rp->head + 1) % rp->depth;
    rp->count--;
    return PUMMA_OK;
}

int pumma_rpipe_slot(pumma_rpipe_t *rp, pumma_rslot_t **s)
{
    if (rp->count == rp->depth) {
        int rc = retire(rp);
        if (rc) return rc;
    }
    *s = &rp->slot[(rp->head + rp->count) % rp->depth];
    return PUMMA_OK;
}

int pumma_rpipe_post(pumma_rpipe_t *rp, pumma_rslot_t *s, int root,
                     MPI_Comm comm, int tag)
{
    s->sum = NULL;
    int np;
    if (MPI_Comm_size(comm, &np) != MPI_SUCCESS) return PUMMA_EMPI;
    if (np == 1) {      /* nothing to sum: the product lands as it is */
        if (!s->in_c) {
            s->sum = s->part;
            rp->land(rp, s);
            s->sum = NULL;
        }
        return PUMMA_OK;
    }
    if (root == rp->me) {
        s->sum = pumma_malloc((size_t)s->rows * s->cols * rp->p->t->size);
        if (!s->sum) return PUMMA_ENOMEM;
    }
    /* The slot's own tag: reused only once its reduce is complete here
     * (pumma_comm.h, rule 2). */
    s->coll = pumma_coll_of(rp->p, s->in_c ? NULL : s->part, s->sum,
                            (int64_t)s->rows * s->cols, root, comm,
                            tag + (int)(s - rp->slot));
    s->busy = 1;
    rp->count++;
    return rp->p->plan->reduce->start(&s->coll);
}

int pumma_rpipe_drain(pumma_rpipe_t *rp)
{
    while (rp->count > 0) {
        int rc = retire(rp);
        if (rc) return rc;
    }
    return PUMMA_OK;
}

/*
 * A product larger than `piece` bytes (PUMMA_PIECE, 64 MiB by default) goes
 * out in pieces, each summed by its own reduce, so the pipeline's memory
 * stays near depth x piece however large C is. Below that one reduce per
 * product is faster: on this machine (2 ranks, N = 3000) cutting products
 * into 4 or 8 pieces cost 2-8% of the rate.
 */
int pumma_rpipe_piece(const pumma_problem_t *p, int n, int other)
{
    double bytes = (double)n * other * (double)p->t->size;
    double cap = p->plan ? p->plan->piece : bytes;
    if (bytes <= cap || n <= 1) return n;
    double k = bytes / cap;
    int piece = (int)((double)n / k);
    return piece < 1 ? 1 : piece;
}

int pumma_rpipe_progress(pumma_rpipe_t *rp)
{
    int pending = pumma_shift_progress(rp->roll);
    for (int i = 0; i < rp->count; i++) {
        int done = 1;
        rp->p->plan->reduce->test(
            &rp->slot[(rp->head + i) % rp->depth].coll, &done);
        if (!done) pending = 1;
    }
    return pending;
}

void pumma_rpipe_free(pumma_rpipe_t *rp)
{
    if (!rp->slot) return;
    for (int i = 0; i < rp->depth; i++) {
        pumma_free(rp->slot[i].part);
        pumma_free(rp->slot[i].sum);
        rp->slot[i].sum = NULL;
    }
    free(rp->slot);
    rp->slot = NULL;
}

double pumma_rpipe_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                        int stages, int R, double area, double k,
                        double roll_bytes)
{
    const double e = (double)p->t->size;
    double w = pumma_model_gemm(mo, p->t, area, 1, k, 0);
    double red = R > 1 ? pumma_coll_price(p->g, p->plan->reduce, mo,
                                          PUMMA_ALONG_COL, R, area * e,
                                          p->plan->segment)
                       : 0;
    /* A product lands in C by an add (the scatter of its rows), whether
     * summed over R > 1 or not: only a product whose rows are one run of
     * C goes into C directly, which block-cyclic C rarely allows. */
    double land = pumma_model_copy(mo, area * e, 0);
    double stage = R * pumma_model_hide(mo, w, red) + land;
    double roll = stages > 1 ? pumma_shift_price(p->g, p->plan->shift, mo,
                                                 PUMMA_ALONG_ROW, stages,
                                                 roll_bytes)
                             : 0;
    double T = (stages - 1) * pumma_model_hide(mo, stage, roll) + stage + red;
    /* C scaled by BETA first, in a pass of its own (R products of `area`
     * per stage, over the stages, make this process's C) */
    T += pumma_model_copy(mo, area * R * stages * e, 0);
    return T + (R > 1 ? pumma_model_copy(mo, roll_bytes, 0) : 0);
}

size_t pumma_rpipe_workspace(const pumma_problem_t *p, int depth, int R,
                             size_t slot_elems)
{
    const pumma_coll_ops_t *r = p->plan->reduce;
    const size_t bufs = R > 1 && r->buffers ? (size_t)r->buffers(R) : 0;
    return (size_t)depth * slot_elems * (2 + bufs) * p->t->size;
}
