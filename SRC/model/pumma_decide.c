/*
 * pumma_decide.c -- the decision of each auto broadcast and reduce: the
 * decision file, else the models, else the defaults (pumma_model.h).
 *
 * The decision file, text, one rule per line, '#' to the end of a line a
 * comment, fields separated by blanks:
 *
 *   bcast  NP  BYTES  VARIANT  SEGMENT    a rule: for communicators of NP
 *   reduce NP  BYTES  VARIANT  SEGMENT      processes up to the next NP
 *                                           listed, messages of BYTES up to
 *                                           the next BYTES listed
 *   model  NP  MODEL                      the model for communicators of
 *                                           NP processes up to the next NP
 *   keys host=H blas=B pair=H0,H1 mpi=M [btl=L]
 *                                         where it was measured (the
 *                                           tune file's keys): applied
 *                                           only there (file_status)
 *
 * VARIANT is a name of the operation's table (doc/algorithms.md,
 * "Variants"), not auto, or `model`: the models (else the defaults) decide
 * there -- the tuner writes it beyond the communicator sizes it measured;
 * SEGMENT the bytes per piece, 0 for the variant's default (a variant that
 * never cuts its message, and `model`, take 0 only); MODEL hockney, logp,
 * loggp or plogp. NP and BYTES are integers from 1 and 0. Names
 * (operations, variants, models, `keys`) are read without regard to case. A
 * line that is none of these is ignored with a warning naming it, as is a
 * rule that repeats an earlier one's operation, NP and BYTES, a second keys
 * line, and a last line without an end of line (cut short). Process 0 reads
 * the file whole (only a regular file, refused above PUMMA_FILE_MAX, never
 * cut: pumma_file.c) and broadcasts it; the tuner writes it through a
 * temporary renamed over it.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_model.h"

#define DEFAULT_MARGIN 0.03   /* pumma_plan.c's: the defaults are its rule */

const char *pumma_decide_source_name(int src)
{
    return src == PUMMA_SRC_FILE ? "file"
           : src == PUMMA_SRC_MODEL ? "model" : "default";
}

static int op_of(const char *s, pumma_table_kind_t *op)
{
    if (pumma_name_eq(s, "bcast")) *op = PUMMA_BCAST_TABLE;
    else if (pumma_name_eq(s, "reduce")) *op = PUMMA_REDUCE_TABLE;
    else return -1;
    return 0;
}

static const char *op_name(pumma_table_kind_t op)
{
    return op == PUMMA_BCAST_TABLE ? "bcast" : "reduce";
}

static int cmp_rule(const void *x, const void *y)
{
    const pumma_rule_t *a = x, *b = y;
    if (a->op != b->op) return a->op < b->op ? -1 : 1;
    if (a->np != b->np) return a->np < b->np ? -1 : 1;
    return a->bytes < b->bytes ? -1 : a->bytes > b->bytes;
}

/* One line (comment stripped) into d; 0 fine or blank, -1 not valid. */
static int parse_line(pumma_decider_t *d, char *s, int *cap)
{
    char *tok[6];
    int n = 0;
    for (char *t = strtok(s, " \t\r"); t; t = strtok(NULL, " \t\r"))
        if (n < 6) tok[n++] = t;
        else return -1;
    if (n == 0) return 0;
    long long np;
    if (n < 2 || pumma_env_parse_int(tok[1], 1, INT_MAX, &np)) return -1;
    if (pumma_name_eq(tok[0], "model")) {      /* model NP [BYTES] MODEL */
        int kind;
        long long from = 0;
        if ((n != 3 && n != 4) || (kind = pumma_nm_find(tok[n - 1])) < 0 ||
            (n == 4 &&
             pumma_env_parse_int(tok[2], 0, (long long)1 << 53, &from)))
            return -1;
        for (int i = 0; i < d->nmodels; i++)
            if (d->models[i].np == np && d->models[i].bytes == (double)from)
                return -1;
        if (d->nmodels == PUMMA_DECIDE_MAXMODELS) return -1;
        int i = d->nmodels++;
        for (; i > 0 && (d->models[i - 1].np > np ||
                         (d->models[i - 1].np == np &&
                          d->models[i - 1].bytes > (double)from));
             i--)
            d->models[i] = d->models[i - 1];
        d->models[i].np = (int)np;
        d->models[i].bytes = (double)from;
        d->models[i].kind = kind;
        return 0;
    }
    pumma_rule_t r;
    long long bytes, seg;
    if (n != 5 || op_of(tok[0], &r.op) ||
        pumma_env_parse_int(tok[2], 0, (long long)1 << 53, &bytes) ||
        pumma_env_parse_int(tok[4], 0, INT_MAX, &seg) ||
        (!pumma_name_eq(tok[3], "model") &&
         !(r.v = pumma_comm_find(r.op, tok[3]))) ||
        (seg > 0 && (pumma_name_eq(tok[3], "model") || r.v->seg_default < 0)))
        return -1;
    if (pumma_name_eq(tok[3], "model")) r.v = NULL;
    r.np = (int)np;
    r.bytes = (double)bytes;
    r.seg = (double)seg;
    for (int i = 0; i < d->nrules; i++)
        if (!cmp_rule(&d->rules[i], &r)) return -1;
    if (d->nrules == *cap) {
        int nc = *cap ? 2 * *cap : 64;
        pumma_rule_t *g = realloc(d->rules, sizeof *g * (size_t)nc);
        if (!g) return -2;
        d->rules = g;
        *cap = nc;
    }
    d->rules[d->nrules++] = r;
    return 0;
}

/* The text past "keys" when line (comment stripped) is the keys line,
 * else NULL. */
static const char *keys_of(const char *line)
{
    const char *s = line + strspn(line, " \t\r");
    if (strspn(s, "keysKEYS") != 4 || (s[4] && !strchr(" \t\r", s[4])))
        return NULL;
    char kw[5];
    memcpy(kw, s, 4);
    kw[4] = '\0';
    return pumma_name_eq(kw, "keys") ? s + 4 + strspn(s + 4, " \t\r") : NULL;
}

/* The decider as auto sees it (pumma_comm.h): one that the grid frees
 * with itself (pumma_decider_load's, allocated). */
static void decide_op(struct pumma_decider *d, pumma_table_kind_t op, int np,
                      double bytes, int esize, pumma_decision_t *out)
{
    pumma_decide(d, op, np, bytes, esize, out);
}

static void release(struct pumma_decider *d)
{
    pumma_decide_free(d);
    free(d);
}

static const pumma_decider_ops_t ops = {decide_op, release};

int pumma_decide_parse(pumma_decider_t *d, const char *text, const char *warn)
{
    int cap = 0, bad = 0, lno = 0;
    d->ops = &ops;
    d->nrules = 0;
    d->rules = NULL;
    d->nmodels = 0;
    d->keys[0] = '\0';
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        char line[PUMMA_DECIDE_KEYS + 64];     /* a keys line fits */
        lno++;
        int rc = -1;
        /* a last line without an end of line was cut short (a full
         * disk, an editor): half a rule may read as another rule */
        const int cut = !p[len];
        if (len < sizeof line && !cut) {
            memcpy(line, p, len);
            line[len] = '\0';
            line[strcspn(line, "#")] = '\0';
            const char *k = keys_of(line);
            if (k) {            /* the first keys line, its blanks trimmed */
                size_t n = strlen(k);
                while (n && strchr(" \t\r", k[n - 1])) n--;
                rc = d->keys[0] || !n ? -1 : 0;
                if (!rc) snprintf(d->keys, sizeof d->keys, "%.*s", (int)n, k);
            } else {
                rc = parse_line(d, line, &cap);
            }
        }
        if (rc == -2) return -1;
        const char *s = p + strspn(p, " \t");
        if (rc && cut && (!*s || *s == '#')) rc = 0;   /* blanks, a comment */
        if (rc) {
            bad++;
            if (warn && cut)
                fprintf(stderr, "pumma: %s:%d: cut short (no end of line); "
                                "ignored (doc/choosing.md, \"The decision "
                                "file\")\n",
                        warn, lno);
            else if (warn)
                fprintf(stderr, "pumma: %s:%d: not a rule, a model line or a "
                                "comment; ignored (doc/choosing.md, \"The "
                                "decision file\")\n", warn, lno);
        }
        p += len + (p[len] == '\n');
    }
    if (d->nrules) qsort(d->rules, (size_t)d->nrules, sizeof *d->rules, cmp_rule);
    return bad;
}

void pumma_decide_free(pumma_decider_t *d)
{
    if (!d) return;
    free(d->rules);
    d->rules = NULL;
    d->nrules = 0;
}

int pumma_decide_model_of(const pumma_decider_t *d, int np, double bytes)
{
    int best_np = 0, kind = PUMMA_NM_PLOGP;
    for (int i = 0; i < d->nmodels && d->models[i].np <= np; i++)
        best_np = d->models[i].np;
    for (int i = 0; i < d->nmodels; i++)        /* sorted: the last that fits */
        if (d->models[i].np == best_np && d->models[i].bytes <= bytes)
            kind = d->models[i].kind;
    return kind;
}

/* The file's rule for the message, NULL when it has none. */
static const pumma_rule_t *file_rule(const pumma_decider_t *d,
                                     pumma_table_kind_t op, int np,
                                     double bytes)
{
    int best_np = 0;
    for (int i = 0; i < d->nrules; i++)
        if (d->rules[i].op == op && d->rules[i].np <= np &&
            d->rules[i].np > best_np)
            best_np = d->rules[i].np;
    const pumma_rule_t *hit = NULL;
    for (int i = 0; i < d->nrules; i++)    /* sorted: the last that fits */
        if (d->rules[i].op == op && d->rules[i].np == best_np &&
            d->rules[i].bytes <= bytes)
            hit = &d->rules[i];
    return hit && hit->v ? hit : NULL;
}

/*
 * The models' choice: among the candidates (pumma_search_cands) of the
 * variants whose schedule the simulator knows (pumma_sim_knows: not
 * Open MPI's own, whose schedule is its tuned choice), the first -- in
 * the table's order, larger
 * pieces first -- predicted within PUMMA_MODEL_MARGIN of the fastest.
 */
void pumma_decide_by_model(const pumma_netmodel_t *nm, int kind,
                           pumma_table_kind_t op, int np, double bytes,
                           int esize, pumma_decision_t *out)
{
    enum { MAXC = 256 };
    pumma_cand_t c[MAXC];
    double t[MAXC], best = INFINITY;
    const int n = pumma_search_cands(op, bytes, 1, c, MAXC);
    for (int i = 0; i < n; i++) {
        t[i] = pumma_search_predict(nm, kind, op, np, bytes, esize, &c[i]);
        if (t[i] >= 0 && t[i] < best) best = t[i];
    }
    out->source = PUMMA_SRC_MODEL;
    out->model = kind;
    out->model_name = pumma_nm_name(kind);
    out->v = pumma_comm_at(op, 0);
    out->seg = 0;
    for (int i = 0; i < n; i++)
        if (t[i] >= 0 && t[i] <= best * (1 + PUMMA_MODEL_MARGIN)) {
            out->v = c[i].v;
            out->seg = c[i].seg;
            break;
        }
}

/* The defaults: pumma_plan.c's rule applied to this one message. */
static void by_default(const pumma_model_t *mo, pumma_table_kind_t op, int np,
                       double bytes, pumma_decision_t *out)
{
    double best = INFINITY, t[64];
    const pumma_coll_ops_t *v;
    int n = 0;
    for (; mo && n < 64 && (v = pumma_comm_at(op, n)) != NULL; n++) {
        /* not hier: a line's two levels are the planner's choice, and on
         * one cluster hier is auto, which asks here */
        const int hier = v == &pumma_bcast_hier || v == &pumma_reduce_hier;
        t[n] = hier || v->asked_only ? INFINITY : v->cost(mo, np, bytes, 0);
        if (t[n] < best) best = t[n];
    }
    out->source = PUMMA_SRC_DEFAULT;
    out->model = -1;
    out->model_name = NULL;
    out->seg = 0;
    out->v = pumma_comm_at(op, 0);
    for (int i = 0; i < n && mo; i++)
        if (t[i] <= best * (1 + DEFAULT_MARGIN)) {
            out->v = pumma_comm_at(op, i);
            break;
        }
}

/* Decisions by the models are made at the lower end of a quarter octave
 * of message sizes and kept: a decision must depend on nothing but the
 * message (every process of it decides alone), and a search per message
 * would cost more than many messages. */
static int size_class(double bytes)
{
    return bytes < 1 ? 0 : (int)floor(4 * log2(bytes)) + 1;
}

void pumma_decide(pumma_decider_t *d, pumma_table_kind_t op, int np,
                  double bytes, int esize, pumma_decision_t *out)
{
    const pumma_rule_t *r = d ? file_rule(d, op, np, bytes) : NULL;
    if (r) {
        out->v = r->v;
        out->seg = r->seg;
        out->source = PUMMA_SRC_FILE;
        out->model = -1;
        out->model_name = NULL;
        return;
    }
    if (!d || !d->have_nm) {
        by_default(d ? d->mo : NULL, op, np, bytes, out);
        return;
    }
    const int cls = size_class(bytes);
    const int key = ((cls * 2 + (int)op) * 8 + (esize >> 2)) * 4096 +
                    (np < 4096 ? np : 4095) + 1;
    const unsigned slot = (unsigned)key * 2654435761u % PUMMA_DECIDE_CACHE;
    if (d->cache[slot].key == key) {
        *out = d->cache[slot].d;
        return;
    }
    double rep = cls ? floor(exp2((cls - 1) / 4.0)) : 0;
    rep = floor(rep / esize) * esize;
    if (rep < esize) rep = esize;
    pumma_decide_by_model(&d->nm, pumma_decide_model_of(d, np, rep), op, np,
                          rep, esize, out);
    d->cache[slot].key = key;
    d->cache[slot].d = *out;
}

/* ------------------------------------------------------------ the file */

int pumma_decide_path(char *buf, size_t len)
{
    const char *e = pumma_setting(PUMMA_SET_DECISION_FILE)->decision_file;
    if (e) {
        if (pumma_name_eq(e, "off")) return 0;
        return snprintf(buf, len, "%s", e) < (int)len;
    }
    char tune[4096];
    if (!pumma_tune_path(tune, sizeof tune)) return 0;
    char *slash = strrchr(tune, '/');
    if (!slash) return snprintf(buf, len, "decision") < (int)len;
    slash[1] = '\0';
    return snprintf(buf, len, "%sdecision", tune) < (int)len;
}

void pumma_decide_set_keys(pumma_decider_t *d, const pumma_tune_keys_t *k)
{
    snprintf(d->keys, sizeof d->keys, "%s %s", k->local, k->netkey);
}

int pumma_decide_write(const char *path, const pumma_decider_t *d,
                       const char *comment)
{
    pumma_file_new_t nf;
    if (pumma_file_begin(path, 0, &nf)) return -1;
    FILE *f = nf.out;
    fprintf(f, "# pumma decision file (doc/choosing.md, \"The decision "
               "file\"): what auto runs.\n");
    if (comment) {
        for (const char *p = comment; *p;) {
            size_t n = strcspn(p, "\n");
            fprintf(f, "# %.*s\n", (int)n, p);
            p += n + (p[n] == '\n');
        }
    }
    /* where it was measured: applied there only */
    const pumma_tune_keys_t *last = pumma_tune_keys_last();
    if (d->keys[0] || last)
        fprintf(f, "# measured on (applied only where these are the grid's "
                   "own):\nkeys %s%s%s\n", d->keys[0] ? d->keys : last->local,
                d->keys[0] ? "" : " ", d->keys[0] ? "" : last->netkey);
    fprintf(f, "# model NP BYTES MODEL\n");
    for (int i = 0; i < d->nmodels; i++)
        fprintf(f, "model %d %.0f %s\n", d->models[i].np, d->models[i].bytes,
                pumma_nm_name(d->models[i].kind));
    fprintf(f, "# OP NP BYTES VARIANT SEGMENT\n");
    for (int i = 0; i < d->nrules; i++)
        fprintf(f, "%s %d %.0f %s %.0f\n", op_name(d->rules[i].op),
                d->rules[i].np, d->rules[i].bytes,
                d->rules[i].v ? d->rules[i].v->name : "model",
                d->rules[i].seg);
    return pumma_file_commit(&nf);
}

/* The file's text (process 0), whole; NULL when there is none or it is
 * refused (pumma_file_read says why: then as without a file). */
static char *read_text(const char *path)
{
    char *text;
    size_t len;
    return pumma_file_read(path, &text, &len) ? NULL : text;
}

/* ------------------------------------------------- where it was measured */

/* The fields "name=value" of a keys text, at most MAXKEYS: 0, or -1 when
 * one has no '=' or no name, or there are more (a keys line not valid). */
enum { MAXKEYS = 16 };
typedef struct field { const char *name, *value; int nlen, vlen; } field_t;
static int split_keys(const char *s, field_t *k, int *n)
{
    *n = 0;
    for (s += strspn(s, " \t\r"); *s; s += strspn(s, " \t\r")) {
        const int len = (int)strcspn(s, " \t\r");
        const char *eq = memchr(s, '=', (size_t)len);
        if (!eq || eq == s || *n == MAXKEYS) return -1;
        k[*n] = (field_t){s, eq + 1, (int)(eq - s), (int)(s + len - eq - 1)};
        (*n)++;
        s += len;
    }
    return 0;
}

/* The value of key `name` among k[0..n-1], NULL when absent. */
static const field_t *key_find(const field_t *k, int n, const char *name,
                               int len)
{
    for (int i = 0; i < n; i++)
        if (k[i].nlen == len && !strncmp(k[i].name, name, (size_t)len))
            return &k[i];
    return NULL;
}

/* Appends " name=value" (value "-" when absent) to buf at *at. */
static void put_key(char *buf, size_t n, size_t *at, const char *name,
                    int nlen, const field_t *v)
{
    if (*at >= n) return;
    int w = v ? snprintf(buf + *at, n - *at, " %.*s=%.*s", nlen, name,
                         v->vlen, v->value)
              : snprintf(buf + *at, n - *at, " %.*s=-", nlen, name);
    *at += w > 0 ? (size_t)w : 0;
}

/* The verdict on a decision file's text (pumma_decide_file_status) from
 * its keys line; why: the note, naming path. */
static int text_status(const char *text, const char *path,
                       const pumma_tune_keys_t *here, char *why, size_t n)
{
    char dummy[1];
    if (!why || !n) {
        why = dummy;
        n = sizeof dummy;
    }
    why[0] = '\0';
    /* the first keys line (the parser's: a later one is ignored) */
    const char *keys = NULL;
    size_t klen = 0;
    for (const char *p = text; *p && !keys;) {
        const size_t len = strcspn(p, "\n");
        if (!p[len]) break;                 /* cut short: never read */
        char line[PUMMA_DECIDE_KEYS + 64];
        if (len < sizeof line) {
            memcpy(line, p, len);
            line[len] = '\0';
            line[strcspn(line, "#")] = '\0';
            const char *k = keys_of(line);
            if (k) {
                keys = p + (k - line);
                klen = strlen(k);
            }
        }
        p += len + 1;
    }
    if (!keys) {
        snprintf(why, n, "decision file %s has no keys: applied as written",
                 path);
        return PUMMA_DECIDE_FILE_NOKEYS;
    }
    char mine[PUMMA_DECIDE_KEYS], theirs[PUMMA_DECIDE_KEYS];
    snprintf(theirs, sizeof theirs, "%.*s", (int)klen, keys);
    snprintf(mine, sizeof mine, "%s %s", here->local, here->netkey);
    field_t a[MAXKEYS], b[MAXKEYS];
    int na, nb;
    if (split_keys(theirs, a, &na) || split_keys(mine, b, &nb) || !na) {
        snprintf(why, n, "decision file %s ignored: its keys line is not "
                         "valid", path);
        return PUMMA_DECIDE_FILE_OTHER;
    }
    /* every key of either side that differs, the file's order first */
    char was[PUMMA_DECIDE_KEYS], is[PUMMA_DECIDE_KEYS];
    size_t at_was = 0, at_is = 0;
    was[0] = is[0] = '\0';
    for (int side = 0; side < 2; side++) {
        const field_t *k = side ? b : a;
        for (int i = 0; i < (side ? nb : na); i++) {
            if (side && key_find(a, na, k[i].name, k[i].nlen)) continue;
            const field_t *x = key_find(a, na, k[i].name, k[i].nlen),
                         *y = key_find(b, nb, k[i].name, k[i].nlen);
            if (x && y && x->vlen == y->vlen &&
                !strncmp(x->value, y->value, (size_t)x->vlen))
                continue;
            put_key(was, sizeof was, &at_was, k[i].name, k[i].nlen, x);
            put_key(is, sizeof is, &at_is, k[i].name, k[i].nlen, y);
        }
    }
    if (!was[0]) {
        snprintf(why, n, "decision file %s measured here", path);
        return PUMMA_DECIDE_FILE_MATCH;
    }
    snprintf(why, n, "decision file %s ignored: measured on%s, this is%s",
             path, was, is);
    return PUMMA_DECIDE_FILE_OTHER;
}

int pumma_decide_file_status(const pumma_tune_keys_t *k, const char *path,
                             char *why, size_t n)
{
    char buf[4096];
    if (why && n) why[0] = '\0';
    if (!path) {
        if (!pumma_decide_path(buf, sizeof buf)) {
            if (why && n)
                snprintf(why, n, "no decision file (PUMMA_DECISION_FILE=off, "
                                 "or PUMMA_TUNE=off and no "
                                 "PUMMA_DECISION_FILE)");
            return PUMMA_DECIDE_FILE_NONE;
        }
        path = buf;
    }
    char *text;
    size_t len;
    const int rc = pumma_file_read(path, &text, &len);
    if (rc) {
        if (why && n)
            snprintf(why, n, "decision file %s: %s", path,
                     rc > 0 ? "not there" : "refused (see the message above)");
        return PUMMA_DECIDE_FILE_NONE;
    }
    const int st = text_status(text, path, k, why, n);
    free(text);
    return st;
}

pumma_decider_t *pumma_decider_load(const pumma_grid_t *g,
                                    const pumma_tune_keys_t *k,
                                    const pumma_model_t *mo)
{
    int me;
    MPI_Comm_rank(g->all, &me);
    char path[4096] = "";
    /* what process 0 found: the text's length, whether samples, and a
     * note for the statistics when the file was measured elsewhere (it
     * is then not used) or says not where */
    struct { double len, have, add; pumma_plogp_t s; char note[2048]; } head;
    memset(&head, 0, sizeof head);
    char *text = NULL;
    if (me == 0) {
        if (pumma_decide_path(path, sizeof path)) text = read_text(path);
        const int st = text ? text_status(text, path, k, head.note,
                                          sizeof head.note)
                            : PUMMA_DECIDE_FILE_NONE;
        if (st == PUMMA_DECIDE_FILE_OTHER) {
            free(text);
            text = NULL;
        }
        if (st == PUMMA_DECIDE_FILE_MATCH) head.note[0] = '\0';  /* silent */
        head.len = text ? (double)strlen(text) : 0;
        head.have = k->net && pumma_tune_mode() != PUMMA_TUNE_REFRESH &&
                    pumma_tune_read_plogp(k->netkey, &head.s, &head.add);
    }
    MPI_Bcast(&head, (int)sizeof head, MPI_BYTE, 0, g->all);
    if (head.note[0]) pumma_stats_note(head.note);   /* once per text */
    const int len = (int)head.len;
    if (len == 0 && !head.have) {
        free(text);
        return NULL;
    }
    pumma_decider_t *d = calloc(1, sizeof *d);
    if (me != 0 || !text) text = malloc((size_t)len + 1);
    int ok = d && text, all_ok;
    /* every process must decide alike: one without memory makes them
     * all go without the file and the models */
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, g->all);
    if (all_ok && len) MPI_Bcast(text, len, MPI_CHAR, 0, g->all);
    if (all_ok) {
        text[len] = '\0';
        /* its faults are told once per process, not once per grid */
        static int told = 0;
        ok = pumma_decide_parse(d, text, me == 0 && !told ? path : NULL) >= 0;
        told |= me == 0;
        MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, g->all);
    }
    if (!all_ok) {
        if (me == 0)
            fprintf(stderr, "pumma: out of memory for the decision file; "
                            "auto uses its defaults\n");
        free(text);
        pumma_decide_free(d);
        free(d);
        return NULL;
    }
    free(text);
    d->mo = mo;
    if (head.have) {
        d->have_nm = 1;
        d->nm.s = head.s;
        pumma_nm_fit(&d->nm);
        d->nm.add = head.add;
    }
    return d;
}
