"""comm.py CSV PNG -- predicted against measured time per variant and
message size from xcommtim's CSV, as the figures of Nasri, Steffenel and
Trystram 2007 draw them: one panel per operation and communicator size, time
against bytes (log-log), a marker per measurement and a line per prediction
of the poly-model (the model xcommtim chose for that communicator)."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

src, png = sys.argv[1], sys.argv[2]
meas, pred = {}, {}
for r in csv.DictReader(open(src)):
    key = (int(r["np"]), r["op"])
    v, b = r["variant"], float(r["bytes"])
    meas.setdefault(key, {}).setdefault(v, {})[b] = float(r["measured_s"])
    if r["model"] == "poly":
        pred.setdefault(key, {}).setdefault(v, {})[b] = float(r["predicted_s"])

panels = sorted(meas)
if not panels:
    sys.exit("comm.py: no rows in " + src)
cols = 3
rows = (len(panels) + cols - 1) // cols
fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.6 * rows),
                         squeeze=False)
for ax, key in zip(axes.flat, panels):
    for i, (v, pts) in enumerate(sorted(meas[key].items())):
        color = "C%d" % (i % 10)
        xs = sorted(pts)
        ax.plot(xs, [pts[x] for x in xs], "o", color=color, ms=3, label=v)
        p = pred.get(key, {}).get(v, {})
        if p:
            xs = sorted(p)
            ax.plot(xs, [p[x] for x in xs], "-", color=color, lw=1)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_title("%s, %d processes" % (key[1], key[0]))
    ax.set_xlabel("bytes")
    ax.set_ylabel("seconds")
    ax.legend(fontsize=6, ncol=2)
for ax in list(axes.flat)[len(panels):]:
    ax.axis("off")
fig.suptitle("measured (points) and predicted by the poly-model (lines)")
fig.tight_layout()
fig.savefig(png, dpi=90)
