"""curves.py CSV PNG -- the simulator's curves for grids of 64 to 16384
processes (xsimtim curves), as the PUMMA paper draws its results:
efficiency against grid shape, against matrix size, and at fixed memory
per process (isogranularity), pumma beside ScaLAPACK's algorithm as
modelled; and the words a process receives against the lower bound
COSMA attains."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

src, png = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(src)))
if not rows:
    sys.exit("curves.py: no rows in " + src)
fam = {}
for r in rows:
    fam.setdefault(r["family"], []).append(r)
fig, ax = plt.subplots(2, 2, figsize=(12, 9))


def label(a, xlabel, title, fontsize, ncol=1):
    """A panel's log2 x axis, its labels and legend."""
    a.set_xscale("log", base=2)
    a.set_xlabel(xlabel)
    a.set_ylabel("efficiency")
    a.set_title(title)
    a.legend(fontsize=fontsize, ncol=ncol)


a = ax[0][0]
sh = fam.get("shape", [])
x = [int(r["p"]) for r in sh]
for key, style in (("pumma", "-o"), ("sdb", ":"), ("mdb1", ":"),
                   ("mdb2", ":"), ("scalapack", "--s")):
    a.plot(x, [float(r[key]) for r in sh], style, label=key)
label(a, "p (grid p x 1024/p), N = 16384", "(a) grid shape, 1024 processes", 8)

a = ax[0][1]
by_p = {}
for r in fam.get("size", []):
    by_p.setdefault(int(r["P"]), []).append(r)
for P, rs in sorted(by_p.items()):
    n = [float(r["n"]) for r in rs]
    line, = a.plot(n, [float(r["pumma"]) for r in rs], "-o", ms=3,
                   label="pumma %d" % P)
    a.plot(n, [float(r["scalapack"]) for r in rs], "--",
           color=line.get_color(), label="ScaLAPACK %d" % P)
label(a, "N (square grids)", "(b) matrix size", 7, ncol=2)

a = ax[1][0]
for f in sorted(k for k in fam if k.startswith("iso")):
    rs = fam[f]
    P = [int(r["P"]) for r in rs]
    line, = a.plot(P, [float(r["pumma"]) for r in rs], "-o",
                   label="pumma, %s per process" % f[3:])
    a.plot(P, [float(r["scalapack"]) for r in rs], "--",
           color=line.get_color(), label="ScaLAPACK, %s" % f[3:])
label(a, "processes (N = nloc sqrt(P))", "(c) isogranularity", 7)

a = ax[1][1]
rs = fam.get("iso1000", [])
P = [int(r["P"]) for r in rs]
a.plot(P, [float(r["words"]) for r in rs], "-o",
       label="pumma and ScaLAPACK (broadcast/roll)")
a.plot(P, [float(r["bound"]) for r in rs], "--",
       label="lower bound (COSMA attains)")
a.set_xscale("log", base=2)
a.set_yscale("log")
a.set_xlabel("processes (1000 x 1000 per process)")
a.set_ylabel("words received per process")
a.set_title("(d) communication volume")
a.legend(fontsize=8)

fig.tight_layout()
fig.savefig(png, dpi=90)
