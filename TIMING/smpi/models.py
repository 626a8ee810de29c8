#!/usr/bin/env python3
"""models.py plan OUT.csv IN.csv... -- the plan predictor judged
(smpi/models.sh, `make -C TIMING models-smpi`; doc/smpi.md, "The models
judged").

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


def main(argv):
    if len(argv) < 4 or argv[1] != "plan":
        sys.exit("usage: models.py plan OUT.csv IN.csv...")
    plan(argv[2], argv[3:])


if __name__ == "__main__":
    main(sys.argv)
