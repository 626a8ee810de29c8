#!/usr/bin/env python3
"""cosma.py -- COSMA's rows (smpi/cosma.sh: out/smpi-cosma.csv) beside
pumma's of the same cases (smpi/scale.sh's out/smpi-scale.csv, or any CSV
of scaletim.c's columns), both simulated with the same smpirun options
(the same mode: charged, or pure with smpi/simulate-computation:no).

    python3 smpi/cosma.py COSMA.csv PUMMA.csv [PUMMA.csv ...]

Per case (platform, grid, M x N x K, NN): each one's seconds, COSMA's over
pumma's (1 or more: pumma at least as fast), the words a process received
at most and the lower bound; then how many cases pumma is at least as
fast on. A case with several pumma rows takes the last.
"""
import csv
import sys


def key(r):
    return (r["platform"], int(r["P"]), int(r["Q"]), int(r["M"]), int(r["N"]),
            int(r["K"]))


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cosma, pumma = {}, {}
    for r in csv.DictReader(open(argv[1])):
        if r["impl"] == "cosma":
            cosma[key(r)] = r
    for path in argv[2:]:
        for r in csv.DictReader(open(path)):
            if r["impl"] == "pumma" and r["trans"] == "NN" and r["routine"] == "pdgemm":
                pumma[key(r)] = r
    both = sorted(k for k in cosma if k in pumma)
    if not both:
        sys.exit("cosma.py: no case in both (platform, grid, M x N x K)")
    print("%-10s %-6s %-18s %11s %11s %7s %11s %11s %11s" %
          ("platform", "grid", "case", "cosma_s", "pumma_s", "c/p", "cosma_w",
           "pumma_w", "bound_w"))
    ahead = 0
    for k in both:
        c, p = cosma[k], pumma[k]
        ratio = float(c["sim_s"]) / float(p["sim_s"])
        ahead += ratio >= 1
        print("%-10s %-6s %-18s %11.6g %11.6g %7.2f %11.4g %11.4g %11.4g" %
              (k[0], "%dx%d" % (k[1], k[2]), "%dx%dx%d" % k[3:], float(c["sim_s"]),
               float(p["sim_s"]), ratio, float(c["words_recv_max"]),
               float(p["words_recv_max"]), float(p["words_bound"] or 0)))
    print("pumma at least as fast as COSMA on %d of %d cases" % (ahead, len(both)))


if __name__ == "__main__":
    main(sys.argv)
