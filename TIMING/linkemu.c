/*
 * linkemu.c -- the wide-area links of an emulated multi-cluster platform
 * (netns.sh clusters): latency and bandwidth between clusters, added to
 * real IP packets, for every program alike (Open MPI's MPI_Bcast as much
 * as pumma's). This kernel has no netem; this is netem's job done in user
 * space.
 *
 *   linkemu TUN RATE LAT
 *     TUN   a tun device the router sends inter-cluster packets to
 *           (netns.sh routes them there); they come back out of it late.
 *     RATE  each cluster's uplink, bits per second (100e6: 100 Mbit/s).
 *     LAT   the one-way latencies between clusters, seconds, row by row:
 *           "L01,L02,L12" for three clusters (upper triangle, symmetric).
 *
 * Addresses are 10.78.C.x, C the cluster (1..), as netns.sh gives them.
 * A packet from cluster a to b waits for a's uplink (one queue per
 * cluster, serialised at RATE: the LogP gap of a cluster's sends), then
 * LAT(a, b): it is written back at
 *     start = max(arrival, uplink_free[a]);  uplink_free[a] = start + bytes / RATE;
 *     due   = uplink_free[a] + LAT(a, b).
 * An uplink more than a second behind drops the packet, as a router's
 * full queue would (TCP backs off). Runs until killed (SIGTERM).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

enum { MAXC = 16, MTU = 65536, MAXQ = 1 << 16 };

typedef struct pkt { double due; unsigned long seq; int len; char *data; } pkt_t;

static pkt_t heap[MAXQ];
static int nheap;
static volatile sig_atomic_t stop;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int before(const pkt_t *a, const pkt_t *b)
{
    return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}

static void push(pkt_t p)
{
    int i = nheap++;
    heap[i] = p;
    while (i > 0 && before(&heap[i], &heap[(i - 1) / 2])) {
        pkt_t t = heap[i];
        heap[i] = heap[(i - 1) / 2];
        heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static pkt_t pop(void)
{
    pkt_t top = heap[0];
    heap[0] = heap[--nheap];
    for (int i = 0;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < nheap && before(&heap[l], &heap[m])) m = l;
        if (r < nheap && before(&heap[r], &heap[m])) m = r;
        if (m == i) break;
        pkt_t t = heap[i];
        heap[i] = heap[m];
        heap[m] = t;
        i = m;
    }
    return top;
}

static void on_term(int sig) { (void)sig; stop = 1; }

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: linkemu TUN RATE LAT01,LAT02,...\n");
        return 2;
    }
    const double rate = atof(argv[2]) / 8;        /* bytes per second */
    double lat[MAXC][MAXC] = {{0}};
    int nc = 0;
    {
        double v[MAXC * MAXC];
        int nv = 0;
        for (char *s = argv[3], *e; *s && nv < MAXC * MAXC; s = *e ? e + 1 : e) {
            v[nv++] = strtod(s, &e);
            if (e == s) { fprintf(stderr, "linkemu: bad LAT\n"); return 2; }
        }
        while (nc * (nc - 1) / 2 < nv) nc++;
        if (nc * (nc - 1) / 2 != nv || nc > MAXC || rate <= 0) {
            fprintf(stderr, "linkemu: LAT needs nc*(nc-1)/2 values, RATE > 0\n");
            return 2;
        }
        for (int a = 0, k = 0; a < nc; a++)
            for (int b = a + 1; b < nc; b++, k++) lat[a][b] = lat[b][a] = v[k];
    }
    int fd = open("/dev/net/tun", O_RDWR);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    snprintf(ifr.ifr_name, IFNAMSIZ, "%s", argv[1]);
    if (fd < 0 || ioctl(fd, TUNSETIFF, &ifr) < 0) {
        perror("linkemu: tun");
        return 1;
    }
    signal(SIGTERM, on_term);
    signal(SIGINT, on_term);
    double uplink[MAXC] = {0};
    unsigned long seq = 0, dropped = 0, passed = 0;
    static char buf[MTU];
    while (!stop) {
        /* write back what is due */
        double t = now();
        while (nheap && heap[0].due <= t) {
            pkt_t p = pop();
            if (write(fd, p.data, (size_t)p.len) < 0 && errno != EINVAL)
                dropped++;
            else
                passed++;
            free(p.data);
        }
        struct timespec wait = {1, 0}, *w = &wait;
        if (nheap) {
            double d = heap[0].due - now();
            if (d < 0) d = 0;
            wait.tv_sec = (time_t)d;
            wait.tv_nsec = (long)((d - (double)wait.tv_sec) * 1e9);
        }
        struct pollfd pf = {fd, POLLIN, 0};
        int r = ppoll(&pf, 1, w, NULL);
        if (r <= 0 || !(pf.revents & POLLIN)) continue;
        int n = (int)read(fd, buf, sizeof buf);
        if (n < 20 || (buf[0] >> 4) != 4) continue;     /* IPv4 only */
        const unsigned char *ip = (const unsigned char *)buf;
        int a = ip[14] - 1, b = ip[18] - 1;             /* 10.78.C.x */
        if (ip[12] != 10 || ip[13] != 78 || ip[16] != 10 || ip[17] != 78 ||
            a < 0 || a >= nc || b < 0 || b >= nc) {
            dropped++;
            continue;
        }
        t = now();
        double start = uplink[a] > t ? uplink[a] : t;
        if (start - t > 1.0 || nheap == MAXQ) {       /* a full queue */
            dropped++;
            continue;
        }
        uplink[a] = start + n / rate;
        pkt_t p = {uplink[a] + lat[a][b], seq++, n, malloc((size_t)n)};
        if (!p.data) { dropped++; continue; }
        memcpy(p.data, buf, (size_t)n);
        push(p);
    }
    fprintf(stderr, "linkemu: %lu packets passed, %lu dropped\n", passed,
            dropped);
    return 0;
}
