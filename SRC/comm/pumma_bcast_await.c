/*
 * pumma_bcast_await.c -- wait for one broadcast's data while relaying the
 * others in flight (declared in pumma_comm.h).
 *
 * Why: rankk, the mdb engine and stat's feed keep several broadcasts in
 * flight and wait for them one at a time. Blocked in one broadcast's
 * wait(), a process passed none of the others' pieces down their trees,
 * and every process below it waited too; a relay also held its multiply
 * until its own forwards had been received. Polling every broadcast with
 * MPI_Test fixed both (8192^3 at 16x16 simulated ranks, 72.7 -> 63.6 ms)
 * but spun: under SMPI every test is a simulated event, and the calls took
 * four times the wall time. Here the process blocks in MPI_Waitany on the
 * next receive of every broadcast it awaits, so it wakes once per piece
 * that arrives, as a plain wait does, and forwards that piece at once.
 *
 * Pieces of one broadcast are forwarded in order (only its next receive
 * is waited on): the k-th send to a child with the broadcast's tag meets
 * the child's k-th receive (pumma_comm.h, rule 2).
 */
#include <stdlib.h>

#include "pumma_comm.h"

enum { ON_STACK = 16 };

/* The variant that moves c's data: auto's choice, or v. */
static const pumma_coll_ops_t *moved_by(const pumma_coll_ops_t *v,
                                        const pumma_coll_t *c)
{
    return c->via ? c->via : v;
}

/* Where c's next awaited receive is, NULL when c's data is here (or c is
 * not a broadcast this file can see into). */
static MPI_Request *pending(const pumma_coll_ops_t *v, pumma_coll_t *c)
{
    const pumma_coll_ops_t *m = moved_by(v, c);
    if (m->test == pumma_bcast_tree_test) return pumma_bcast_tree_pending(c);
    if (m->test == pumma_coll_req_test && c->req[0] != MPI_REQUEST_NULL)
        return &c->req[0];
    return NULL;
}

/* c's awaited receive completed: a tree forwards the piece. */
static int arrived(const pumma_coll_ops_t *v, pumma_coll_t *c)
{
    return moved_by(v, c)->test == pumma_bcast_tree_test
               ? pumma_bcast_tree_arrived(c)
               : PUMMA_OK;
}

/* 1 once this process holds c's first upto elements. */
static int here(const pumma_coll_ops_t *v, pumma_coll_t *c, int64_t upto)
{
    if (!pending(v, c)) return 1;
    return moved_by(v, c)->test == pumma_bcast_tree_test &&
           pumma_bcast_tree_have(c) >= upto;
}

int pumma_bcast_await(const pumma_coll_ops_t *v, pumma_coll_t *c,
                      pumma_coll_t *const *others, int n)
{
    return pumma_bcast_await_upto(v, c, c->count, others, n);
}

int pumma_bcast_await_upto(const pumma_coll_ops_t *v, pumma_coll_t *c,
                           int64_t upto, pumma_coll_t *const *others, int n)
{
    const pumma_coll_ops_t *m = moved_by(v, c);
    if (m->test != pumma_bcast_tree_test && m->test != pumma_coll_req_test)
        return v->wait(c);
    MPI_Request stack_req[ON_STACK], *req = stack_req;
    pumma_coll_t *stack_of[ON_STACK], **of = stack_of;
    if (n + 1 > ON_STACK) {
        req = malloc(sizeof *req * (size_t)(n + 1));
        of = malloc(sizeof *of * (size_t)(n + 1));
        if (!req || !of) {              /* no room to relay: wait alone */
            free(req == stack_req ? NULL : req);
            free(of == stack_of ? NULL : of);
            return v->wait(c);
        }
    }
    int rc = PUMMA_OK;
    while (rc == PUMMA_OK && !here(v, c, upto)) {
        int k = 0, idx = MPI_UNDEFINED;
        of[k] = c;
        req[k++] = *pending(v, c);
        for (int i = 0; i < n; i++) {
            MPI_Request *r;
            if (others[i] && others[i] != c && (r = pending(v, others[i]))) {
                of[k] = others[i];
                req[k++] = *r;
            }
        }
        if (MPI_Waitany(k, req, &idx, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
            idx == MPI_UNDEFINED) {
            rc = PUMMA_EMPI;
            break;
        }
        *pending(v, of[idx]) = MPI_REQUEST_NULL;  /* MPI freed it */
        rc = arrived(v, of[idx]);
    }
    if (req != stack_req) {
        free(req);
        free(of);
    }
    return rc;
}
