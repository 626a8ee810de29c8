/*
 * pumma_cost.c -- the pieces every price is made of: a message, a local
 * multiply, a copy, a redistribution, as a pumma_model_t's values make
 * them. Arithmetic on the values alone, so that the collectives' cost
 * functions (SRC/comm) and the algorithms' price what they would do
 * without reaching up to the model's measuring and deciding
 * (SRC/model/pumma_model.c, which fills the values).
 */
#include <math.h>

#include "pumma_base.h"

double pumma_model_msg(const pumma_model_t *mo, double bytes)
{
    return mo->alpha + mo->beta * bytes;
}

int pumma_model_log2(int np)
{
    int d = 0;
    while ((1 << d) < np) d++;
    return d;
}

static int type_slot(const pumma_type_t *t)
{
    return t->is_complex ? (t->size == 8 ? 2 : 3) : (t->size == 4 ? 0 : 1);
}

double pumma_model_gemm(const pumma_model_t *mo, const pumma_type_t *t,
                        double m, double n, double k, int transposed)
{
    if (m <= 0 || n <= 0 || k <= 0) return 0;
    double g = mo->gamma[type_slot(t)] * (1.0 + mo->gamma_k / k);
    return g * m * n * k * (transposed ? mo->gamma_t : 1.0);
}

double pumma_model_hide(const pumma_model_t *mo, double work, double comm)
{
    return work + comm - mo->overlap * (work < comm ? work : comm);
}

void pumma_model_paced(const pumma_model_t *mo, pumma_model_t *out)
{
    *out = *mo;
    const double s = mo->slow;
    if (!(s > 1)) return;
    for (int i = 0; i < 4; i++) out->gamma[i] *= s;
    out->delta *= s;
    out->delta_t *= s;
    out->slow = 1;              /* paced once */
}

double pumma_model_copy(const pumma_model_t *mo, double bytes, int transposed)
{
    return bytes * (transposed ? mo->delta_t : mo->delta);
}

/* Pieces of a segmented collective (as pumma_bcast_tree.c cuts them), as
 * far as they pipeline: on a fair network (mo->fair) the pieces a process
 * posts together share its link and arrive together, one piece's worth. */
int pumma_model_pieces(const pumma_model_t *mo, double bytes, double seg_bytes)
{
    if (seg_bytes <= 0 || seg_bytes >= bytes || mo->fair > 0.5) return 1;
    double n = ceil(bytes / seg_bytes);
    return n > 256 ? 256 : (int)n;
}

double pumma_model_redist_among(const pumma_model_t *mo, int np,
                                double partners, double bytes,
                                int transposed)
{
    const double msgs = partners < np - 1 ? partners : np - 1;
    const double more = mo->alpha_post > 0 ? mo->alpha_post : mo->alpha;
    double net = np > 1 ? (msgs > 0 ? mo->alpha + (msgs - 1) * more : 0) +
                              mo->beta * bytes * (np - 1) / np
                        : 0;
    return net + pumma_model_copy(mo, bytes, transposed) +
           pumma_model_copy(mo, bytes, 0);
}

double pumma_model_redist(const pumma_model_t *mo, int np, double bytes,
                          int transposed)
{
    return pumma_model_redist_among(mo, np, np - 1, bytes, transposed);
}
