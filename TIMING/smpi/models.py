#!/usr/bin/env python3
"""models.py -- the judgements of `make -C TIMING models-smpi`
(smpi/models.sh; doc/smpi.md, "The models judged").

models.py plan OUT.csv IN.csv... -- the plan predictor judged.

IN: xscaletim's rows (smpi/scaletim.c) of pumma's PDGEMM, each with the
plan that ran and pumma_plan_predict's time for it (pred_s). Writes OUT
with the columns

    platform,P,Q,M,N,K,algo,predicted_s,simulated_s

(algo: the plan's algorithm) and prints, per platform and in all, how
many predictions at P*Q >= 16 are within 15% of the simulated time (the
target: 90%), the geometric mean of predicted over simulated, and the
cases furthest off.
"""
import csv
import math
import sys


def gmean(v):
    v = [x for x in v if x > 0]
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")


def algo_of(plan):
    for w in plan.split():
        if w.startswith("algo="):
            return w[5:]
    return ""


def plan(out, paths):
    rows = []
    for path in paths:
        for r in csv.DictReader(open(path)):
            if r["impl"] != "pumma" or r["routine"] != "pdgemm" or not r["pred_s"]:
                continue
            rows.append(r)
    rows.sort(key=lambda r: (r["platform"], int(r["P"]) * int(r["Q"]), r["P"],
                             int(r["M"]), int(r["N"]), int(r["K"])))
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["platform", "P", "Q", "M", "N", "K", "algo", "predicted_s",
                    "simulated_s"])
        for r in rows:
            w.writerow([r["platform"], r["P"], r["Q"], r["M"], r["N"], r["K"],
                        algo_of(r["plan"]), r["pred_s"], r["sim_s"]])
    judged = [r for r in rows if int(r["P"]) * int(r["Q"]) >= 16]
    print("pumma_plan_predict against SMPI: %d rows in %s, %d at P*Q >= 16"
          % (len(rows), out, len(judged)))
    print("%-10s %5s %8s %8s %8s %8s" % ("platform", "cases", "within", "share",
                                        "gmean", "range"))
    allq = []
    for plat in sorted({r["platform"] for r in judged}):
        q = [float(r["pred_s"]) / float(r["sim_s"]) for r in judged
             if r["platform"] == plat]
        allq += q
        ok = sum(abs(x - 1) <= 0.15 for x in q)
        print("%-10s %5d %8d %7.0f%% %8.2f %4.2f-%.2f" % (
            plat, len(q), ok, 100.0 * ok / len(q), gmean(q), min(q), max(q)))
    if allq:
        ok = sum(abs(x - 1) <= 0.15 for x in allq)
        print("%-10s %5d %8d %7.0f%% %8.2f   (target: 90%% within 15%%)" % (
            "all", len(allq), ok, 100.0 * ok / len(allq), gmean(allq)))
    off = sorted(judged, key=lambda r: -abs(math.log(float(r["pred_s"]) /
                                                     float(r["sim_s"]))))[:10]
    if off:
        print("furthest off (predicted / simulated):")
    for r in off:
        print("  %5.2f  %-9s %sx%s %sx%sx%s %s" % (
            float(r["pred_s"]) / float(r["sim_s"]), r["platform"], r["P"],
            r["Q"], r["M"], r["N"], r["K"], r["plan"]))


MODELS = ["hockney", "logp", "loggp", "plogp", "plogpc", "poly"]


def coll(out, paths):
    """models.py coll OUT.csv IN.csv... -- the communication models judged:
    xcommtim -c's rows (platform,np,op,bytes,model,pick,pick_s,best,best_s,
    abs_err) joined into OUT; per model and platform, how often its pick is
    within 10% of the best simulated (the target for poly: 90%) and its
    mean |error| over every candidate (poly's below the best single
    model's)."""
    rows, head = [], None
    for path in paths:
        with open(path) as f:
            r = list(csv.reader(f))
        if not r:
            continue
        head = head or r[0]
        rows += r[1:]
    if head is None:
        sys.exit("models.py coll: no rows in %s" % " ".join(paths))
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(rows)
    rows = [dict(zip(head, r)) for r in rows]
    plats = sorted({r["platform"] for r in rows})
    print("The communication models' picks against SMPI: %d cases x %d models in %s"
          % (len(rows) // len(MODELS), len(MODELS), out))
    print("pick within 10% of the best simulated, and mean |error| over each case's candidates")
    print("%-8s %s" % ("model", " ".join("%17s" % p for p in plats + ["all"])))
    err = {}
    for m in MODELS:
        cells = []
        for p in plats + ["all"]:
            rs = [r for r in rows if r["model"] == m and p in ("all", r["platform"])]
            ok = sum(float(r["pick_s"]) <= 1.10 * float(r["best_s"]) for r in rs)
            e = sum(float(r["abs_err"]) for r in rs) / len(rs) if rs else float("nan")
            if p == "all":
                err[m] = e
            cells.append("%3d/%-3d %3.0f%% %4.0f%%" % (ok, len(rs), 100.0 * ok / max(1, len(rs)),
                                                      100 * e) if rs else "%17s" % "-")
        print("%-8s %s" % (m, " ".join("%17s" % c for c in cells)))
    single = min((err[m], m) for m in MODELS if m != "poly")
    rs = [r for r in rows if r["model"] == "poly"]
    ok = sum(float(r["pick_s"]) <= 1.10 * float(r["best_s"]) for r in rs)
    print("poly: pick within 10%% in %.0f%% of cases (target 90%%); mean error %.0f%% "
          "against the best single model's, %s %.0f%% (target: below)"
          % (100.0 * ok / max(1, len(rs)), 100 * err["poly"], single[1], 100 * single[0]))
    worst = sorted(rs, key=lambda r: -float(r["pick_s"]) / float(r["best_s"]))[:12]
    print("poly's worst picks (pick / best):")
    for r in worst:
        print("  %5.2f  %-9s np %4s %-6s %8s B: %s (%.3g s) against %s (%.3g s)" % (
            float(r["pick_s"]) / float(r["best_s"]), r["platform"], r["np"], r["op"],
            r["bytes"], r["pick"], float(r["pick_s"]), r["best"], float(r["best_s"])))


def main(argv):
    if len(argv) < 4 or argv[1] not in ("plan", "coll"):
        sys.exit("usage: models.py plan|coll OUT.csv IN.csv...")
    (plan if argv[1] == "plan" else coll)(argv[2], argv[3:])


if __name__ == "__main__":
    main(sys.argv)
