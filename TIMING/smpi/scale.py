#!/usr/bin/env python3
"""scale.py CSV PREFIX -- the tables and charts of a simulated scaling run
(smpi/scale.sh, `make -C TIMING smpi-scale`; doc/smpi.md, "Scaling").

CSV: xscaletim's rows (smpi/scaletim.c). Writes PREFIX.txt, one table per
platform, series and case: for each grid, the simulated seconds of pumma
and of ScaLAPACK, ScaLAPACK's time over pumma's (above 1: pumma faster),
each one's efficiency (GFLOP/s over the ranks' peak: the platform's host
speed per rank, the rate the compute model charges a large multiply at),
the most words a process received (pumma, ScaLAPACK, and the lower bound
3 (mnk/P)^(2/3) - (mn + mk + nk)/P), the most workspace one of pumma's
processes held and the budget it plans within (mem_max, mem_budget, MB),
and the simulation's wall time; where
the cube plans ran too (impl split or layers: pumma with that algorithm
asked for), their times, ScaLAPACK's over each, and their words; then
the geometric means of the ratio by platform, series and case (and of
ScaLAPACK's time over pumma's best plan, its own choice or a cube's,
where a cube ran), the words against the bound, the workspace against
the budget (any row above it named), and
pumma's own simulator judged: its prediction of each pumma PDGEMM row
(pred_s, pumma_plan_predict under the model pumma measured on the
simulated platform) against the simulated time, at 16 ranks and more. And
PREFIX-PLATFORM-SERIES.png: efficiency against ranks, a panel per case,
pumma (solid) beside ScaLAPACK (dashed), the cube plans dotted.
"""
import csv
import math
import os
import re
import sys
from collections import defaultdict


# pumma with a cube plan asked for (scaletim.c's implementations)
CUBES = ("split", "layers")


def label(r):
    """The case's name from its sizes (scale.sh's shapes)."""
    if r["routine"] != "pdgemm":
        return r["routine"][2:]             # getrf, potrf
    m, n, k, nb = (int(r[c]) for c in ("M", "N", "K", "nb"))
    if m == n == k:
        return "square " + r["trans"]
    if k < m and k < n and m == n:
        return "rank-k K=%s" % ("NB" if k == nb else "%dNB" % (k // nb))
    if n == k and m >= 8 * n:
        return "tall-skinny"
    if n < m and n <= 4 * nb:
        return "panel N=%s" % ("NB" if n == nb else "%dNB" % (n // nb))
    if m < n and m <= 4 * nb:
        return "panel M=%s" % ("NB" if m == nb else "%dNB" % (m // nb))
    return "other"


def speed(prefix_dir, plat):
    """A rank's peak: the host speed (flop/s) in the platform's header."""
    path = os.path.join(prefix_dir, "scale-%s.xml" % plat)
    try:
        head = open(path).read(2000)
    except OSError:
        return None
    m = re.search(r"speeds?=([0-9.]+)([kMGT]?)f", head)
    if not m:
        return None
    return float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[m.group(2)]


def gmean(v):
    v = [x for x in v if x > 0]
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: scale.py CSV PREFIX")
    rows = list(csv.DictReader(open(sys.argv[1])))
    prefix = sys.argv[2]
    outdir = os.path.dirname(prefix) or "."
    by = defaultdict(dict)       # (plat, series, case) -> {(np, P, Q, impl): row}
    for r in rows:
        np_ = int(r["P"]) * int(r["Q"])
        by[(r["platform"], r["series"], label(r))][(np_, r["P"], r["Q"], r["impl"])] = r
    peaks = {p: speed(outdir, p) for p in {k[0] for k in by}}
    lines, means, best = [], defaultdict(list), defaultdict(list)
    words = defaultdict(list)    # impl -> words received / bound
    mem = []                     # (pumma's most workspace, budget, row)
    for key in sorted(by):
        plat, series, case = key
        d = by[key]
        pk = peaks.get(plat)
        lines.append("\n%s, %s scaling, %s%s" % (plat, series, case,
                     "" if pk else " (no platform file: no efficiency)"))
        lines.append("%-7s %-12s %10s %10s %6s %6s %6s %11s %11s %11s %8s %8s %8s %8s" % (
            "grid", "M N K", "pumma_s", "scal_s", "ratio", "eff_p", "eff_s",
            "words_p", "words_s", "bound", "mem_MB", "budgetMB", "wall_p", "wall_s"))
        grids = sorted({(k[0], k[1], k[2]) for k in d})
        for np_, P, Q in grids:
            p, s = d.get((np_, P, Q, "pumma")), d.get((np_, P, Q, "scalapack"))
            ref = p or s
            size = "%sx%sx%s" % (ref["M"], ref["N"], ref["K"])
            ps = float(p["sim_s"]) if p else float("nan")
            ss = float(s["sim_s"]) if s else float("nan")
            ratio = ss / ps if p and s else float("nan")
            if p and s:
                means[(plat, series, case)].append(ratio)

            def eff(r):
                return float(r["gflops"]) * 1e9 / (np_ * pk) if r and pk else float("nan")

            def col(r, c):
                return float(r[c]) if r and r.get(c) not in ("", None) else float("nan")
            lines.append("%-7s %-12s %10.4g %10.4g %6.2f %6.3f %6.3f %11.4g %11.4g %11.4g %8.1f %8.1f %8.1f %8.1f" % (
                "%sx%s" % (P, Q), size, ps, ss, ratio, eff(p), eff(s),
                col(p, "words_recv_max"), col(s, "words_recv_max"),
                col(ref, "words_bound"), col(p, "mem_max") / 1e6,
                col(p, "mem_budget") / 1e6, col(p, "wall_s"), col(s, "wall_s")))
            for r in [p] + [d.get((np_, P, Q, c)) for c in CUBES]:
                if r and col(r, "mem_max") >= 0:
                    mem.append((col(r, "mem_max"), col(r, "mem_budget"),
                                "%s %s %sx%s %s %s" % (plat, series, P, Q, case, r["impl"])))
            if (p and p["info"] != "0") or (s and s["info"] != "0"):
                lines.append("        INFO != 0: pumma %s, ScaLAPACK %s" % (
                    p["info"] if p else "-", s["info"] if s else "-"))
            for r in (p, s):
                if r and col(r, "words_bound") > 0:
                    words[r["impl"]].append(col(r, "words_recv_max") / col(r, "words_bound"))
            fastest = p
            for cube in CUBES:
                x = d.get((np_, P, Q, cube))
                if not x:
                    continue
                xs = float(x["sim_s"])
                lines.append("        %-9s %10.4g %10s %6.2f %6.3f %6s %11.4g %11s %11s %8.1f %8s %8.1f    %s%s" % (
                    cube, xs, "", ss / xs if s else float("nan"), eff(x), "",
                    col(x, "words_recv_max"), "", "", col(x, "mem_max") / 1e6, "",
                    col(x, "wall_s"),
                    x["plan"].replace("algo=%s bcast=- reduce=- shift=- " % cube, ""),
                    "" if x["info"] == "0" else "  INFO != 0: %s" % x["info"]))
                if col(x, "words_bound") > 0:
                    words[cube].append(col(x, "words_recv_max") / col(x, "words_bound"))
                if x["info"] == "0" and (not fastest or xs < float(fastest["sim_s"])):
                    fastest = x
            if fastest is not p and s:
                best[(plat, series, case)].append(ss / float(fastest["sim_s"]))
            elif p and s and any(d.get((np_, P, Q, c)) for c in CUBES):
                best[(plat, series, case)].append(ratio)
    head = ratios("Simulated scaling (SMPI): ScaLAPACK's time / pumma's by "
                  "platform, series and case (geometric mean over the grids; "
                  "above 1: pumma faster)", means)
    if best:
        head += [""] + ratios("ScaLAPACK's time / pumma's best plan (its own "
                              "choice or a cube plan asked for), where a cube "
                              "plan ran", best)
    if words:
        head.append("")
        head.append("Words received (the most of any process) / the lower bound, PDGEMM")
        for impl in sorted(words):
            v = words[impl]
            head.append("  %-10s %3d cases: geometric mean %.2f, from %.2f to %.2f; "
                        "within 1.3x: %d" % (impl, len(v), gmean(v), min(v), max(v),
                                             sum(x <= 1.3 for x in v)))
    if mem:
        over = [x for x in mem if x[1] == x[1] and x[0] > x[1]]
        share = [x[0] / x[1] for x in mem if x[1] == x[1] and x[1] > 0]
        head.append("")
        head.append("Memory: pumma's most workspace one process held in a call (mem_max), "
                    "against the budget it plans within (mem_budget)")
        head.append("  %d rows: most %.1f MB; at most %.2f of the budget; above it: %d%s" % (
            len(mem), max(x[0] for x in mem) / 1e6, max(share) if share else float("nan"),
            len(over), "".join("\n    ABOVE: %s (%.1f MB > %.1f MB)" % (x[2], x[0] / 1e6, x[1] / 1e6)
                               for x in over)))
    head += judge(rows)
    text = "\n".join(head + lines) + "\n"
    open(prefix + ".txt", "w").write(text)
    print(text)
    charts(by, peaks, prefix)


def ratios(title, by):
    """The title, a line per (platform, series, case) of by's ratios
    (geometric mean and range), and one over them all."""
    out = [title]
    for key in sorted(by):
        out.append("  %-10s %-6s %-16s %6.2f  (%d grids, %.2f to %.2f)" % (
            key[0], key[1], key[2], gmean(by[key]), len(by[key]),
            min(by[key]), max(by[key])))
    allr = [x for v in by.values() for x in v]
    out.append("  all: %.2f over %d cases, %d below 1" % (
        gmean(allr), len(allr), sum(x < 1 for x in allr)))
    return out


def judge(rows):
    """pumma_plan_predict against SMPI: pred_s / sim_s of pumma's PDGEMM
    rows at 16 ranks or more, by platform, and the plans that differ."""
    out = ["", "pumma's simulator (pumma_plan_predict) against SMPI, pumma's "
           "PDGEMM at 16+ ranks: predicted / simulated time"]
    by = defaultdict(list)
    for r in rows:
        if r["impl"] not in ("pumma",) + CUBES or r["routine"] != "pdgemm" or not r.get("pred_s"):
            continue
        if int(r["P"]) * int(r["Q"]) < 16:
            continue
        q = float(r["pred_s"]) / float(r["sim_s"])
        same = r["plan"] == r["pred_plan"]
        by[r["platform"]].append((q, same, r))
    allq = []
    for plat in sorted(by):
        v = by[plat]
        qs = [q for q, _, _ in v]
        allq += qs
        out.append("  %-10s %3d cases: within 15%%: %d; geometric mean %.2f, "
                   "from %.2f to %.2f; the planned plan differs from the "
                   "predicted in %d" % (plat, len(v), sum(abs(q - 1) <= 0.15 for q in qs),
                                        gmean(qs), min(qs), max(qs),
                                        sum(not s for _, s, _ in v)))
    if allq:
        out.append("  all: %d of %d within 15%% (%.0f%%)" % (
            sum(abs(q - 1) <= 0.15 for q in allq), len(allq),
            100.0 * sum(abs(q - 1) <= 0.15 for q in allq) / len(allq)))
    worst = sorted(((abs(q - 1), q, r) for v in by.values() for q, _, r in v),
                   key=lambda x: x[:2])[-8:]
    for _, q, r in reversed(worst):
        out.append("    %.2f  %s %s %sx%s %sx%sx%s %s %s: ran %s%s" % (
            q, r["platform"], r["series"], r["P"], r["Q"], r["M"], r["N"], r["K"],
            r["impl"],
            r["trans"], r["plan"], "" if r["plan"] == r["pred_plan"]
            else "; predicted " + r["pred_plan"]))
    return out


def charts(by, peaks, prefix):
    # this directory's platform.py would stand for the standard library's
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    groups = defaultdict(list)
    for key in by:
        groups[(key[0], key[1])].append(key[2])
    for (plat, series), cases in sorted(groups.items()):
        pk = peaks.get(plat)
        if not pk:
            continue
        cases.sort()
        ncol = min(4, len(cases))
        nrow = (len(cases) + ncol - 1) // ncol
        fig, axes = plt.subplots(nrow, ncol, figsize=(3.6 * ncol, 2.9 * nrow),
                                 squeeze=False)
        for i, case in enumerate(cases):
            ax = axes[i // ncol][i % ncol]
            d = by[(plat, series, case)]
            for impl, style, colour in (("pumma", "-o", "tab:blue"),
                                        ("scalapack", "--s", "tab:orange"),
                                        ("split", ":^", "tab:green"),
                                        ("layers", ":v", "tab:red")):
                pts = sorted((k[0], float(r["gflops"]) * 1e9 / (k[0] * pk))
                             for k, r in d.items() if k[3] == impl)
                if pts:
                    ax.plot([x for x, _ in pts], [y for _, y in pts], style,
                            color=colour, label=impl, markersize=4)
            ax.set_xscale("log", base=2)
            top = max([1.0] + [float(r["gflops"]) * 1e9 / (k[0] * pk) for k, r in d.items()])
            ax.set_ylim(0, top * 1.05)   # large multiplies pass the 1024^3 rate
            ax.set_title(case, fontsize=9)
            ax.set_xlabel("ranks", fontsize=8)
            ax.set_ylabel("efficiency", fontsize=8)
            ax.tick_params(labelsize=7)
            ax.grid(alpha=0.3)
            if i == 0:
                ax.legend(fontsize=7)
        for j in range(len(cases), nrow * ncol):
            axes[j // ncol][j % ncol].axis("off")
        fig.suptitle("PDGEMM and solvers, %s platform, %s scaling (SMPI; "
                     "efficiency: GFLOP/s over the ranks' peak)" % (plat, series),
                     fontsize=10)
        fig.tight_layout()
        out = "%s-%s-%s.png" % (prefix, plat, series)
        fig.savefig(out, dpi=90)
        plt.close(fig)
        print("chart: " + out)


if __name__ == "__main__":
    main()
