"""hetbench.py RAW PREFIX -- the section-4 table and chart from xhetbench
lines: PREFIX.txt (table, with the seed's figures beside ours and the
targets), PREFIX.csv and PREFIX.png (communication and execution times
against S2 = S3, per topology, as the seed's Figs. 8-11)."""
import sys

raw, prefix = sys.argv[1], sys.argv[2]
rows, head = [], ""
for line in open(raw):
    if line.startswith("#"):
        head = line[1:].strip()
        continue
    f = line.split()
    if len(f) < 11 or f[0] != "hetbench":
        continue
    if f[8] == "-":
        continue
    rows.append(dict(s1=float(f[1]), s2=float(f[2]), s3=float(f[3]), n=int(f[4]),
                     layout=f[5], sched=f[6], topo=f[7], comm=float(f[8]),
                     exe=float(f[9]), elems=float(f[10]), wrong=len(f) > 11))

def get(topo, s2, layout, sched):
    for r in rows:
        if (r["topo"], r["s2"], r["layout"], r["sched"]) == (topo, s2, layout, sched):
            return r
    return None

# The seed's figures (Becker and Lastovetsky, section 4: N = 5000,
# 100 Mbit/s, ATLAS): what they state in the text.
SEED = {
    "linear": "comm: square-corner below rectangular at every ratio, 40% less on "
              "average; exec: 14% less on average without overlap, 38% faster "
              "with overlap at 90:5:5",
    "full": "comm: square-corner below rectangular when more heterogeneous than "
            "about 80:10:10; exec: 30% faster with overlap at 90:5:5, faster "
            "than rectangular up to about 60:20:20 with overlap",
}

out, csv = [], ["s1,s2,s3,topology,layout,schedule,comm,exec,elements"]
for r in rows:
    csv.append("%g,%g,%g,%s,%s,%s,%.4f,%.4f,%.0f" % (r["s1"], r["s2"], r["s3"],
               r["topo"], r["layout"], r["sched"], r["comm"], r["exe"], r["elems"]))
out.append("Section 4 of the seed on this machine: " + head)
out.append("times in seconds (slowest process; comm: until it had all its data), "
           "best of the repeats")
ok = True
wrong = any(r["wrong"] for r in rows)
for topo in ("linear", "full"):
    out.append("")
    out.append("%s topology%s" % (topo, " (fastest in the middle, relaying)"
                                  if topo == "linear" else ""))
    out.append("%-9s %9s %9s %6s | %9s %9s %9s | %7s %7s" % (
        "S1:S2:S3", "comm rect", "comm sq", "sq/rect", "exec rect", "exec sq",
        "exec sq+o", "sq", "sq+o"))
    s2s = sorted({r["s2"] for r in rows if r["topo"] == topo})
    comm_below = True
    for s2 in s2s:
        a = get(topo, s2, "rectangular", "het")
        b = get(topo, s2, "square-corner", "het")
        c = get(topo, s2, "square-corner", "het-overlap")
        if not (a and b and c):
            continue
        if b["comm"] >= a["comm"]:
            comm_below = False
        out.append("%-9s %9.3f %9.3f %6.2f | %9.3f %9.3f %9.3f | %6.1f%% %6.1f%%" % (
            "%g:%g:%g" % (a["s1"], a["s2"], a["s3"]), a["comm"], b["comm"],
            b["comm"] / a["comm"], a["exe"], b["exe"], c["exe"],
            100 * (1 - b["exe"] / a["exe"]), 100 * (1 - c["exe"] / a["exe"])))
    out.append("(sq, sq+o: how much faster than rectangular, without and with "
               "overlap)")
    out.append("seed: " + SEED[topo])
    first = get(topo, 5.0, "rectangular", "het"), get(topo, 5.0, "square-corner", "het-overlap")
    if all(first):
        gain = 1 - first[1]["exe"] / first[0]["exe"]
        t = gain >= 0.25
        ok &= t
        out.append("target 90:5:5 square-corner with overlap >= 25%% faster: %.1f%% %s" %
                   (100 * gain, "ok" if t else "MISSED"))
    if topo == "linear":
        ok &= comm_below
        out.append("target square-corner comm below rectangular at every ratio: %s" %
                   ("ok" if comm_below else "MISSED"))
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
            for layout, sched, lab in (("rectangular", "het", "rectangular"),
                                       ("square-corner", "het", "square-corner"),
                                       ("square-corner", "het-overlap",
                                        "square-corner, overlap")):
                if what == "comm" and sched == "het-overlap":
                    continue
                pts = sorted((r["s2"], r[what]) for r in rows if r["topo"] == topo
                             and r["layout"] == layout and r["sched"] == sched)
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
