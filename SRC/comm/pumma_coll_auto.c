/*
 * pumma_coll_auto.c -- the broadcast and reduce "auto": each message's
 * variant and segment decided when it starts, from its communicator's
 * size and its own size (pumma_model.h: the decision file, else the
 * models, else the defaults), as Open MPI's coll_tuned decides each of
 * its collectives. The planner runs these when the grid has a decision
 * file or models and the call forces no variant of the kind; algorithms
 * call them as any other variant.
 *
 * A segment the call asks for (PUMMA_SEGMENT, the per-call option) wins
 * over the decision's: it is already in c->segment.
 */
#include <string.h>

#include "pumma_comm.h"

/* The decision for one message: the decider's (dec: the grid's model's),
 * or without one the table's first variant, whole (the defaults' rule
 * when no model prices). */
static void decide(struct pumma_decider *dec, pumma_table_kind_t op, int np,
                   double bytes, int esize, pumma_decision_t *out)
{
    if (dec) {
        pumma_decider_ops(dec)->decide(dec, op, np, bytes, esize, out);
        return;
    }
    *out = (pumma_decision_t){pumma_comm_at(op, 0), 0, PUMMA_SRC_DEFAULT, -1,
                              NULL};
}

static int start_op(pumma_table_kind_t op, pumma_coll_t *c)
{
    int np;
    MPI_Comm_size(c->comm, &np);
    if (np == 1) {      /* nothing travels: nothing to decide or report */
        c->via = pumma_comm_at(op, 0);
        return c->via->start(c);
    }
    const int esize = (int)c->t->size;
    const double bytes = (double)c->count * esize;
    pumma_decision_t d;
    decide(c->dec, op, np, bytes, esize, &d);
    /* hier delegates to auto on one cluster: a decision file naming it
     * (edited by hand) must not send it back */
    if (strcmp(d.v->name, "hier") == 0) d.v = pumma_comm_at(op, 0);
    c->via = d.v;
    if (c->segment <= 0 && d.seg > 0)
        c->segment = d.seg >= esize ? (int)(d.seg / esize) : 1;
    const char *name = op == PUMMA_BCAST_TABLE ? "bcast" : "reduce";
    pumma_stats_decide(name, np, bytes, d.v->name, d.seg, d.source,
                       d.model_name);
    if (c->decided) pumma_decided_add(c->decided, name, d.v->name);
    return d.v->start(c);
}

/* The plan's record of auto's choices: messages per operation and
 * variant (the first PUMMA_DECIDED_MAX pairs; PUMMA_STATS counts all). */
void pumma_decided_add(pumma_decided_t *d, const char *op,
                       const char *variant)
{
    for (int i = 0; i < d->n; i++)
        if (d->v[i].op == op && d->v[i].variant == variant) {
            d->v[i].messages++;
            return;
        }
    if (d->n == PUMMA_DECIDED_MAX) return;
    d->v[d->n].op = op;
    d->v[d->n].variant = variant;
    d->v[d->n].messages = 1;
    d->n++;
}

static int bcast_start(pumma_coll_t *c) { return start_op(PUMMA_BCAST_TABLE, c); }
static int reduce_start(pumma_coll_t *c) { return start_op(PUMMA_REDUCE_TABLE, c); }

static int test(pumma_coll_t *c, int *done) { return c->via->test(c, done); }
static int wait(pumma_coll_t *c) { return c->via->wait(c); }

/* The decided variant's own cost, at the decided segment. */
static double cost_op(pumma_table_kind_t op, const pumma_model_t *mo, int np,
                      double bytes, double seg)
{
    pumma_decision_t d;
    decide(mo->dec, op, np, bytes, 8, &d);
    return d.v->cost(mo, np, bytes, seg > 0 ? seg : d.seg);
}

static double bcast_cost(const pumma_model_t *mo, int np, double bytes,
                         double seg)
{
    return cost_op(PUMMA_BCAST_TABLE, mo, np, bytes, seg);
}

static double reduce_cost(const pumma_model_t *mo, int np, double bytes,
                          double seg)
{
    return cost_op(PUMMA_REDUCE_TABLE, mo, np, bytes, seg);
}

/* Any variant may be decided: the most any of them holds. */
static int buffers_of(pumma_table_kind_t op, int np)
{
    int most = 0;
    const pumma_coll_ops_t *v;
    for (int i = 0; (v = pumma_comm_at(op, i)) != NULL; i++)
        if (v->buffers && v->buffers(np) > most) most = v->buffers(np);
    return most;
}

static int bcast_buffers(int np) { return buffers_of(PUMMA_BCAST_TABLE, np); }
static int reduce_buffers(int np) { return buffers_of(PUMMA_REDUCE_TABLE, np); }

const pumma_coll_ops_t pumma_bcast_auto = {
    "auto", "decided per message: the decision file, the models, the defaults",
    bcast_start, test, wait, bcast_cost, bcast_buffers, NULL, -1, 0};
const pumma_coll_ops_t pumma_reduce_auto = {
    "auto", "decided per message: the decision file, the models, the defaults",
    reduce_start, test, wait, reduce_cost, reduce_buffers, NULL, -1, 0};
