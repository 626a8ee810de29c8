/*
 * layouttool.c -- xlayout: look at pumma's heterogeneous layouts, and
 * compare them with the lower bound as Becker and Lastovetsky 2007 do.
 *
 *   xlayout show KIND M N S1 S2 ... [FILE]
 *       KIND: columns, strips, rect3 or square-corner (pumma_codes.h).
 *       Prints each process's rectangles, area and share, a picture of
 *       who owns what, the sum of half-perimeters against its lower bound
 *       2*sum(sqrt(area)), and for 2 or 3 processes the square-corner rule
 *       (volumes per N^2, fully connected and linear). FILE receives the
 *       rectangles for layout.py, which draws them (PNG).
 *   xlayout areas [COUNT] [SEED]
 *       Section 3.3 of Becker and Lastovetsky 2007: COUNT (2,000,000)
 *       random partitions of a square among 3 processes, kept where the
 *       square-corner layout exists and moves less data than the
 *       rectangular one on a fully connected network; for each, pumma's
 *       column-based rectangular and square-corner layouts of a 10000 x
 *       10000 matrix, and their sum of half-perimeters over the lower
 *       bound. Prints the average and minimum ratios beside those of Becker
 *       and Lastovetsky 2007, also with a_max/a_min <= 100; exits 1 when an
 *       average is more than 0.01 from theirs.
 *
 * Random areas: three numbers uniform in (0, 1), normalised to sum 1
 * (Becker and Lastovetsky 2007 do not say how they drew them; this reading
 * reproduces their figures).
 * Runs as one process; links against libpumma.a (the layout internals).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "pumma_layout.h"

#define CODE(N, v, s) {v, s},
static const struct { int code; const char *name; } kinds[] = {
    PUMMA_LAYOUT_LIST(CODE)};

static int show(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: xlayout show KIND M N S1 S2 ... [FILE]\n");
        return 2;
    }
    int kind = 0, m = atoi(argv[3]), n = atoi(argv[4]), np = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (!strcmp(argv[2], kinds[i].name)) kind = kinds[i].code;
    double sp[64];
    const char *file = NULL;
    for (int i = 5; i < argc && np < 64; i++) {
        char *end;
        double v = strtod(argv[i], &end);
        if (*end) { file = argv[i]; break; }
        sp[np++] = v;
    }
    int h, info;
    pumma_layout_create(kind, m, n, np, sp, &h, &info);
    if (info) {
        fprintf(stderr, "xlayout: PUMMA_LAYOUT_NEW gives INFO = %d%s\n", info,
                info == 1 ? " (no square-corner layout: (S2/S1)(S3/S1) > 1/4)"
                : info == 2 ? " (a share too small for whole rows and columns)"
                : info == -1 ? " (unknown kind)" : "");
        return 1;
    }
    const pumma_layout_t *L = pumma_layout_get(h);
    double sum = 0;
    for (int p = 0; p < np; p++) sum += sp[p];
    printf("layout %s, %d x %d, %d processes\n", argv[2], m, n, np);
    FILE *f = file ? fopen(file, "w") : NULL;
    if (f) fprintf(f, "# %s %d %d %d\n", argv[2], m, n, np);
    for (int p = 0; p < np; p++) {
        long area = 0;
        for (int r = L->first[p]; r < L->first[p + 1]; r++)
            area += (long)(L->rect[r].r1 - L->rect[r].r0) *
                    (L->rect[r].c1 - L->rect[r].c0);
        printf("  process %d: speed %g (share %.4f), area %ld (%.4f):", p,
               sp[p], sp[p] / sum, area, (double)area / ((double)m * n));
        for (int r = L->first[p]; r < L->first[p + 1]; r++) {
            const pumma_rect_t *x = &L->rect[r];
            printf(" rows %d-%d x cols %d-%d", x->r0 + 1, x->r1, x->c0 + 1, x->c1);
            if (f) fprintf(f, "%d %d %d %d %d\n", p, x->r0, x->r1, x->c0, x->c1);
        }
        printf("\n");
    }
    if (f) fclose(f);
    /* The picture: at most 64 x 32 characters, the owner of each cell's
     * centre. */
    int W = n < 64 ? n : 64, H = m < 32 ? m : 32;
    for (int i = 0; i < H; i++) {
        printf("  ");
        for (int j = 0; j < W; j++) {
            int o = pumma_layout_owner_of(L, (int)((i + 0.5) * m / H),
                                          (int)((j + 0.5) * n / W));
            putchar(o < 10 ? '0' + o : 'a' + o - 10);
        }
        printf("\n");
    }
    double hp = (double)pumma_layout_halfperim(L), lb = pumma_layout_lower(L);
    printf("sum of half-perimeters %.0f, lower bound 2*sum(sqrt(area)) %.1f, "
           "ratio %.4f\n", hp, lb, hp / lb);
    if (np == 2 || np == 3) {
        double vs, vr;
        for (int t = PUMMA_TOPO_FULL; t <= PUMMA_TOPO_LINEAR; t++) {
            int b = pumma_sqcorner_rule(np, sp, t, &vs, &vr);
            printf("square-corner rule, %s: volume per N^2 square-corner %s%.4f, "
                   "rectangular %.4f: %s\n", t == PUMMA_TOPO_FULL ? "fully connected"
                   : "linear array", vs < 0 ? "(none) " : "", vs < 0 ? 0 : vs, vr,
                   b ? "square-corner moves less" : "rectangular moves less or as much");
        }
    }
    pumma_layout_destroy(h);
    return 0;
}

static double urand(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((*s >> 11) + 0.5) / 9007199254740992.0;
}

static int areas(int argc, char **argv)
{
    long count = argc > 2 ? atol(argv[2]) : 2000000;
    unsigned long long seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    const int N = 10000;
    /* [restricted][layout]: sum, min, count */
    double sum[2][2] = {{0, 0}, {0, 0}}, mn[2][2] = {{9, 9}, {9, 9}};
    long kept[2] = {0, 0};
    for (long it = 0; it < count; it++) {
        double a[3];
        for (int i = 0; i < 3; i++) a[i] = urand(&seed);
        double t = a[0] + a[1] + a[2];
        for (int i = 0; i < 3; i++) a[i] /= t;
        /* fastest first */
        int f = 0;
        for (int i = 1; i < 3; i++) if (a[i] > a[f]) f = i;
        double s1 = a[f], s2 = a[(f + 1) % 3], s3 = a[(f + 2) % 3];
        if ((s2 / s1) * (s3 / s1) > 0.25) continue;            /* (3.5) */
        if (sqrt(s2) + sqrt(s3) - 1 + s1 / 2 >= 0) continue;   /* (3.9) */
        double amax = s1, amin = s2 < s3 ? s2 : s3;
        int hr, hs, info1, info2;
        pumma_layout_create(PUMMA_LAYOUT_COLUMNS, N, N, 3, a, &hr, &info1);
        pumma_layout_create(PUMMA_LAYOUT_SQUARE_CORNER, N, N, 3, a, &hs, &info2);
        if (info1 || info2) {
            if (!info1) pumma_layout_destroy(hr);
            if (!info2) pumma_layout_destroy(hs);
            continue;
        }
        const pumma_layout_t *R = pumma_layout_get(hr), *S = pumma_layout_get(hs);
        double rr = pumma_layout_halfperim(R) / pumma_layout_lower(R);
        double rs = pumma_layout_halfperim(S) / pumma_layout_lower(S);
        for (int c = 0; c < 2; c++) {
            if (c == 1 && amax / amin > 100) continue;
            kept[c]++;
            sum[c][0] += rr;
            sum[c][1] += rs;
            if (rr < mn[c][0]) mn[c][0] = rr;
            if (rs < mn[c][1]) mn[c][1] = rs;
        }
        pumma_layout_destroy(hr);
        pumma_layout_destroy(hs);
    }
    /* The figures of Becker and Lastovetsky 2007 (section 3.3). */
    const double paper_avg[2][2] = {{1.128, 1.079}, {1.104, 1.062}};
    const double paper_min[2][2] = {{1.0595, 1.0001}, {1.059, 1.008}};
    int bad = 0;
    printf("Becker and Lastovetsky 2007, section 3.3: sum of half-perimeters / "
           "lower bound, 3 processes, %ld random partitions (%ld and %ld kept), "
           "%d x %d\n", count, kept[0], kept[1], N, N);
    printf("%-26s %-13s %8s %8s %8s %8s\n", "", "layout", "avg", "paper", "min",
           "paper");
    for (int c = 0; c < 2; c++)
        for (int l = 0; l < 2; l++) {
            double avg = kept[c] ? sum[c][l] / kept[c] : 0;
            printf("%-26s %-13s %8.4f %8.4f %8.4f %8.4f%s\n",
                   l ? "" : c ? "a_max/a_min <= 100" : "all kept",
                   l ? "square-corner" : "rectangular", avg, paper_avg[c][l],
                   mn[c][l], paper_min[c][l],
                   fabs(avg - paper_avg[c][l]) > 0.01 ? "  (average off by > 0.01)" : "");
            if (fabs(avg - paper_avg[c][l]) > 0.01) bad = 1;
        }
    return bad;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "show")) return show(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "areas")) return areas(argc, argv);
    fprintf(stderr, "usage: xlayout show KIND M N S1 S2 ... [FILE]\n"
                    "       xlayout areas [COUNT] [SEED]\n");
    return 2;
}
