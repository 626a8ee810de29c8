#!/usr/bin/env python3
"""models_charts.py OUTDIR -- the charts of `make -C TIMING models-smpi`
(smpi/models.sh; doc/smpi.md, "The models judged"), from the stages'
contract files in OUTDIR, each drawn when its file is there:

  plan-smpi.png     pumma_plan_predict's time against the simulated time
                    (log-log, a marker per case, one colour per platform;
                    the band is the target's 15%)
  coll-smpi.png     per platform and model, the share of cases whose pick
                    is within 10% of the best simulated (the target: 90%)
  exec-smpi.png     per size, each model's choice over the best simulated
  search-smpi.png   per case, the experiments each search made and how far
                    its optimum is from the exhaustive one's
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def plan(src, png):
    r = rows(src)
    fig, ax = plt.subplots(figsize=(6, 5.5))
    for plat in sorted({x["platform"] for x in r}):
        xs = [float(x["simulated_s"]) for x in r if x["platform"] == plat]
        ys = [float(x["predicted_s"]) for x in r if x["platform"] == plat]
        ax.scatter(xs, ys, s=16, label=plat)
    lo = min(min(float(x["simulated_s"]), float(x["predicted_s"])) for x in r)
    hi = max(max(float(x["simulated_s"]), float(x["predicted_s"])) for x in r)
    t = [lo / 2, hi * 2]
    ax.plot(t, t, "k-", lw=0.8)
    ax.fill_between(t, [v * 0.85 for v in t], [v * 1.15 for v in t],
                    color="grey", alpha=0.25, label="within 15%")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("simulated (s)")
    ax.set_ylabel("predicted by pumma_plan_predict (s)")
    ax.set_title("The plan predictor on simulated platforms")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def coll(src, png):
    r = rows(src)
    models = ["hockney", "logp", "loggp", "plogp", "plogpc", "poly"]
    plats = sorted({x["platform"] for x in r})
    fig, ax = plt.subplots(figsize=(8, 4.5))
    w = 0.8 / len(models)
    for i, m in enumerate(models):
        share = []
        for p in plats:
            c = [x for x in r if x["model"] == m and x["platform"] == p]
            ok = sum(float(x["pick_s"]) <= 1.10 * float(x["best_s"]) for x in c)
            share.append(100.0 * ok / len(c) if c else 0)
        ax.bar([j + i * w for j in range(len(plats))], share, w, label=m)
    ax.axhline(90, color="k", lw=0.8, ls="--")
    ax.set_ylim(0, 100)
    ax.set_xticks([j + 0.4 - w / 2 for j in range(len(plats))])
    ax.set_xticklabels(plats)
    ax.set_ylabel("picks within 10% of the best (%)")
    ax.set_title("The communication models' picks of variant and segment")
    # below the axes: the bars reach the top
    ax.legend(fontsize=8, ncol=6, loc="upper center",
              bbox_to_anchor=(0.5, -0.08))
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def exec_(src, png):
    r = rows(src)
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for m in sorted({x["model"] for x in r}):
        c = sorted((int(x["size"]), float(x["chosen_s"]) / float(x["best_s"]))
                   for x in r if x["model"] == m)
        ax.plot([a for a, _ in c], [b for _, b in c], "o-", label=m)
    ax.axhline(1.05, color="k", lw=0.8, ls="--")
    ax.set_xlabel("N")
    ax.set_ylabel("chosen / best simulated")
    ax.set_title("The execution-time models' choice")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def search(src, png):
    r = rows(src)
    cases = sorted({(x["platform"], int(x["np"]), x["op"], int(x["bytes"]))
                    for x in r})
    methods = ["exhaustive", "mgd", "smgd", "model-guided"]
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(max(7, 0.45 * len(cases)), 6),
                                 sharex=True)
    w = 0.8 / len(methods)
    for i, m in enumerate(methods):
        e, v = [], []
        for c in cases:
            x = [y for y in r if (y["platform"], int(y["np"]), y["op"],
                                  int(y["bytes"])) == c and y["method"] == m]
            e.append(int(x[0]["experiments"]) if x else 0)
            v.append(100 * float(x[0]["vs_exhaustive"]) if x else 0)
        pos = [j + i * w for j in range(len(cases))]
        a1.bar(pos, e, w, label=m)
        a2.bar(pos, v, w, label=m)
    a1.set_ylabel("experiments")
    a2.set_ylabel("optimum over exhaustive's (+%)")
    a2.axhline(10, color="k", lw=0.8, ls="--")
    a2.set_xticks([j + 0.4 - w / 2 for j in range(len(cases))])
    a2.set_xticklabels(["%s %d %s %dK" % (p, n, o[0], b // 1024)
                        for p, n, o, b in cases], rotation=60, fontsize=7)
    a1.legend(fontsize=8, ncol=4)
    a1.set_title("Segment searches (Vadhiyar, Fagg and Dongarra, Table 2)")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: models_charts.py OUTDIR")
    d = argv[1]
    for name, fn in (("plan", plan), ("coll", coll), ("exec", exec_),
                     ("search", search)):
        src = os.path.join(d, name + "-smpi.csv")
        if os.path.exists(src) and os.path.getsize(src) > 0:
            fn(src, os.path.join(d, name + "-smpi.png"))
            print("chart: %s" % os.path.join(d, name + "-smpi.png"))


if __name__ == "__main__":
    main(sys.argv)
