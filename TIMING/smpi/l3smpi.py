#!/usr/bin/env python3
"""l3smpi.py PREFIX -- the table of a simulated Level-3 run (smpi/l3smpi.sh,
`make -C TIMING l3-smpi`; doc/smpi.md, "The Level-3 PBLAS at scale").

Reads PREFIX-runs.csv (one row per smpirun: platform, grid, series, nb, n,
wall_s and the xl3tim CSV it wrote, l3tim.c's columns) and
PREFIX-potrf-NB.csv (scale.sh's PDPOTRF rows, scaletim.c's columns), and
writes PREFIX.csv, a row per platform, grid, NB, series and case:

  platform,grid,nb,case,routine,opts,m,n,k,scalapack_s,pumma_s,ratio,
  status,series,reldiff,first_scalapack_s,first_pumma_s

(ratio: ScaLAPACK's simulated seconds over pumma's, above 1 pumma faster;
status: xl3tim's ok, WRONG or WRONG-outside; PDPOTRF's rows "unchecked",
or "INFO" when a factorization failed; reldiff and first_*: the check's
real calls, l3tim.c), and PREFIX.txt: per platform, each case's ratio on
every grid and NB, the geometric mean per routine and overall, how many
cases pumma is slower in (and those below 0.67), the WRONG rows, and the
runs' wall times.
"""
import csv
import glob
import math
import sys
from collections import defaultdict

COLS = ["platform", "grid", "nb", "case", "routine", "opts", "m", "n", "k",
        "scalapack_s", "pumma_s", "ratio", "status", "series", "reldiff",
        "first_scalapack_s", "first_pumma_s"]


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    prefix = sys.argv[1] if len(sys.argv) > 1 else "out/l3-smpi"
    rows, runs = [], []
    try:
        with open(prefix + "-runs.csv") as f:
            runs = list(csv.DictReader(f))
    except OSError:
        pass
    for run in runs:
        try:
            f = open(run["file"])
        except OSError:
            print("l3smpi.py: %s missing (the run failed: see %s-%s.log)"
                  % (run["file"], prefix, run["platform"]))
            continue
        with f:
            for r in csv.DictReader(f):
                rows.append({
                    "platform": run["platform"], "grid": r["grid"],
                    "nb": r["nb"], "case": r["case"], "routine": r["routine"],
                    "opts": r["opts"], "m": r["m"], "n": r["n"], "k": r["k"],
                    "scalapack_s": r["scalapack_s"], "pumma_s": r["pumma_s"],
                    "ratio": r["ratio"], "status": r["status"],
                    "series": run["series"], "reldiff": r["reldiff"],
                    "first_scalapack_s": r["first_scalapack_s"],
                    "first_pumma_s": r["first_pumma_s"]})
    # PDPOTRF (scale.sh's solver series): pumma's row and ScaLAPACK's
    for path in sorted(glob.glob(prefix + "-potrf-*.csv")):
        if path.endswith("-hpc.csv") or path.endswith("-commodity.csv"):
            continue
        got = defaultdict(dict)
        with open(path) as f:
            for r in csv.DictReader(f):
                if r["routine"] != "pdpotrf":
                    continue
                key = (r["platform"], "%sx%s" % (r["P"], r["Q"]), r["nb"], r["N"])
                got[key][r["impl"]] = r
        for (plat, grid, nb, n), d in sorted(got.items()):
            if "pumma" not in d or "scalapack" not in d:
                continue
            s, p = float(d["scalapack"]["sim_s"]), float(d["pumma"]["sim_s"])
            bad = int(d["scalapack"]["info"]) or int(d["pumma"]["info"])
            rows.append({
                "platform": plat, "grid": grid, "nb": nb, "case": "pdpotrf-l",
                "routine": "PDPOTRF", "opts": "L", "m": "", "n": n, "k": "",
                "scalapack_s": "%.6f" % s, "pumma_s": "%.6f" % p,
                "ratio": "%.4f" % (s / p), "status": "INFO" if bad else "unchecked",
                "series": "strong", "reldiff": "", "first_scalapack_s": "",
                "first_pumma_s": ""})
    with open(prefix + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, COLS)
        w.writeheader()
        w.writerows(rows)

    out = []
    P = out.append
    P("Level-3 PBLAS on the solvers' calls at scale, simulated (smpi/l3smpi.sh):")
    P("ScaLAPACK's simulated time over pumma's (above 1: pumma faster); * WRONG")
    P("(left out of the means), ! pumma slower (< 1).")

    def gkey(g):
        p, q = g.split("x")
        return int(p) * int(q), int(p)
    plats = sorted({r["platform"] for r in rows})
    wrong = [r for r in rows if r["status"].startswith("WRONG")]
    for plat in plats:
        prs = [r for r in rows if r["platform"] == plat]
        cols = sorted({(r["series"], int(r["nb"]), r["grid"]) for r in prs},
                      key=lambda c: (c[0], c[1], gkey(c[2])))
        names = ["%s/%d/%s" % (g, nb, "s" if s == "strong" else "w")
                 for s, nb, g in cols]
        P("")
        P("== %s (columns: grid/NB/series s or w)" % plat)
        cases = []
        for r in prs:
            if r["case"] not in cases:
                cases.append(r["case"])
        at = {(r["case"], r["series"], int(r["nb"]), r["grid"]): r for r in prs}
        wid = max(8, max(len(n) for n in names) + 1)
        P("%-16s %-7s %-4s" % ("case", "routine", "opts")
          + "".join("%*s" % (wid, n) for n in names))
        for c in cases:
            one = next(r for r in prs if r["case"] == c)
            line = "%-16s %-7s %-4s" % (c, one["routine"], one["opts"])
            for s, nb, g in cols:
                r = at.get((c, s, nb, g))
                if not r:
                    line += "%*s" % (wid, "-")
                    continue
                x = float(r["ratio"])
                mark = "*" if r["status"].startswith("WRONG") else "!" if x < 1 else " "
                line += "%*s" % (wid, "%.2f%s" % (x, mark))
            P(line)
        # geometric means per routine and column, and overall
        ok = [r for r in prs if not r["status"].startswith("WRONG")]
        routines = []
        for r in ok:
            if r["routine"] not in routines:
                routines.append(r["routine"])
        P("")
        P("geometric mean of the ratio per routine (%s):" % plat)
        P("%-16s %5s %7s %4s" % ("routine", "cases", "all", "<1")
          + "".join("%*s" % (wid, n) for n in names))
        for rt in routines + ["overall"]:
            sel = [r for r in ok if rt == "overall" or r["routine"] == rt]
            xs = [float(r["ratio"]) for r in sel]
            line = "%-16s %5d %7.2f %4d" % (rt, len(xs), geo(xs),
                                             sum(x < 1 for x in xs))
            for s, nb, g in cols:
                ys = [float(r["ratio"]) for r in sel
                      if (r["series"], int(r["nb"]), r["grid"]) == (s, nb, g)]
                line += "%*s" % (wid, "%.2f" % geo(ys) if ys else "-")
            P(line)
        slow = sorted(((float(r["ratio"]), r) for r in ok if float(r["ratio"]) < 0.67),
                      key=lambda xr: xr[0])   # rows never compared
        P("")
        P("%s: %d cases, %d with pumma slower, %d below 0.67%s" % (
            plat, len(ok), sum(float(r["ratio"]) < 1 for r in ok), len(slow),
            ":" if slow else ""))
        for x, r in slow:
            P("  %.2f  %s %s NB %s %s (scalapack %.4g s, pumma %.4g s)" % (
                x, r["case"], r["grid"], r["nb"], r["series"],
                float(r["scalapack_s"]), float(r["pumma_s"])))
    P("")
    P("WRONG: %d%s" % (len(wrong), ":" if wrong else ""))
    for r in wrong:
        P("  %s %s %s NB %s %s: %s (reldiff %s)" % (
            r["platform"], r["grid"], r["case"], r["nb"], r["series"],
            r["status"], r["reldiff"]))
    if runs:
        P("")
        P("wall time of each simulation (s): platform grid series NB n")
        tot = 0.0
        for run in runs:
            P("  %-10s %-6s %-6s %4s %6s %8s" % (run["platform"], run["grid"],
              run["series"], run["nb"], run["n"], run["wall_s"]))
            tot += float(run["wall_s"])
        P("  total %.0f s (PDPOTRF's runs: out/l3-smpi-potrf-*.log)" % tot)
    text = "\n".join(out) + "\n"
    with open(prefix + ".txt", "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
