#!/usr/bin/env python3
"""platform.py -- SimGrid platforms (XML, version 4.1) for pumma's simulated
runs (doc/smpi.md), each with a hostfile.

    python3 platform.py KIND OUT [name=value ...]

writes OUT.xml and OUT.hosts (one line per rank slot: a host appears once
per core). Every file records in its header the kind and every parameter
it was made with, defaults included, so a result names its platform
exactly. The kinds and what each stands for:

  machine     this machine, from its tune file (pumma's measured model):
              one host of `cores` cores at 2/gamma_d flop/s, ranks talking
              through the measured alpha (latency) and 1/beta (bandwidth).
              tune= the tune file (default: pumma's default path);
              speed= flop/s instead of 2/gamma_d (the compute model's
              ref, so that its charges take what they took here).
  hpc         a modern HPC cluster: a two-level fat tree of `nodes` nodes
              (`per_leaf` per leaf switch, `spines` spine switches) with
              100-200 Gbit/s, 1-2 us links; a node's `cores` ranks share
              its one NIC link, and its memory (shm_bw, shm_lat) when they
              talk to each other.
  commodity   a commodity cluster: `nodes` nodes on one 10 GbE switch,
              25-50 us, the switch's backplane `bb` wide; memory as hpc's.

  On both, shm=shared (the default) writes the routes out, each node's
  memory one link its ranks share; shm=fatpipe writes SimGrid's <cluster>,
  whose loopback link is FATPIPE (SimGrid's sg_platf.cpp): every transfer
  within a node at the full shm_bw however many run at once, so that a
  broadcast cut in 256 pieces to 3 ranks of one node took the time of
  one piece. shared's routes number nodes^2: for the largest platforms
  (smpi-scale's 256-512 nodes) fatpipe parses faster.
  hetero      heterogeneous hosts, as the execution-time models paper's
              clusters: `nodes` single-core hosts whose speeds cycle
              through `speeds` (Gflop/s), on one switch; with `counts`
              (one count a speed) grouped by kind instead: node-0 ..
              the first kind's counts[0] hosts, then the next kind's, and
              `nodes` their sum (xexectool configs' processor numbers).
  clusters3   three clusters joined by slow links, as the square-corner
              paper's: sizes, speeds and the links between them given.
  sites       a hierarchical grid of sites (Grid'5000-like, as the
              poly-model/ECEF paper's): `sites` sites of `nodes` nodes each,
              LAN inside a site, WAN latencies of `wan_lat` between sites.

Rates use SimGrid's units (Gf, Gbps, us, ms). Links are simulated as
given: pass smpirun --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 for
links that do what they say (SMPI's default factors model MPI over TCP).
"""
import os
import sys

HEAD = ("<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n")


def params(defaults, argv):
    p = dict(defaults)
    for a in argv:
        if "=" not in a:
            sys.exit("platform.py: expected name=value, got %r" % a)
        k, v = a.split("=", 1)
        if k not in p:
            sys.exit("platform.py: unknown parameter %r (known: %s)"
                     % (k, ", ".join(sorted(p))))
        p[k] = v
    return p


def header(kind, p):
    args = " ".join("%s=%s" % (k, p[k]) for k in sorted(p))
    return HEAD + "<!-- platform.py %s %s -->\n" % (kind, args)


def tune_values(path):
    """alpha, beta (the first net line) and gamma_d (the first local line)
    of a pumma tune file."""
    alpha = beta = gamma = None
    with open(path) as f:
        for line in f:
            words = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
            if line.startswith("net ") and alpha is None and "alpha" in words:
                alpha, beta = float(words["alpha"]), float(words["beta"])
            if line.startswith("local ") and gamma is None and "gamma_d" in words:
                gamma = float(words["gamma_d"])
    if alpha is None or gamma is None:
        sys.exit("platform.py: %s holds no net and local lines (run pumma once, "
                 "or make tune)" % path)
    return alpha, beta, gamma


def machine(p):
    path = p["tune"] or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or
        os.path.join(os.environ.get("HOME", "/"), ".cache"), "pumma", "tune")
    alpha, beta, gamma = tune_values(path)
    cores = int(p["cores"])
    speed = float(p["speed"]) if p["speed"] else 2.0 / gamma  # 2 flops a madd
    xml = ('<platform version="4.1">\n'
           '  <!-- tune file %s: alpha %.3g s, beta %.3g s/B, gamma_d %.3g s -->\n'
           '  <cluster id="machine" prefix="host-" suffix="" radical="0-0"\n'
           '           speed="%.6gf" core="%d" bw="%.6gBps" lat="%.6gs"\n'
           '           loopback_bw="%.6gBps" loopback_lat="%.6gs"/>\n'
           '</platform>\n' % (path, alpha, beta, gamma, speed, cores,
                              1 / beta, alpha, 1 / beta, alpha))
    return xml, ["host-0"] * cores


def node_zone(zone_id, p, nodes, cores, speed, route):
    """A Full-routed zone of `nodes` hosts of `cores` cores: each node's
    ranks talk through its memory (one SHARED link: they share its
    bandwidth), and through its NIC (SPLITDUPLEX: sends and receives apart)
    to the others along route(a, b), the links between the NICs."""
    lines = ['<platform version="4.1">', '  <zone id="%s" routing="Full">' % zone_id]
    for i in range(nodes):
        lines.append('    <host id="node-%d" speed="%s" core="%d"/>' % (i, speed, cores))
    for i in range(nodes):
        lines.append('    <link id="mem-%d" bandwidth="%s" latency="%s"/>'
                     % (i, p["shm_bw"], p["shm_lat"]))
        lines.append('    <link id="nic-%d" bandwidth="%s" latency="%s" '
                     'sharing_policy="SPLITDUPLEX"/>' % (i, p["bw"], p["lat"]))
    return lines


def ctn(link, direction=None):
    return ('<link_ctn id="%s" direction="%s"/>' % (link, direction) if direction
            else '<link_ctn id="%s"/>' % link)


def routes(lines, nodes, between):
    for a in range(nodes):
        lines.append('    <route src="node-%d" dst="node-%d">%s</route>'
                     % (a, a, ctn("mem-%d" % a)))
        for b in range(nodes):
            if a != b:
                lines.append('    <route src="node-%d" dst="node-%d" symmetrical="NO">%s</route>'
                             % (a, b, "".join(between(a, b))))
    lines += ['  </zone>', '</platform>']
    return "\n".join(lines) + "\n"


def hpc(p):
    nodes, leaf, spines = int(p["nodes"]), int(p["per_leaf"]), int(p["spines"])
    if nodes % leaf and nodes > leaf:
        sys.exit("platform.py hpc: nodes (%d) must be a multiple of per_leaf (%d)"
                 % (nodes, leaf))
    cores = int(p["cores"])
    hosts = ["node-%d" % i for i in range(nodes) for _ in range(cores)]
    if p["shm"] == "fatpipe":
        xml = ('<platform version="4.1">\n'
               '  <cluster id="hpc" prefix="node-" suffix="" radical="0-%d"\n'
               '           speed="%s" core="%d" bw="%s" lat="%s"\n'
               '           topology="FAT_TREE" topo_parameters="2;%d,%d;1,%d;1,1"\n'
               '           loopback_bw="%s" loopback_lat="%s"/>\n'
               '</platform>\n' % (nodes - 1, p["speed"], cores, p["bw"], p["lat"],
                                  leaf, nodes // leaf, spines, p["shm_bw"],
                                  p["shm_lat"]))
        return xml, hosts
    # The same two-level fat tree, written out: per_leaf nodes to a leaf
    # switch, each leaf one link to each spine, a destination's spine
    # chosen as SimGrid's fat tree does (d-mod-k).
    lines = node_zone("hpc", p, nodes, cores, p["speed"], None)
    nleaf = (nodes + leaf - 1) // leaf
    for l in range(nleaf):
        for sp in range(spines):
            lines.append('    <link id="up-%d-%d" bandwidth="%s" latency="%s" '
                         'sharing_policy="SPLITDUPLEX"/>' % (l, sp, p["bw"], p["lat"]))

    def between(a, b):
        if a // leaf == b // leaf:
            return [ctn("nic-%d" % a, "UP"), ctn("nic-%d" % b, "DOWN")]
        sp = b % spines
        return [ctn("nic-%d" % a, "UP"), ctn("up-%d-%d" % (a // leaf, sp), "UP"),
                ctn("up-%d-%d" % (b // leaf, sp), "DOWN"), ctn("nic-%d" % b, "DOWN")]
    return routes(lines, nodes, between), hosts


def commodity(p):
    nodes, cores = int(p["nodes"]), int(p["cores"])
    hosts = ["node-%d" % i for i in range(nodes) for _ in range(cores)]
    if p["shm"] == "fatpipe":
        xml = ('<platform version="4.1">\n'
               '  <cluster id="commodity" prefix="node-" suffix="" radical="0-%d"\n'
               '           speed="%s" core="%d" bw="%s" lat="%s" bb_bw="%s" bb_lat="0us"\n'
               '           loopback_bw="%s" loopback_lat="%s"/>\n'
               '</platform>\n' % (nodes - 1, p["speed"], cores, p["bw"], p["lat"],
                                  p["bb"], p["shm_bw"], p["shm_lat"]))
        return xml, hosts
    # one switch: every route crosses its backplane
    lines = node_zone("commodity", p, nodes, cores, p["speed"], None)
    lines.append('    <link id="backplane" bandwidth="%s" latency="0us"/>' % p["bb"])
    return routes(lines, nodes, lambda a, b: [ctn("nic-%d" % a, "UP"), ctn("backplane"),
                                               ctn("nic-%d" % b, "DOWN")]), hosts


def hetero(p):
    nodes = int(p["nodes"])
    speeds = [float(s) for s in p["speeds"].split(",")]
    if p["counts"]:
        counts = [int(c) for c in p["counts"].split(",")]
        if len(counts) != len(speeds):
            sys.exit("platform.py hetero: counts takes one count a speed")
        speeds = [s for s, c in zip(speeds, counts) for _ in range(c)]
        nodes = len(speeds)
        p["nodes"] = str(nodes)
    lines = ['<platform version="4.1">',
             '  <zone id="hetero" routing="Floyd">',
             '    <router id="switch"/>']
    for i in range(nodes):
        lines.append('    <host id="node-%d" speed="%gGf"/>' % (i, speeds[i % len(speeds)]))
        lines.append('    <link id="link-%d" bandwidth="%s" latency="%s"/>'
                     % (i, p["bw"], p["lat"]))
    for i in range(nodes):
        lines.append('    <route src="node-%d" dst="switch"><link_ctn id="link-%d"/></route>'
                     % (i, i))
    lines += ['  </zone>', '</platform>']
    return "\n".join(lines) + "\n", ["node-%d" % i for i in range(nodes)]


def joined(zone_id, clusters, links, p):
    """A zone of clusters (id, size, speed, bw, lat) with a link between
    every two (links[(a, b)] = (bw, lat)), routed through their routers."""
    lines = ['<platform version="4.1">',
             '  <zone id="%s" routing="Full">' % zone_id]
    hosts = []
    for cid, size, speed, bw, lat in clusters:
        lines.append('    <cluster id="%s" prefix="%s-" suffix="" radical="0-%d"\n'
                     '             speed="%s" bw="%s" lat="%s" bb_bw="%s" bb_lat="0us"\n'
                     '             router_id="%s-router"/>'
                     % (cid, cid, size - 1, speed, bw, lat, p["bb"], cid))
        hosts += ["%s-%d" % (cid, i) for i in range(size)]
    for (a, b), (bw, lat) in sorted(links.items()):
        lines.append('    <link id="%s-%s" bandwidth="%s" latency="%s"/>' % (a, b, bw, lat))
    for (a, b) in sorted(links):
        lines.append('    <zoneRoute src="%s" dst="%s" gw_src="%s-router" gw_dst="%s-router">'
                     '<link_ctn id="%s-%s"/></zoneRoute>' % (a, b, a, b, a, b))
    lines += ['  </zone>', '</platform>']
    return "\n".join(lines) + "\n", hosts


def clusters3(p):
    sizes = [int(x) for x in p["sizes"].split(",")]
    speeds = p["speeds"].split(",")
    lats = p["inter_lat"].split(",")
    if len(sizes) != 3 or len(speeds) != 3 or len(lats) != 3:
        sys.exit("platform.py clusters3: sizes, speeds, inter_lat take 3 values each")
    names = ["c0", "c1", "c2"]
    cl = [(names[i], sizes[i], speeds[i], p["bw"], p["lat"]) for i in range(3)]
    links = {("c0", "c1"): (p["inter_bw"], lats[0]),
             ("c0", "c2"): (p["inter_bw"], lats[1]),
             ("c1", "c2"): (p["inter_bw"], lats[2])}
    return joined("clusters3", cl, links, p)


def sites(p):
    n, size = int(p["sites"]), int(p["nodes"])
    lats = [x for x in p["wan_lat"].split(",")]
    names = ["site%d" % i for i in range(n)]
    cl = [(names[i], size, p["speed"], p["bw"], p["lat"]) for i in range(n)]
    links, k = {}, 0
    for a in range(n):
        for b in range(a + 1, n):
            links[(names[a], names[b])] = (p["wan_bw"], lats[k % len(lats)])
            k += 1
    return joined("sites", cl, links, p)


KINDS = {
    "machine": (machine, {"tune": "", "cores": "2", "speed": ""}),
    "hpc": (hpc, {"nodes": "64", "per_leaf": "16", "spines": "4", "cores": "4",
                  "speed": "100Gf", "bw": "200Gbps", "lat": "1us",
                  "shm_bw": "400Gbps", "shm_lat": "0.2us", "shm": "shared"}),
    "commodity": (commodity, {"nodes": "64", "cores": "2", "speed": "50Gf",
                              "bw": "10Gbps", "lat": "25us", "bb": "160Gbps",
                              "shm_bw": "200Gbps", "shm_lat": "0.3us",
                              "shm": "shared"}),
    "hetero": (hetero, {"nodes": "16", "speeds": "50,50,25,10", "counts": "",
                        "bw": "10Gbps", "lat": "25us"}),
    "clusters3": (clusters3, {"sizes": "8,4,4", "speeds": "50Gf,25Gf,10Gf",
                              "bw": "10Gbps", "lat": "25us", "bb": "100Gbps",
                              "inter_bw": "100Mbps",
                              "inter_lat": "3ms,9ms,5ms"}),
    "sites": (sites, {"sites": "4", "nodes": "8", "speed": "50Gf",
                      "bw": "1Gbps", "lat": "50us", "bb": "10Gbps",
                      "wan_bw": "1Gbps", "wan_lat": "5ms,10ms,15ms,8ms,12ms,6ms"}),
}


def main(argv):
    if len(argv) < 3 or argv[1] not in KINDS:
        sys.exit("usage: platform.py KIND OUT [name=value ...]; KIND one of "
                 + ", ".join(KINDS))
    kind, out = argv[1], argv[2]
    fn, defaults = KINDS[kind]
    p = params(defaults, argv[3:])
    xml, hosts = fn(p)
    with open(out + ".xml", "w") as f:
        f.write(header(kind, p) + xml)
    with open(out + ".hosts", "w") as f:
        f.write("\n".join(hosts) + "\n")
    print("%s.xml: %s, %d rank slots" % (out, kind, len(hosts)))


if __name__ == "__main__":
    main(sys.argv)
