#!/usr/bin/env python3
"""plot.py CSV PNG -- GFLOP/s per case from xpgemmtim's CSV, grouped by implementation.

One group of bars per case (precision, grid, M N K, NB, TRANSA TRANSB), one bar
per implementation (localgemm, the aggregate local GEMM limit, drawn hollow;
pumma, pumma:KEY=VALUE variants, scalapack); every pumma bar carries its ratio
to ScaLAPACK, and a WRONG result is drawn hatched in red. Needs matplotlib
(Debian: python3-matplotlib).
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ORDER = ["localgemm", "pumma", "scalapack"]
COLOR = {"localgemm": "none", "pumma": "tab:blue", "scalapack": "tab:orange"}
# further implementations (pumma:KEY=VALUE) in the order they first appear
MORE = ["tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink",
        "tab:gray", "tab:olive", "tab:cyan"]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py CSV PNG")
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("plot.py: %s has no rows" % sys.argv[1])

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
    ratio_key = "ratio_scalapack" if "ratio_scalapack" in rows[0] \
        else "ratio_pumma_scalapack"

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
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
