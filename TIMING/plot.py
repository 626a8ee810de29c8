#!/usr/bin/env python3
"""plot.py [--ratio | --gflops] CSV PNG -- charts of xpgemmtim's CSV.

--ratio (make timing, TIMING's `make run`): how much faster pumma's P?GEMM
is than ScaLAPACK's, case by case, in a chart at most 1600 px wide.

  * One bar per case (precision, grid PxQ, M N K, NB, TRANSA TRANSB) and
    pumma implementation: pumma's GFLOP/s / ScaLAPACK's (the CSV's
    ratio_scalapack, both best of the run's repeats), on a log scale, from
    the line at 1.0: up, pumma faster; down, ScaLAPACK faster. The number
    at the bar's end is the ratio (beyond 1/8 or 8 the bar stops at the
    edge, its number inside with a triangle). The colour is the precision
    (S D C Z; the legend gives each one's geometric mean); a second, third
    ... pumma implementation (pumma:KEY=VALUE rows) is hatched, as the
    legend shows.
  * The cases are grouped by kind, a panel each (panels side by side while
    a row has room, else stacked), then by grid, size and TRANSA/TRANSB.
    The kind comes from M, N and K alone (KINDS, classify() below):
        small   max(M, N, K) <= 256: latency and call overhead, not flops
        square  the largest of M N K less than 8 x the smallest ("square"
                or near it: every operand a block of comparable sides)
        rank-k  K at least 8 x smaller than both M and N: C += A*B with
                thin A and B, the updates of factorizations
        panels  the other thin shapes (not square, not rank-k): M or N at
                least 8 x smaller than the largest dimension (tall-skinny
                or short-wide C, panel products, inner products), or K thin
                against one of M, N only (1000x500x100)
    (The default PUMMATIM.dat: 1000 and 2000 square, 3000x3000x64 rank-k,
    4000x64x4000 and 64x4000x4000 panels, 200 small.)
  * Under each bar: the plan pumma ran (the CSV's plan column,
    pumma_last_plan: algorithm, then the broadcast, r:reduce, s:shift it
    used; lim:fit when a workspace limit changed the choice), the
    TRANSA/TRANSB pair, and the size M x N x K.
  * The geometric mean of the ratio: over all cases in the title, per kind
    in each panel's title and as its dashed line, per grid over each grid's
    bars, per precision in the legend. WRONG results are left out of every
    mean; when more than one pumma implementation was timed (pumma:KEY=VALUE
    rows), the means are over the plain `pumma` rows (pumma's own choice).
  * The small strip under the bars ("of limit"): the fraction of the
    localgemm rate (every rank at once a serial ?gemm_ of ceil(M/P) x
    ceil(N/Q) x K: the CSV's frac_localgemm) that pumma (filled dot) and
    ScaLAPACK (hollow dot) reached. It is clipped at 1: a value above 1 is
    drawn as a triangle at the top, because the "limit" is not an upper
    bound there, and the chart says so rather than show it as if it were.
    Two causes: noise (the limit's rounds were slowed by other work, the
    run's were not), and shape -- for thin shapes pumma and ScaLAPACK split
    the product differently (K split, whole panels) into local GEMMs that
    run faster than the limit's ceil(M/P) x ceil(N/Q) x K one (with
    OpenBLAS on one core, 32x4000x4000 runs at 19 GFLOP/s, 64x4000x2000 at
    28: the 64x4000x4000 case on a 2x1 grid).
  * WRONG results (check column WRONG): red, cross-hatched bars
    marked WRONG, and a red line in the header.
  * The load warning. The machine may be shared; then the ratios are
    noise. Two measures, from the CSV's last columns: load1 (the 1-minute
    load average after each case, this run's own ranks included) against
    ncpu, and cpu_share (the lowest over a case's ranks of the rank's CPU
    time / wall time during the case's rounds: about 1 on cores of its own,
    below it when other work took turns). A case with cpu_share < 0.9 is
    drawn pale ("noisy"); if any case is, or the load average exceeded
    ncpu + 0.5, a red banner says "machine busy: ... ratios unreliable", and
    the title adds the mean over the quiet cases alone. The load average
    lags (a minute's average) and counts this run's own ranks; cpu_share
    measures the case itself, and is the one that usually fires. A CSV
    without these columns gets a note that the load was not recorded.

--gflops (the default, kept for make bench's charts): one group of bars
per case, one bar per implementation, GFLOP/s (localgemm hollow), every
pumma bar with its ratio to ScaLAPACK, WRONG hatched in red.

Needs matplotlib (Debian: python3-matplotlib).
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

# --- the GFLOP/s chart (--gflops) -------------------------------------------

ORDER = ["localgemm", "pumma", "scalapack"]
COLOR = {"localgemm": "none", "pumma": "tab:blue", "scalapack": "tab:orange"}
# further implementations (pumma:KEY=VALUE) in the order they first appear
MORE = ["tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink",
        "tab:gray", "tab:olive", "tab:cyan"]


def ratio_column(rows):
    return "ratio_scalapack" if "ratio_scalapack" in rows[0] \
        else "ratio_pumma_scalapack"


def gflops_chart(rows, png):
    cases, data = [], {}
    for r in rows:
        key = (r["prec"], r["P"], r["Q"], r["M"], r["N"], r["K"], r["NB"],
               r["transa"] + r["transb"])
        if key not in data:
            cases.append(key)
            data[key] = {}
        data[key][r["impl"]] = r
    impls = [i for i in ORDER if any(i in data[k] for k in cases)]
    for r in rows:
        if r["impl"] not in impls:
            impls.append(r["impl"])
    color = dict(COLOR)
    for n, i in enumerate([i for i in impls if i not in COLOR]):
        color[i] = MORE[n] if n < len(MORE) else matplotlib.cm.tab20(n % 20)
    ratio_key = ratio_column(rows)

    width = 0.8 / len(impls)
    fig, ax = plt.subplots(figsize=(max(6.0, (0.6 + 0.15 * len(impls)) * len(cases)
                                        + 2), 4.8))
    for j, impl in enumerate(impls):
        xs, ys, rs = [], [], []
        for x, k in enumerate(cases):
            if impl in data[k]:
                xs.append(x + (j - (len(impls) - 1) / 2) * width)
                ys.append(float(data[k][impl]["gflops"]))
                rs.append(data[k][impl])
        hollow = color.get(impl) == "none"
        bars = ax.bar(xs, ys, width,
                      label=impl + (" (limit)" if impl == "localgemm" else ""),
                      color="none" if hollow else color.get(impl),
                      edgecolor="gray" if hollow else "black", linewidth=0.6)
        for b, r in zip(bars, rs):
            if r["check"] == "WRONG":
                b.set_hatch("xx")
                b.set_edgecolor("red")
                ax.text(b.get_x() + b.get_width() / 2, b.get_height(), " WRONG",
                        ha="center", va="bottom", color="red", fontsize=7,
                        rotation=90)
            elif r.get(ratio_key) and impl.startswith("pumma"):
                ax.text(b.get_x() + b.get_width() / 2, b.get_height(),
                        " %.2f" % float(r[ratio_key]),
                        ha="center", va="bottom", fontsize=7, rotation=90)

    labels = []
    for (p, P, Q, M, N, K, NB, op) in cases:
        size = M if M == N == K else "%sx%sx%s" % (M, N, K)
        labels.append("%s %sx%s\n%s\nNB%s %s" % (p, P, Q, size, NB, op))
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_ylabel("GFLOP/s")
    ax.set_title("P?GEMM: pumma vs ScaLAPACK (numbers: ratio to scalapack)",
                 fontsize=10)
    ax.legend(fontsize=7 if len(impls) > 4 else 8,
              ncol=1 if len(impls) <= 4 else 2)
    ax.grid(axis="y", alpha=0.3)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.1)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


# --- the ratio chart (--ratio) ------------------------------------------------

# Kinds of case, from M N K alone (see the docstring); their order on the chart.
SMALL_MAX = 256   # small: no dimension above this
THIN = 8          # "much smaller": by this factor or more
KINDS = [
    ("square", "max(M,N,K) < %d min(M,N,K)" % THIN),
    ("rank-k", "K <= min(M,N)/%d" % THIN),
    ("panels", "the other thin ones, e.g. M or N <= max(M,N,K)/%d" % THIN),
    ("small", "max(M,N,K) <= %d, before the others" % SMALL_MAX),
]


def classify(m, n, k):
    """The kind of an M x N x K product (rules in the docstring)."""
    if max(m, n, k) <= SMALL_MAX:
        return "small"
    if max(m, n, k) < THIN * min(m, n, k):
        return "square"
    if k * THIN <= min(m, n):
        return "rank-k"
    return "panels"


PREC_ORDER = "SDCZ"
PREC_COLOR = {"S": "tab:green", "D": "tab:blue", "C": "tab:purple",
              "Z": "tab:brown"}
PREC_NAME = {"S": "S (real single)", "D": "D (real double)",
             "C": "C (complex single)", "Z": "Z (complex double)"}
# the second, third... pumma implementation (pumma:KEY=VALUE rows)
HATCHES = ["//", "..", "\\\\", "oo", "++", "--", "||", "**"]
OP_ORDER = ["NN", "NT", "TN", "TT", "NC", "CN", "CC", "TC", "CT"]
LOW_SHARE = 0.9         # cpu_share below it: a noisy case
MAX_PANEL_BARS = 64     # a kind with more bars is split (by grid, then in runs)
ROW_BARS = 32           # panels share a row while their bars fit this
FIG_W = 15.5            # inches; at DPI, 1550 px
DPI = 100
YMIN, YMAX = 1 / 8, 8   # ratios beyond are drawn at the edge, with a mark


def fnum(s):
    try:
        v = float(s)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def gmean(vals):
    vals = [v for v in vals if v and v > 0]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def short_plan(r):
    """'mdb2-row ring-inc', 'nt r:direct', 'tt-local s:simult' from the plan
    column (or, in an older CSV, the algo.. columns; else the label)."""
    kv = {}
    for tok in (r.get("plan") or "").split():
        if "=" in tok:
            k, v = tok.split("=", 1)
            kv[k] = v
    if not kv:
        kv = {k: r.get(k) or "" for k in ("algo", "bcast", "reduce", "shift")}
    parts = []
    skip = ("", "-", "auto")
    if kv.get("algo", "") not in skip:
        parts.append(kv["algo"])
    if kv.get("bcast", "") not in skip:
        parts.append(kv["bcast"])
    if kv.get("reduce", "") not in skip:
        parts.append("r:" + kv["reduce"])
    if kv.get("shift", "") not in skip:
        parts.append("s:" + kv["shift"].replace("simultaneous", "simult"))
    if kv.get("limit"):
        parts.append("lim:" + kv["limit"])
    if parts:
        return " ".join(parts)
    if r["impl"].startswith("pumma:"):
        return r["impl"][len("pumma:"):]
    return "(plan not recorded)"


def ratio_chart(rows, png):
    ratio_key = ratio_column(rows)
    byc = {}    # case -> {impl: row}
    corder = []
    for r in rows:
        key = (r["prec"], r["P"], r["Q"], r["M"], r["N"], r["K"], r["NB"],
               r["transa"] + r["transb"])
        if key not in byc:
            byc[key] = {}
            corder.append(key)
        byc[key][r["impl"]] = r
    pimpls = []
    for r in rows:
        if (r["impl"] == "pumma" or r["impl"].startswith("pumma:")) \
                and r["impl"] not in pimpls:
            pimpls.append(r["impl"])
    if not pimpls or not any(fnum(r.get(ratio_key)) for r in rows
                             if r["impl"] in pimpls):
        return False
    mean_impls = ["pumma"] if "pumma" in pimpls else pimpls

    grids, sizes, nbs = [], [], []
    for (p, P, Q, M, N, K, NB, op) in corder:
        for lst, v in ((grids, (P, Q)), (sizes, (M, N, K)), (nbs, NB)):
            if v not in lst:
                lst.append(v)

    # one bar per case and pumma implementation
    bars = []
    for key in corder:
        p, P, Q, M, N, K, NB, op = key
        d = byc[key]
        for impl in pimpls:
            r = d.get(impl)
            if r is None:
                continue
            scal = d.get("scalapack")
            share = fnum(r.get("cpu_share"))
            bars.append({
                "key": key, "prec": p, "grid": (P, Q), "size": (M, N, K),
                "hatch": HATCHES[(pimpls.index(impl) - 1) % len(HATCHES)]
                if pimpls.index(impl) else "",
                "nb": NB, "op": op, "impl": impl,
                "kind": classify(int(M), int(N), int(K)),
                "ratio": fnum(r.get(ratio_key)),
                "wrong": r.get("check") == "WRONG",
                "frac": fnum(r.get("frac_localgemm")),
                "sfrac": fnum(scal.get("frac_localgemm")) if scal else None,
                "plan": short_plan(r),
                "share": share,
                "noisy": share is not None and share < LOW_SHARE,
                "load": fnum(r.get("load1")), "ncpu": fnum(r.get("ncpu")),
            })

    def order(b):
        return (grids.index(b["grid"]), sizes.index(b["size"]), nbs.index(b["nb"]),
                OP_ORDER.index(b["op"]) if b["op"] in OP_ORDER else 99,
                PREC_ORDER.index(b["prec"]) if b["prec"] in PREC_ORDER else 9,
                pimpls.index(b["impl"]))
    bars.sort(key=order)

    def meanable(b):
        return b["ratio"] and not b["wrong"] and b["impl"] in mean_impls

    # panels: a kind each, split when too many bars
    chunks = []
    for kind, rule in KINDS:
        kb = [b for b in bars if b["kind"] == kind]
        if not kb:
            continue
        parts = [kb]
        if len(kb) > MAX_PANEL_BARS:
            parts = [[b for b in kb if b["grid"] == g] for g in grids]
            parts = [p for p in parts if p]
            parts = [p[i:i + MAX_PANEL_BARS] for p in parts
                     for i in range(0, len(p), MAX_PANEL_BARS)]
        for i, p in enumerate(parts):
            chunks.append({"kind": kind, "rule": rule, "bars": p,
                           "part": (i + 1, len(parts)),
                           "kbars": kb})
    # x positions: gaps between op groups, sizes and grids
    for ch in chunks:
        # bars per TRANSA/TRANSB group (precisions x implementations)
        ch["nper"] = max(sum(1 for c in ch["bars"] if
                             (c["grid"], c["size"], c["nb"], c["op"]) ==
                             (b["grid"], b["size"], b["nb"], b["op"]))
                         for b in ch["bars"])
        x, prev = 0.0, None
        for b in ch["bars"]:
            if prev is not None:
                if b["grid"] != prev["grid"]:
                    x += 2.2
                elif (b["size"], b["nb"]) != (prev["size"], prev["nb"]):
                    x += 1.8
                elif b["op"] != prev["op"]:
                    x += 1.3 if ch["nper"] > 1 else 1.0
                else:
                    x += 1.0
                b["sep"] = (x + prev["x"]) / 2   # where a separator goes
            b["x"] = x
            prev = b
        ch["span"] = x + 1.0
    # rows of panels
    rows_ = []
    for ch in chunks:
        if rows_ and sum(c["span"] for c in rows_[-1]) + ch["span"] <= ROW_BARS * 1.25:
            rows_[-1].append(ch)
        else:
            rows_.append([ch])

    # geometry (inches)
    left_pad, gap, margin = 0.62, 0.35, 0.15
    widest = max(sum(c["span"] + 0.8 for c in row) for row in rows_)
    npanels = max(len(row) for row in rows_)
    unit = (FIG_W - 2 * margin - npanels * left_pad - (npanels - 1) * gap) / widest
    unit = min(unit, 0.75)
    slot_px = unit * DPI
    plan_font = 7.0 if slot_px >= 16 else 6.0
    longest = max(len(b["plan"]) for b in bars)
    plan_h = 0.1 + longest * plan_font / 72 * 0.55
    ratio_h, frac_h, label_h, title_h = 2.5, 0.5, 0.42, 0.5
    row_h = title_h + ratio_h + 0.06 + frac_h + 0.04 + plan_h + label_h
    nwrong = sum(1 for b in bars if b["wrong"])
    y_legend = 1.17 + (0.25 if nwrong else 0)
    head_h = y_legend + 0.45
    fig_h = head_h + len(rows_) * row_h + 0.1
    fig = plt.figure(figsize=(FIG_W, fig_h), dpi=DPI)

    def rect(x, y_top, w, h):   # inches from the top-left -> figure fraction
        return [x / FIG_W, 1 - (y_top + h) / fig_h, w / FIG_W, h / fig_h]

    # shared y range of the ratios
    rs = [b["ratio"] for b in bars if b["ratio"]]
    lo = max(YMIN, min(rs + [1 / 1.3]) / 1.45)
    hi = min(YMAX, max(rs + [1.3]) * 1.45)
    ticks = [t for t in (0.125, 0.25, 0.5, 0.7, 1, 1.4, 2, 3, 4, 6, 8)
             if lo <= t <= hi]

    y = head_h
    for row in rows_:
        x = margin
        for ch in row:
            w = ch["span"] * unit
            x += left_pad
            ax = fig.add_axes(rect(x, y + title_h, w, ratio_h))
            af = fig.add_axes(rect(x, y + title_h + ratio_h + 0.06, w, frac_h),
                              sharex=ax)
            ap = fig.add_axes(rect(x, y + title_h + ratio_h + 0.06 + frac_h + 0.04,
                                   w, plan_h), sharex=ax)
            draw_panel(ch, ax, af, ap, lo, hi, ticks, unit, plan_font, meanable)
            x += w + gap
        y += row_h

    # header: title, the load warning, WRONG results, legend
    allm = [b["ratio"] for b in bars if meanable(b)]
    quiet = [b["ratio"] for b in bars if meanable(b) and not b["noisy"]]
    g = gmean(allm)
    ncases = len(corder)
    nranks = max(int(P) * int(Q) for (P, Q) in grids)
    shares = [b["share"] for b in bars if b["share"] is not None]
    loads = [b["load"] for b in bars if b["load"] is not None]
    ncpu = next((b["ncpu"] for b in bars if b["ncpu"]), None)
    noisy_keys = {b["key"] for b in bars if b["noisy"]}
    maxload = max(loads) if loads else None
    loaded = maxload is not None and ncpu and maxload > ncpu + 0.5
    busy = bool(noisy_keys or loaded)

    title = ("P?GEMM: pumma's speed / ScaLAPACK's, per case (log scale; above 1: "
             "pumma faster)  --  geometric mean %s over %d case%s"
             % ("%.2f" % g if g else "-", len(allm), "" if len(allm) == 1 else "s"))
    gq = gmean(quiet)
    if busy and gq and len(quiet) < len(allm):
        title += " (quiet ones: %.2f over %d)" % (gq, len(quiet))
    fig.text(margin / FIG_W, 1 - 0.1 / fig_h, title, fontsize=12, weight="bold",
             va="top")
    sub = ("%d cases, grids up to %d ranks; ratio = pumma GFLOP/s / ScaLAPACK "
           "GFLOP/s, each the best of the run's repeats; under the bars the plan "
           "pumma ran: algorithm, broadcast, r:reduce, s:shift" % (ncases, nranks))
    if len(pimpls) > 1:
        sub += "; means over the plain `pumma` rows"
    fig.text(margin / FIG_W, 1 - 0.42 / fig_h, sub, fontsize=9, va="top")
    fig.text(margin / FIG_W, 1 - 0.64 / fig_h, "Kinds of case, by M N K: " +
             ";  ".join("%s: %s" % kr for kr in KINDS), fontsize=9, va="top")

    # the load warning
    if not shares and not loads:
        msg = "load not recorded in this CSV (no load1/cpu_share columns)"
    elif busy:
        what = []
        if noisy_keys:
            what.append("in %d of %d cases a rank got < %d%% of a CPU (lowest %d%%; "
                        "pale bars)" % (len(noisy_keys), ncases, 100 * LOW_SHARE,
                                        100 * min(shares)))
        if maxload is not None:
            what.append("load average up to %.1f%s (this run's ranks included)"
                        % (maxload, " on %d CPUs" % ncpu if ncpu else ""))
        msg = "MACHINE BUSY, ratios unreliable: " + "; ".join(what)
    else:
        msg = "machine quiet: "
        if maxload is not None:
            msg += "load average up to %.1f%s; " % (
                maxload, " on %d CPUs" % ncpu if ncpu else "")
        if shares:
            msg += "every rank had >= %d%% of a CPU in every case" % (100 * LOW_SHARE)
    fig.text(margin / FIG_W, 1 - 0.9 / fig_h, msg, fontsize=9.5, va="top",
             color="white" if busy else ("darkgreen" if shares else "0.4"),
             weight="bold" if busy else "normal",
             bbox=dict(facecolor="red", edgecolor="none", pad=2.5) if busy else None)
    if nwrong:
        fig.text(margin / FIG_W, 1 - 1.16 / fig_h,
                 "%d WRONG result%s: red cross-hatched bars (left out of the means)"
                 % (nwrong, "" if nwrong == 1 else "s"),
                 fontsize=9.5, va="top", color="red", weight="bold")

    handles = []
    for p in PREC_ORDER:
        pm = [b["ratio"] for b in bars if b["prec"] == p and meanable(b)]
        if any(b["prec"] == p for b in bars):
            gp = gmean(pm)
            handles.append(Patch(facecolor=PREC_COLOR[p], edgecolor="black",
                                 label="%s, mean %s" % (PREC_NAME[p],
                                                       "%.2f" % gp if gp else "-")))
    for i, impl in enumerate(pimpls):
        if len(pimpls) > 1:
            handles.append(Patch(facecolor="white", edgecolor="black",
                                 hatch=HATCHES[(i - 1) % len(HATCHES)] if i else "",
                                 label=impl))
    if noisy_keys:
        handles.append(Patch(facecolor="tab:blue", alpha=0.3, edgecolor="gray",
                             label="pale: noisy case (cpu_share < %.1f)" % LOW_SHARE))
    if nwrong:
        handles.append(Patch(facecolor="white", edgecolor="red", hatch="xx",
                             label="WRONG result"))
    handles.append(Line2D([], [], color="0.3", ls="--", lw=1,
                          label="geometric mean of the kind"))
    handles.append(Line2D([], [], color="black", marker="o", ls="none", ms=5,
                          label="of limit: pumma"))
    handles.append(Line2D([], [], color="black", marker="o", ls="none", ms=5,
                          mfc="white", label="of limit: ScaLAPACK"))
    handles.append(Line2D([], [], color="black", marker="^", ls="none", ms=6,
                          label="above 1: limit not a bound (shape or noise)"))
    fig.legend(handles=handles, loc="upper left",
               bbox_to_anchor=(margin / FIG_W, 1 - y_legend / fig_h),
               ncol=min(len(handles), 5), fontsize=8, frameon=False,
               handlelength=1.6, columnspacing=1.4, borderaxespad=0)
    fig.savefig(png, dpi=DPI)
    return True


def draw_panel(ch, ax, af, ap, lo, hi, ticks, unit, plan_font, meanable):
    bl = ch["bars"]
    span = ch["span"]
    # separators: grids (solid), sizes (dotted)
    for a in (ax, af, ap):
        prev = None
        for b in bl:
            if prev is not None and b["grid"] != prev["grid"]:
                a.axvline(b["sep"], color="0.35", lw=1.0)
            elif prev is not None and (b["size"], b["nb"]) != (prev["size"], prev["nb"]):
                a.axvline(b["sep"], color="0.6", lw=0.7, ls=":")
            prev = b
        a.set_xlim(-0.6, span - 0.4)

    # the ratios
    ax.set_yscale("log")
    ax.set_ylim(lo, hi)
    ax.set_yticks(ticks)
    ax.set_yticks([], minor=True)
    ax.set_yticklabels(["%g" % t for t in ticks], fontsize=8)
    ax.set_ylabel("pumma / ScaLAPACK", fontsize=8)
    ax.axhline(1.0, color="black", lw=1.0, zorder=3)
    ax.grid(axis="y", alpha=0.3, which="major")
    ax.tick_params(axis="x", which="both", bottom=False, labelbottom=False)
    vertical = unit * DPI < 34
    for b in bl:
        r = b["ratio"]
        if r is None:
            ax.text(b["x"], 1.0, "no ratio", rotation=90, ha="center", va="bottom",
                    fontsize=6.5, color="0.4")
            continue
        rc = min(max(r, lo), hi)
        bottom, top = (1.0, rc) if rc >= 1 else (rc, 1.0)
        col = PREC_COLOR.get(b["prec"], "gray")
        bar = ax.bar(b["x"], top - bottom, 0.8, bottom=bottom, color=col,
                     alpha=0.3 if b["noisy"] else 1.0,
                     edgecolor="black" if not b["noisy"] else "0.5", linewidth=0.5,
                     zorder=2)[0]
        if b["hatch"]:
            bar.set_hatch(b["hatch"])
        if b["wrong"]:
            bar.set_facecolor("white")
            bar.set_alpha(1.0)
            bar.set_hatch("xx")
            bar.set_edgecolor("red")
        text = "%.2f" % r
        if r != rc:
            text = ("\u25b2 " if r > rc else "\u25bc ") + text
        if b["wrong"]:
            text = "WRONG " + text
        up = r >= 1
        # beyond the axis: the number inside the bar's end
        inside = r != rc
        ax.text(b["x"], rc * (1.03 if up != inside else 1 / 1.03), text,
                rotation=90 if vertical else 0, ha="center",
                va="bottom" if up != inside else "top",
                fontsize=7 if not vertical else 6.5,
                color="red" if b["wrong"] else ("0.45" if b["noisy"] else
                                                "white" if inside else "black"),
                weight="bold" if b["wrong"] else "normal", zorder=4)

    # the kind's mean, the grids' means
    km = gmean([b["ratio"] for b in ch["kbars"] if meanable(b)])
    if km:
        ax.axhline(min(max(km, lo), hi), color="0.3", lw=1.0, ls="--", zorder=1)
    title = ch["kind"]
    if ch["part"][1] > 1:
        title += ", part %d of %d" % ch["part"]
    nm = len([b for b in ch["kbars"] if meanable(b)])
    title += ": geometric mean %s over %d case%s" % (
        "%.2f" % km if km else "-", nm, "" if nm == 1 else "s")
    ax.set_title(title, loc="left", fontsize=10, weight="bold", pad=17)
    grids = []
    for b in bl:
        if b["grid"] not in grids:
            grids.append(b["grid"])
    for gr in grids:
        gb = [b for b in bl if b["grid"] == gr]
        gm = gmean([b["ratio"] for b in gb if meanable(b)])
        xc = (gb[0]["x"] + gb[-1]["x"]) / 2
        ax.annotate("grid %sx%s: mean %s" % (gr[0], gr[1], "%.2f" % gm if gm else "-"),
                    xy=(xc, 1.0), xycoords=("data", "axes fraction"),
                    xytext=(0, 3), textcoords="offset points", ha="center",
                    va="bottom", fontsize=8.5, color="0.15")

    # fraction of the localgemm "limit", clipped at 1
    af.set_ylim(0, 1.22)
    af.set_yticks([0, 0.5, 1])
    af.set_yticklabels(["0", ".5", "1"], fontsize=7)
    af.set_ylabel("of limit", fontsize=7.5)
    af.axhline(1.0, color="0.5", lw=0.6, ls=":")
    af.tick_params(axis="x", which="both", bottom=False, labelbottom=False)
    for b in bl:
        col = PREC_COLOR.get(b["prec"], "gray")
        for v, filled, dx in ((b["frac"], True, -0.17), (b["sfrac"], False, 0.17)):
            if v is None:
                continue
            over = v > 1.0
            af.plot(b["x"] + dx, 1.1 if over else v, marker="^" if over else "o",
                    ms=5.5 if over else 4.5, ls="none",
                    mfc=(col if filled else "white"), mec=col if filled else "0.2",
                    alpha=0.4 if b["noisy"] else 1.0, clip_on=False)

    # the plans, the ops, the sizes
    ap.set_ylim(0, 1)
    ap.set_yticks([])
    for s in ("left", "right", "top"):
        ap.spines[s].set_visible(False)
    for b in bl:
        ap.text(b["x"], 0.04, b["plan"], rotation=90, ha="center", va="bottom",
                fontsize=plan_font, color="0.45" if b["noisy"] else "black")
    ap.set_yticks([])
    ap.set_ylabel("plan", fontsize=7.5)
    ops, prev = [], None
    for b in bl:
        k = (b["grid"], b["size"], b["nb"], b["op"])
        if k != prev:
            ops.append([k, []])
            prev = k
        ops[-1][1].append(b["x"])
    ap.set_xticks([sum(v) / len(v) for _, v in ops])
    ap.set_xticklabels([k[3] for k, _ in ops], fontsize=8)
    ap.tick_params(axis="x", length=2, pad=1)
    nbs = {b["nb"] for b in bl}
    sizes, prev = [], None
    for b in bl:
        k = (b["grid"], b["size"], b["nb"])
        if k != prev:
            sizes.append([k, []])
            prev = k
        sizes[-1][1].append(b["x"])
    for (gr, (M, N, K), nb), v in sizes:
        text = "%s\u00d7%s\u00d7%s" % (M, N, K)
        if len(nbs) > 1:
            text += " NB %s" % nb
        ap.annotate(text, xy=((v[0] + v[-1]) / 2, 0), xycoords=("data", "axes fraction"),
                    xytext=(0, -13), textcoords="offset points", ha="center",
                    va="top", fontsize=8.5)


def main():
    args = sys.argv[1:]
    mode = "gflops"
    if args and args[0] in ("--ratio", "--gflops"):
        mode = args.pop(0)[2:]
    if len(args) != 2:
        sys.exit("usage: plot.py [--ratio | --gflops] CSV PNG")
    with open(args[0], newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("plot.py: %s has no rows" % args[0])
    if mode == "ratio":
        if ratio_chart(rows, args[1]):
            return
        print("plot.py: %s has no pumma rows with a ratio to ScaLAPACK: "
              "the GFLOP/s chart instead" % args[0], file=sys.stderr)
    gflops_chart(rows, args[1])


if __name__ == "__main__":
    main()
