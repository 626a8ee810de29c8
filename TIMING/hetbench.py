"""hetbench.py RAW PREFIX -- the section-4 tables and chart from xhetbench
lines: PREFIX.txt (tables, with the figures of Becker and Lastovetsky 2007
beside ours and the targets), PREFIX.csv and PREFIX.png (communication and
execution times against S2 = S3, per topology, for the square shape, as
Figs. 8-11 of Becker and Lastovetsky 2007)."""
import sys

raw, prefix = sys.argv[1], sys.argv[2]
rows, head = [], ""
for line in open(raw):
    if line.startswith("#"):
        head = line[1:].strip()
        continue
    f = line.split()
    if len(f) < 15 or f[0] != "hetbench" or f[11] == "-":
        continue
    rows.append(dict(s1=float(f[1]), s2=float(f[2]), s3=float(f[3]),
                     shape=(int(f[4]), int(f[5]), int(f[6])), inputs=f[7],
                     where=f[8], sched=f[9], topo=f[10], comm=float(f[11]),
                     exe=float(f[12]), elems=float(f[13]), chosen=f[14],
                     wrong=len(f) > 15))


def get(shape, topo, s2, inputs, where, sched):
    for r in rows:
        if (r["shape"], r["topo"], r["s2"], r["inputs"], r["where"], r["sched"]) == \
                (shape, topo, s2, inputs, where, sched):
            return r
    return None


def ratio_name(shape):
    m, n, k = shape
    g = min(shape)
    return "%g:%g:%g" % (round(m / g), round(n / g), round(k / g))


# The figures of Becker and Lastovetsky 2007 (section 4: N = 5000,
# 100 Mbit/s, ATLAS): what they state in the text.
PAPER = {
    "linear": "comm: square-corner below rectangular at every ratio, 40% less on "
              "average; exec: 14% less on average without overlap, 38% faster "
              "with overlap at 90:5:5",
    "full": "comm: square-corner below rectangular when more heterogeneous than "
            "about 80:10:10; exec: 30% faster with overlap at 90:5:5, faster "
            "than rectangular up to about 60:20:20 with overlap",
}

out = ["Section 4 of Becker and Lastovetsky 2007 on this machine: " + head,
       "times in seconds (slowest process; comm: until it had all its data; "
       "exec: the whole call, remaps included), best of the repeats"]
csv = ["s1,s2,s3,m,n,k,inputs,where,schedule,topology,comm,exec,elements,chosen"]
for r in rows:
    csv.append("%g,%g,%g,%d,%d,%d,%s,%s,%s,%s,%.4f,%.4f,%.0f,%s" % (
        r["s1"], r["s2"], r["s3"], r["shape"][0], r["shape"][1], r["shape"][2],
        r["inputs"], r["where"], r["sched"], r["topo"], r["comm"], r["exe"],
        r["elems"], r["chosen"]))
ok = True
wrong = any(r["wrong"] for r in rows)
shapes = []
for r in rows:
    if r["shape"] not in shapes:
        shapes.append(r["shape"])
square = next((s for s in shapes if s[0] == s[1] == s[2]), None)

# 1. The comparison of Becker and Lastovetsky 2007 on the square shape, with
# the fair baseline.
for topo in ("linear", "full"):
    if square is None:
        break
    out.append("")
    out.append("%s topology%s, M = N = K = %d" % (
        topo, " (fastest in the middle, relaying)" if topo == "linear" else "",
        square[0]))
    out.append("%-9s %9s %9s %6s | %9s %9s %9s %9s | %7s %7s %7s" % (
        "S1:S2:S3", "comm rect", "comm sq", "sq/rect", "exec rect", "rect+o",
        "exec sq", "exec sq+o", "sq", "sq+o", "fair"))
    comm_below = True
    for s2 in sorted({r["s2"] for r in rows if r["topo"] == topo}):
        a = get(square, topo, s2, "rectangular", "given", "het")
        ao = get(square, topo, s2, "rectangular", "given", "het-overlap")
        b = get(square, topo, s2, "square-corner", "given", "het")
        c = get(square, topo, s2, "square-corner", "given", "het-overlap")
        if not (a and ao and b and c):
            continue
        if b["comm"] >= a["comm"]:
            comm_below = False
        out.append("%-9s %9.3f %9.3f %6.2f | %9.3f %9.3f %9.3f %9.3f | %6.1f%% %6.1f%% "
                   "%6.1f%%" % (
                       "%g:%g:%g" % (a["s1"], a["s2"], a["s3"]), a["comm"], b["comm"],
                       b["comm"] / a["comm"], a["exe"], ao["exe"], b["exe"], c["exe"],
                       100 * (1 - b["exe"] / a["exe"]), 100 * (1 - c["exe"] / a["exe"]),
                       100 * (1 - c["exe"] / ao["exe"])))
    out.append("(sq, sq+o: how much faster than rectangular without overlap, as "
               "Becker and Lastovetsky 2007 compare; fair: square-corner with "
               "overlap against rectangular with the same overlap)")
    out.append("Becker and Lastovetsky 2007: " + PAPER[topo])
    first = (get(square, topo, 5.0, "rectangular", "given", "het"),
             get(square, topo, 5.0, "square-corner", "given", "het-overlap"))
    if all(first):
        gain = 1 - first[1]["exe"] / first[0]["exe"]
        t = gain >= 0.25
        ok &= t
        out.append("target (Becker and Lastovetsky 2007) 90:5:5 square-corner with "
                   "overlap >= 25%% faster than "
                   "rectangular without: %.1f%% %s" % (100 * gain, "ok" if t else "MISSED"))
    if topo == "linear":
        ok &= comm_below
        out.append("target square-corner comm below rectangular at every ratio: %s" %
                   ("ok" if comm_below else "MISSED"))

# 2. The fair baseline at 90:5:5, every shape.
out.append("")
out.append("At 90:5:5, square-corner against rectangular, both with overlap "
           "(het-overlap), A, B and C each on that kind of layout of its shape:")
out.append("%-8s %-6s %9s %9s %7s  %s" % ("M:N:K", "topo", "rect+o", "sq+o", "faster",
                                          "target"))
for shape in shapes:
    for topo in ("linear", "full"):
        ao = get(shape, topo, 5.0, "rectangular", "given", "het-overlap")
        c = get(shape, topo, 5.0, "square-corner", "given", "het-overlap")
        if not (ao and c):
            out.append("%-8s %-6s (no run: square-corner does not exist for one of "
                       "the shapes, or the run is missing)" % (ratio_name(shape), topo))
            continue
        gain = 1 - c["exe"] / ao["exe"]
        need = 0.15 if topo == "linear" else 0.0
        t = gain > need
        ok &= t
        out.append("%-8s %-6s %9.3f %9.3f %6.1f%%  > %d%% %s" % (
            ratio_name(shape), topo, ao["exe"], c["exe"], 100 * gain, 100 * need,
            "ok" if t else "MISSED"))

# 3. The planner against each fixed choice, from rectangular inputs.
out.append("")
out.append("The planner (PUMMA_HET_LAYOUT=auto) against the fixed choices from the "
           "same rectangular inputs, het-overlap: sub(C) on its own layout (given), "
           "remapped to columns, to square-corner (-: none for C's shape and the "
           "speeds):")
out.append("%-8s %-6s %-9s %8s %8s %8s %8s  %-13s %7s %7s" % (
    "M:N:K", "topo", "S1:S2:S3", "given", "columns", "sq", "auto", "auto chose",
    "choice", "run"))
worst = worst_run = worst_same = None
for shape in shapes:
    for topo in ("linear", "full"):
        for s2 in sorted({r["s2"] for r in rows if r["topo"] == topo}):
            names = ("given", "columns", "square-corner")
            fixed = [get(shape, topo, s2, "rectangular", w, "het-overlap") for w in names]
            # a forced kind that does not exist for the shape ran on C's own
            # layout: not a choice of its own
            fixed = [f if f and f["chosen"] == f["where"] else None for f in fixed]
            auto = get(shape, topo, s2, "rectangular", "auto", "het-overlap")
            if not auto or not fixed[0]:
                continue
            best = min(f["exe"] for f in fixed if f)
            # the choice: the fixed run of what auto chose, against the best
            # (the decision's cost); the run: auto's own run (the same
            # computation, measured again: the decision plus the noise)
            pick = next((f for f, w in zip(fixed, names) if f and w == auto["chosen"]),
                        None)
            choice = pick["exe"] / best - 1 if pick else auto["exe"] / best - 1
            run = auto["exe"] / best - 1
            worst = choice if worst is None else max(worst, choice)
            worst_run = run if worst_run is None else max(worst_run, run)
            if pick:
                same = abs(auto["exe"] / pick["exe"] - 1)
                worst_same = same if worst_same is None else max(worst_same, same)
            cell = ["%8.3f" % f["exe"] if f else "%8s" % "-" for f in fixed]
            out.append("%-8s %-6s %-9s %s %8.3f  %-13s %+6.1f%% %+6.1f%%" % (
                ratio_name(shape), topo, "%g:%g:%g" % (auto["s1"], auto["s2"], auto["s3"]),
                " ".join(cell), auto["exe"], auto["chosen"], 100 * choice, 100 * run))
out.append("(choice: the fixed run of what the planner chose against the best fixed "
           "run; run: the planner's own run, the same computation measured again, "
           "against the best)")
if worst is not None:
    t = worst <= 0.05
    ok &= t
    out.append("target the planner never more than 5%% slower than the best fixed "
               "choice: worst %+.1f%% %s" % (100 * worst, "ok" if t else "MISSED"))
    out.append("its own runs: worst %+.1f%% against the best; the same computation "
               "measured twice (auto and its fixed twin) differed by up to %.1f%%" % (
                   100 * worst_run, 100 * (worst_same or 0)))
if wrong:
    out.append("WRONG results: see the raw lines")
text = "\n".join(out) + "\n"
open(prefix + ".txt", "w").write(text)
open(prefix + ".csv", "w").write("\n".join(csv) + "\n")
sys.stdout.write(text)
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(2, 2, figsize=(11, 8))
    for j, topo in enumerate(("linear", "full")):
        for i, what in enumerate(("comm", "exe")):
            for inputs, sched, lab in (("rectangular", "het", "rectangular"),
                                       ("rectangular", "het-overlap",
                                        "rectangular, overlap"),
                                       ("square-corner", "het", "square-corner"),
                                       ("square-corner", "het-overlap",
                                        "square-corner, overlap")):
                if what == "comm" and sched == "het-overlap":
                    continue
                pts = sorted((r["s2"], r[what]) for r in rows if r["topo"] == topo
                             and r["shape"] == square and r["inputs"] == inputs
                             and r["where"] == "given" and r["sched"] == sched)
                if pts:
                    ax[i][j].plot([p[0] for p in pts], [p[1] for p in pts], "o-",
                                  label=lab)
            ax[i][j].set_title("%s, %s" % ("communication" if what == "comm"
                                           else "execution", topo))
            ax[i][j].set_xlabel("S2 = S3 (S1 = 100 - S2 - S3)")
            ax[i][j].set_ylabel("seconds")
            ax[i][j].legend()
    fig.suptitle(head)
    fig.tight_layout()
    fig.savefig(prefix + ".png", dpi=90)
    print("chart: %s.png" % prefix)
except ImportError:
    print("(no matplotlib: no chart)")
# A missed target is reported, not an error; a wrong result is.
sys.exit(1 if wrong else 0)
