"""layout.py RECTS PNG -- draws a heterogeneous layout written by
`xlayout show KIND M N S1 ... RECTS`: who owns which part of the matrix,
one colour per process, with its rows x columns."""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.patches as patches
import matplotlib.pyplot as plt

rects_file, png = sys.argv[1], sys.argv[2]
head, rects = None, []
for line in open(rects_file):
    if line.startswith("#"):
        head = line[1:].split()
    elif line.strip():
        rects.append([int(x) for x in line.split()])
kind, m, n, np_ = head[0], int(head[1]), int(head[2]), int(head[3])
colours = plt.cm.tab10.colors
fig, ax = plt.subplots(figsize=(5, 5 * m / n if n else 5))
for p, r0, r1, c0, c1 in rects:
    ax.add_patch(patches.Rectangle((c0, r0), c1 - c0, r1 - r0,
                                   facecolor=colours[p % 10], edgecolor="black",
                                   alpha=0.75))
    ax.text((c0 + c1) / 2, (r0 + r1) / 2, "P%d" % p, ha="center", va="center")
ax.set_xlim(0, n)
ax.set_ylim(m, 0)          # row 1 at the top, as a matrix is read
ax.set_aspect("equal")
ax.set_xlabel("columns")
ax.set_ylabel("rows")
ax.set_title("%s, %d x %d, %d processes" % (kind, m, n, np_))
fig.tight_layout()
fig.savefig(png, dpi=80)
print("picture: %s" % png)
