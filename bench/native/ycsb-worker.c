/*
 * ycsb-worker.c - the load generator's native worker: the closed-loop run phase of YCSB a, b, c, d, f against a
 * Redis Cluster for one load generator thread, as src/loadgen/ops-runner.ts does it (same commands, key sequence,
 * values, socket policy, redirects, counting). Built at install time by scripts/build-native.mjs (npm run
 * build:native) and driven by src/loadgen/native-worker.ts; docs/architecture.md says why it exists.
 *
 * The TypeScript implementation is the source of truth for what is sent: ycsb-spec.h (constants, workload mixes)
 * is generated from it, and the dump modes below must reproduce the golden vectors it generates
 * (spec/ycsb-vectors.json; src/spec/ycsb-spec.ts, checked by src/loadgen/native-worker.test.ts).
 *
 *   ycsb-worker -w a|b|c|d|f -r records -c clients -p pipeline -S seed -i workerIndex -n workerCount -s host:port [-s ...] [-K keyPrefix]
 *   ycsb-worker -w c -r records -S seed -i 0 -n 1 -D count   prints the op sequence (kind keynum field key slot)
 *   ycsb-worker -w c -r records -S seed -i 0 -n 1 -C count   writes the ops' commands (RESP bytes) to stdout
 *   ycsb-worker -k                                           keynums on stdin -> `keynum key slot` lines
 *   ycsb-worker -H                                           latencies in ns on stdin -> histogram pairs (tests)
 *
 * Auth: STRATA_AUTH_USER / STRATA_AUTH_PASS (environment: argv is visible to every user). stdin: `run <startAtMs>
 * <warmupSec> <durationSec|-1> <operationCount|-1>`, `stop`; EOF ends the process. stdout: JSON lines {type: ready|
 * interval|done|error}; histograms are HdrHistogram's buckets (1 us..60 s, 3 digits) as [lowestEquivalentValue, count, ...].
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "ycsb-spec.h"

#define SLOTS 16384
#define MAXP 64
#define FIELDS YCSB_FIELD_COUNT
#define FIELD_LEN YCSB_FIELD_LENGTH
#define POOL_SIZE YCSB_VALUE_POOL_SIZE
#define MAX_REDIRECTS 5

/* ---------------- random numbers, hashes, generators (random.ts, fnv.ts, generators.ts) ---------------- */

typedef struct { uint32_t a, b, c, d; } rng_t;
static uint32_t rotl32(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }
static void rng_init(rng_t *r, uint32_t s) { /* splitmix32 over the seed */
  uint32_t v[4];
  for (int i = 0; i < 4; i++) {
    uint32_t z = s += 0x9e3779b9u;
    z = (z ^ (z >> 16)) * 0x85ebca6bu, z = (z ^ (z >> 13)) * 0xc2b2ae35u, v[i] = z ^ (z >> 16);
  }
  r->a = v[0]; r->b = v[1]; r->c = v[2]; r->d = v[3] ? v[3] : 1;
}
static uint32_t rng_u32(rng_t *r) { /* xoshiro128** */
  uint32_t result = rotl32(r->b * 5, 7) * 9, t = r->b << 9;
  r->c ^= r->a; r->d ^= r->b; r->b ^= r->c; r->a ^= r->d; r->c ^= t; r->d = rotl32(r->d, 11);
  return result;
}
static double rng_double(rng_t *r) {
  uint32_t hi = rng_u32(r) >> 5, lo = rng_u32(r) >> 6;
  return ((double)hi * 67108864.0 + (double)lo) / 9007199254740992.0;
}
static int64_t rng_int(rng_t *r, int64_t n) { return (int64_t)floor(rng_double(r) * (double)n); }

/* YCSB Utils.fnvhash64 over the 8 bytes of a long, then Math.abs (Long.MIN_VALUE stays negative) */
static int64_t fnvhash64(int64_t val) {
  uint64_t h = YCSB_FNV_OFFSET_BASIS, v = (uint64_t)val;
  for (int i = 0; i < 8; i++) { h ^= v & 0xff; v >>= 8; h *= YCSB_FNV_PRIME; }
  int64_t s = (int64_t)h;
  return s < 0 && s != INT64_MIN ? -s : s;
}

static double zeta(int64_t st, int64_t n, double theta, double sum) {
  for (int64_t i = st; i < n; i++) sum += 1.0 / pow((double)(i + 1), theta);
  return sum;
}
typedef struct { double theta, zeta2, alpha, zetan, eta; int64_t count; } zipf_t;
static void zipf_eta(zipf_t *z) { z->eta = (1 - pow(2.0 / (double)z->count, 1 - z->theta)) / (1 - z->zeta2 / z->zetan); }
static void zipf_init(zipf_t *z, int64_t items, double zetan) { /* zetan < 0: computed */
  z->theta = YCSB_ZIPFIAN_CONSTANT, z->zeta2 = zeta(0, 2, z->theta, 0), z->alpha = 1 / (1 - z->theta), z->count = items;
  z->zetan = zetan >= 0 ? zetan : zeta(0, items, z->theta, 0);
  zipf_eta(z);
}
static int64_t zipf_next(zipf_t *z, rng_t *r, int64_t itemcount) {
  if (itemcount != z->count) { /* YCSB's incremental zeta */
    z->zetan = itemcount > z->count ? zeta(z->count, itemcount, z->theta, z->zetan) : zeta(0, itemcount, z->theta, 0);
    z->count = itemcount, zipf_eta(z);
  }
  double u = rng_double(r), uz = u * z->zetan;
  if (uz < 1) return 0;
  if (uz < 1 + pow(0.5, z->theta)) return 1;
  return (int64_t)floor((double)itemcount * pow(z->eta * u - z->eta + 1, z->alpha));
}

enum { K_READ, K_UPDATE, K_INSERT, K_RMW, NKINDS };
static const char *KIND_NAMES[NKINDS] = {"read", "update", "insert", "rmw"};

/* YcsbOpSource (workloads.ts) */
/* Workload D's latest runs over a virtual index: loaded records, then this worker's own inserts up to the
   first one not yet acknowledged (never another worker's interleaved keys, which may not exist yet). */
#define AHEAD 65536 /* own inserts acknowledged ahead of an earlier one in flight: at most ops in flight */
typedef struct { rng_t rng; zipf_t zipf; double read, update, insert; int latest; int64_t records, first_insert, next_insert, stride, acked; uint8_t ahead[AHEAD]; } source_t;
static int source_init(source_t *s, char workload, int64_t records, uint32_t seed, int64_t index, int64_t stride) {
  const struct ycsb_mix *m = NULL;
  for (int i = 0; i < YCSB_MIX_COUNT; i++) if (YCSB_MIXES[i].letter == workload) m = &YCSB_MIXES[i];
  if (!m) return -1;
  memset(s, 0, sizeof *s);
  rng_init(&s->rng, seed);
  s->read = m->read, s->update = m->update, s->insert = m->insert, s->latest = m->latest; /* the rest: read-modify-write */
  s->records = records, s->first_insert = s->next_insert = records + index, s->stride = stride, s->acked = 0;
  if (s->latest) zipf_init(&s->zipf, records - 1 > 1 ? records - 1 : 1, -1);
  else zipf_init(&s->zipf, YCSB_SCRAMBLED_ITEM_COUNT + 1, YCSB_SCRAMBLED_ZETAN); /* ScrambledZipfian: ITEM_COUNT + 1, precomputed zeta */
  return 0;
}
/* A worker's Rng seed (workloads.ts workerSeed), modulo 2^32 as the Rng takes it. */
static uint32_t worker_seed(uint32_t run_seed, int64_t index) { return (uint32_t)(int64_t)((double)run_seed * YCSB_WORKER_SEED_MULTIPLIER + (double)index); }
static void source_next(source_t *s, int *kind, int64_t *keynum, int *field) {
  double u = rng_double(&s->rng);
  *kind = u < s->read ? K_READ : u < s->read + s->update ? K_UPDATE : u < s->read + s->update + s->insert ? K_INSERT : K_RMW;
  if (*kind == K_INSERT) *keynum = s->next_insert, s->next_insert += s->stride;
  else if (s->latest) {
    int64_t max = s->records + s->acked - 1, v = max - zipf_next(&s->zipf, &s->rng, max > 1 ? max : 1);
    *keynum = v < s->records ? v : s->first_insert + (v - s->records) * s->stride;
  }
  else *keynum = fnvhash64(zipf_next(&s->zipf, &s->rng, s->zipf.count)) % s->records;
  *field = (int)rng_int(&s->rng, FIELDS);
}

static void source_acknowledge(source_t *s, int64_t keynum) {
  int64_t d = keynum - s->first_insert, n = d / s->stride;
  if (d < 0 || d % s->stride || n < s->acked) return;
  if (n > s->acked) { if (n - s->acked < AHEAD) s->ahead[n % AHEAD] = 1; return; }
  s->acked++;
  while (s->ahead[s->acked % AHEAD]) s->ahead[s->acked % AHEAD] = 0, s->acked++;
}

/* ValuePool (record.ts): 4096 printable 100-byte values, value(i) picked by a hash of i */
static char pool[POOL_SIZE][FIELD_LEN];
static void pool_init(uint32_t seed) {
  rng_t r;
  rng_init(&r, seed ^ YCSB_VALUE_POOL_SEED_XOR);
  for (int i = 0; i < POOL_SIZE; i++)
    for (int j = 0; j < FIELD_LEN; j++) pool[i][j] = (char)(32 + rng_u32(&r) % 95);
}
static const char *pool_value(int64_t index) {
  uint32_t i = (uint32_t)index;
  return pool[((i ^ (i >> 16)) * YCSB_VALUE_POOL_HASH) % POOL_SIZE];
}

/* CRC16 key slot (key-slot.ts) */
static uint16_t crc_tab[256];
static void crc_init(void) {
  for (int i = 0; i < 256; i++) {
    uint16_t c = (uint16_t)(i << 8);
    for (int j = 0; j < 8; j++) c = (c & 0x8000) ? (uint16_t)((c << 1) ^ 0x1021) : (uint16_t)(c << 1);
    crc_tab[i] = c;
  }
}
static int key_slot(const char *k, int n) {
  const char *o = memchr(k, '{', (size_t)n);
  const char *c = o ? memchr(o + 1, '}', (size_t)(n - (o + 1 - k))) : NULL;
  if (c && c > o + 1) k = o + 1, n = (int)(c - o - 1);
  uint16_t crc = 0;
  for (int i = 0; i < n; i++) crc = (uint16_t)((crc << 8) ^ crc_tab[((crc >> 8) ^ (uint8_t)k[i]) & 0xff]);
  return crc & (SLOTS - 1);
}

/* ---------------- HdrHistogram's bucketing: lowest 1, highest 60e6, 3 significant digits ---------------- */
/* subBucketCount 2048 (2 * 10^3 rounded up to a power of two), unit magnitude 0, 16 buckets */
#if YCSB_HISTOGRAM_LOWEST_US != 1 || YCSB_HISTOGRAM_SIGNIFICANT_DIGITS != 3 || YCSB_HISTOGRAM_HIGHEST_US > (1ull << 26)
#error "hdr_index below is laid out for 1 us .. at most 2^26 us at 3 significant digits (histogram.ts changed)"
#endif
enum { SUB_HALF_MAG = 10, SUB_HALF = 1024, HBUCKETS = 16, HCOUNTS = (HBUCKETS + 1) * SUB_HALF };
#define HIGHEST_US YCSB_HISTOGRAM_HIGHEST_US
typedef struct { uint64_t c[HCOUNTS]; } hist_t;
static int hdr_index(uint64_t v) {
  int bucket = 53 - __builtin_clzll(v | 2047), sub = (int)(v >> bucket); /* 53 = 64 - unitMagnitude - subBucketHalfCountMagnitude - 1 */
  return ((bucket + 1) << SUB_HALF_MAG) + (sub - SUB_HALF);
}
static uint64_t hdr_value(int index) { /* lowest value equivalent to the bucket */
  int bucket = (index >> SUB_HALF_MAG) - 1, sub = (index & (SUB_HALF - 1)) + SUB_HALF;
  if (bucket < 0) { sub -= SUB_HALF; bucket = 0; }
  return (uint64_t)sub << bucket;
}
/* histogram.ts recordUs: Math.round of the microseconds, clamped into 1..60e6 */
static uint64_t ns_to_us(uint64_t ns) {
  uint64_t us = (ns + 500) / 1000;
  return us < 1 ? 1 : us > HIGHEST_US ? HIGHEST_US : us;
}
static void hist_print(FILE *f, const hist_t *h) {
  int first = 1;
  fputc('[', f);
  for (int i = 0; i < HCOUNTS; i++)
    if (h->c[i]) { fprintf(f, "%s%llu,%llu", first ? "" : ",", (unsigned long long)hdr_value(i), (unsigned long long)h->c[i]); first = 0; }
  fputc(']', f);
}

/* ---------------- output ---------------- */
static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
    else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
    else fputc(ch, f);
  }
  fputc('"', f);
}
static void fail(const char *fmt, const char *arg) {
  char m[512];
  snprintf(m, sizeof m, fmt, arg);
  printf("{\"type\":\"error\",\"message\":"), json_str(stdout, m), printf("}\n"), fflush(stdout);
  exit(1);
}
static uint64_t mono_ns(void) {
  struct timespec t;
  return clock_gettime(CLOCK_MONOTONIC, &t), (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}
static double epoch_ms(void) {
  struct timespec t;
  return clock_gettime(CLOCK_REALTIME, &t), (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}
static double cpu_sec(void) {
  struct rusage r;
  return getrusage(RUSAGE_SELF, &r), (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

/* ---------------- RESP ---------------- */
/* End of the reply at p, or NULL when incomplete; *type and *integer (integer, bulk or array length, -1 nil) of the top level. */
static const char *skip_reply(const char *p, const char *end, char *type, long long *integer) {
  if (p >= end) return NULL;
  const char *nl = memchr(p, '\n', (size_t)(end - p));
  if (!nl) return NULL;
  char t = *p;
  long long n = (t == '$' || t == '*' || t == ':') ? strtoll(p + 1, NULL, 10) : 0;
  if (type) { *type = t; *integer = n; }
  if (t == '$') return n < 0 ? nl + 1 : (end - (nl + 1) < n + 2 ? NULL : nl + 1 + n + 2);
  if (t == '*') {
    const char *q = nl + 1;
    for (long long i = 0; i < n; i++)
      if (!(q = skip_reply(q, end, NULL, NULL))) return NULL;
    return q;
  }
  return nl + 1; /* + - : */
}

/* ---------------- configuration ---------------- */
static char workload = 'c', seeds[MAXP][128];
static int64_t records = 1000, worker_index = 0, worker_count = 1;
static int clients = 1, pipeline_depth = 1, nseeds;
static uint32_t seed = 0;
static const char *auth_user, *auth_pass;
/* -K: the run's own key space (a benchmark on a customer's cluster never touches other keys); empty for the reference runs */
static char key_prefix[48];

/* ---------------- connections ---------------- */
typedef struct op {
  int kind, field, stage, redirects, slot, klen;
  int64_t keynum;
  uint64_t sent_at;
  char key[96];
  struct op *next; /* waiting queue / free list */
} op_t;
typedef struct conn {
  int fd, prim, closed, dirty, want_out;
  char *out; size_t olen, osent, ocap;
  char *in; size_t ilen, icap;
  op_t **q; int qhead, qlen, qcap; /* replies expected, in order; NULL = ASKING's */
  int inflight;                    /* ops among them */
  struct conn *next_dirty;
} conn_t;
typedef struct {
  char endpoint[128];
  conn_t **conns; int nconn, cursor;
  op_t *wait_head, *wait_tail;
  uint64_t commands; /* written to this primary (ASKING included), all its connections */
} prim_t;
static prim_t prims[MAXP];
static int nprim, ep, waiting;
static int16_t owner[SLOTS];
static conn_t *dirty_list;

static int tcp_connect(const char *endpoint, char *err, size_t errlen) {
  char host[128], *colon = (snprintf(host, sizeof host, "%s", endpoint), strrchr(host, ':'));
  if (!colon) { snprintf(err, errlen, "bad endpoint %s", endpoint); return -1; }
  *colon = 0;
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res;
  if (getaddrinfo(host, colon + 1, &hints, &res) != 0) { snprintf(err, errlen, "cannot resolve %s", endpoint); return -1; }
  int fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct timeval tv = {.tv_sec = 2}; /* connect and the blocking setup calls: an unreachable host must not hang the run */
  if (fd >= 0) { setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv); setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv); }
  if (fd < 0 || connect(fd, res->ai_addr, res->ai_addrlen) < 0) {
    snprintf(err, errlen, "connect %s: %s", endpoint, strerror(errno)), freeaddrinfo(res);
    if (fd >= 0) close(fd);
    return -1;
  }
  int one = 1;
  freeaddrinfo(res), setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

/* One command, one reply, blocking (setup only). The reply is malloc'd. */
static char *call(int fd, const char *cmd, size_t len, size_t *rlen) {
  if (write(fd, cmd, len) != (ssize_t)len) return NULL;
  size_t cap = 65536, n = 0;
  char *b = malloc(cap), t;
  long long i;
  for (;;) {
    if (n && skip_reply(b, b + n, &t, &i)) return *rlen = n, b;
    if (n == cap) b = realloc(b, cap *= 2);
    ssize_t k = read(fd, b + n, cap - n);
    if (k <= 0) return free(b), NULL;
    n += (size_t)k;
  }
}

/* A blocking, authenticated connection; -1 with err set on failure. */
static int open_conn(const char *endpoint, char *err, size_t errlen) {
  int fd = tcp_connect(endpoint, err, errlen);
  if (fd < 0 || !auth_user) return fd;
  char cmd[1024];
  int n = snprintf(cmd, sizeof cmd, "*3\r\n$4\r\nAUTH\r\n$%zu\r\n%s\r\n$%zu\r\n%s\r\n", strlen(auth_user), auth_user, strlen(auth_pass), auth_pass);
  size_t rl;
  char *r = call(fd, cmd, (size_t)n, &rl);
  if (!r || r[0] != '+') {
    snprintf(err, errlen, "AUTH at %s failed: %.*s", endpoint, r ? (int)strcspn(r, "\r\n") : 6, r ? r : "closed");
    free(r), close(fd);
    return -1;
  }
  return free(r), fd;
}

static int prim_index(const char *endpoint) {
  for (int i = 0; i < nprim; i++) if (!strcmp(prims[i].endpoint, endpoint)) return i;
  if (nprim == MAXP) fail("more than %s primaries", "64");
  snprintf(prims[nprim].endpoint, sizeof prims[nprim].endpoint, "%s", endpoint);
  return nprim++;
}

static int64_t rd_int(const char **p) {
  int64_t v = strtoll(*p + 1, NULL, 10);
  *p = strchr(*p, '\n') + 1;
  return v;
}

/* CLUSTER SLOTS from the known primaries, then the seeds; 0 on success. */
static int refresh_slots(char *err, size_t errlen) {
  static const char cmd[] = "*2\r\n$7\r\nCLUSTER\r\n$5\r\nSLOTS\r\n";
  char tried[MAXP * 2][128 + 8];
  int ntried = 0;
  for (int i = 0; i < nprim && ntried < MAXP; i++) snprintf(tried[ntried++], sizeof tried[0], "%.127s", prims[i].endpoint);
  for (int i = 0; i < nseeds; i++) snprintf(tried[ntried++], sizeof tried[0], "%.127s", seeds[i]);
  for (int t = 0; t < ntried; t++) {
    int fd = open_conn(tried[t], err, errlen);
    if (fd < 0) continue;
    size_t len = 0;
    char *b = call(fd, cmd, sizeof cmd - 1, &len);
    close(fd);
    if (!b || b[0] != '*') { snprintf(err, errlen, "CLUSTER SLOTS at %.127s: %.*s", tried[t], b ? (int)strcspn(b, "\r\n") : 6, b ? b : "closed"); free(b); continue; }
    const char *p = b;
    int64_t n = rd_int(&p);
    for (int64_t i = 0; i < n; i++) { /* [start, end, [host, port, id...], replicas...] */
      int64_t m = rd_int(&p), start = rd_int(&p), end = rd_int(&p);
      const char *q = p, *host;
      char endpoint[128];
      rd_int(&q); /* the primary's entry: $len host, port */
      int64_t hl = rd_int(&q);
      host = q, q += hl + 2;
      snprintf(endpoint, sizeof endpoint, "%.*s:%lld", (int)(hl < 100 ? hl : 100), host, (long long)rd_int(&q));
      int idx = prim_index(endpoint);
      for (int64_t s = start; s <= end && s < SLOTS; s++) owner[s] = (int16_t)idx;
      for (int64_t j = 2; j < m; j++) p = skip_reply(p, b + len, NULL, NULL);
    }
    return free(b), 0;
  }
  return -1;
}

/* How many primaries own a slot; `used[i]` set for each. */
static int nprim_owning(char used[MAXP]) {
  int n = 0;
  memset(used, 0, MAXP);
  for (int s = 0; s < SLOTS; s++) if (owner[s] >= 0 && !used[owner[s]]) used[owner[s]] = 1, n++;
  return n ? n : 1;
}

static int has_pool(int idx) { /* an open socket to the primary */
  for (int i = 0; idx >= 0 && i < prims[idx].nconn; i++) if (!prims[idx].conns[i]->closed) return 1;
  return 0;
}

/* Sockets to a primary, as ops-runner's connectAll: at pipeline 1 every client has one to every primary
   (as a Jedis cluster client); pipelined, the clients' sockets are split over the primaries. */
static int open_pool(int idx, char *err, size_t errlen) {
  prim_t *pr = &prims[idx];
  char used[MAXP];
  int want = pipeline_depth == 1 ? clients : (int)fmax(1, floor((double)clients / nprim_owning(used) + 0.5));
  pr->conns = realloc(pr->conns, sizeof(conn_t *) * (size_t)(pr->nconn + want));
  for (int i = 0; i < want; i++) {
    int fd = open_conn(pr->endpoint, err, errlen);
    if (fd < 0) return -1;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
    conn_t *c = calloc(1, sizeof *c);
    c->fd = fd, c->prim = idx, c->ocap = c->icap = 65536, c->out = malloc(c->ocap), c->in = malloc(c->icap);
    c->qcap = 2 * pipeline_depth + 8, c->q = calloc((size_t)c->qcap, sizeof(op_t *));
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev), pr->conns[pr->nconn++] = c;
  }
  return 0;
}

/* ---------------- the run ---------------- */
enum { IDLE, WARMUP, STEADY, DRAINING };
typedef struct { uint64_t count, errors, misses, icount, ierrors, imisses; hist_t total, interval; } stats_t;
static stats_t stats[NKINDS];
static source_t src;
static int phase = IDLE;
static int64_t inflight, budget, redirects;
static double start_at_ms, warmup_sec, steady_start_ms, steady_end_ms, cpu0, cpu1, wall0_ms, wall1_ms;
static uint64_t next_tick_ns, drain_deadline_ns, last_refresh_ns, cmds0[MAXP], cmds1[MAXP]; /* commands per primary at the steady window's ends */
static char first_error[512];
static op_t *free_ops;
typedef struct { op_t *op; uint64_t at; } parked_t;
static parked_t *parked; /* ops whose primary is unreachable, failed at `at` */
static int nparked, parked_cap;

static void issue(op_t *o, uint64_t now), dispatch(op_t *o, uint64_t now), finish(void);

static void release(op_t *o) { o->next = free_ops; free_ops = o; }
static op_t *qpop(conn_t *c) { /* the op the next reply answers (NULL: ASKING's) */
  op_t *o = c->q[c->qhead];
  c->qhead = (c->qhead + 1) % c->qcap, c->qlen--;
  return c->inflight -= o != NULL, o;
}
static op_t *pop_waiting(prim_t *pr) {
  op_t *o = pr->wait_head;
  if (!(pr->wait_head = o->next)) pr->wait_tail = NULL;
  waiting--;
  return o;
}
static void put(conn_t *c, const void *p, size_t n) {
  if (c->olen + n > c->ocap) { while (c->olen + n > c->ocap) c->ocap *= 2; c->out = realloc(c->out, c->ocap); }
  memcpy(c->out + c->olen, p, n), c->olen += n;
}
static void put_bulk(conn_t *c, const char *s, size_t n) {
  char h[24];
  put(c, h, (size_t)snprintf(h, sizeof h, "$%zu\r\n", n)); put(c, s, n); put(c, "\r\n", 2);
}
static void put_field(conn_t *c, int field, int64_t value_index) {
  char f[8];
  put_bulk(c, f, (size_t)snprintf(f, sizeof f, "field%d", field));
  put_bulk(c, pool_value(value_index), FIELD_LEN);
}
static void enqueue(conn_t *c, op_t *o) {
  if (c->qlen == c->qcap) {
    op_t **q = calloc((size_t)c->qcap * 2, sizeof *q);
    for (int i = 0; i < c->qlen; i++) q[i] = c->q[(c->qhead + i) % c->qcap];
    free(c->q), c->q = q, c->qhead = 0, c->qcap *= 2;
  }
  c->q[(c->qhead + c->qlen++) % c->qcap] = o;
  c->inflight += o != NULL, prims[c->prim].commands++;
  if (!c->dirty) { c->dirty = 1; c->next_dirty = dirty_list; dirty_list = c; }
}

/* Writes the op's command at its stage: HGETALL (read, rmw's read), HSET one field (update, rmw's write), HSET all (insert). */
static void send_op(conn_t *c, op_t *o, int asking) {
  if (asking) { put(c, "*1\r\n$6\r\nASKING\r\n", 16); enqueue(c, NULL); }
  int read = o->kind == K_READ || (o->kind == K_RMW && o->stage == 0), insert = o->kind == K_INSERT;
  if (read) put(c, "*2\r\n$7\r\nHGETALL\r\n", 17);
  else put(c, insert ? "*22\r\n$4\r\nHSET\r\n" : "*4\r\n$4\r\nHSET\r\n", insert ? 15 : 14);
  put_bulk(c, o->key, (size_t)o->klen);
  if (insert)
    for (int f = 0; f < FIELDS; f++) put_field(c, f, o->keynum * FIELDS + f + YCSB_INSERT_VALUE_OFFSET);
  else if (!read) put_field(c, o->field, o->keynum * FIELDS + o->field + (o->kind == K_RMW ? YCSB_RMW_VALUE_OFFSET : YCSB_UPDATE_VALUE_OFFSET));
  enqueue(c, o);
}

/* ops-runner's conn(): a socket with room that is idle or still collecting this turn's batch, round-robin from the last pick. */
static conn_t *pick(int idx) {
  prim_t *pr = &prims[idx];
  for (int k = 0; k < pr->nconn; k++) {
    int i = (pr->cursor + k) % pr->nconn;
    conn_t *c = pr->conns[i];
    if (!c->closed && c->inflight < pipeline_depth && (c->inflight == 0 || c->olen > c->osent)) { pr->cursor = i; return c; }
  }
  return NULL;
}
static void drain_waiting(void) {
  if (!waiting) return;
  for (int idx = 0; idx < nprim; idx++) {
    prim_t *pr = &prims[idx];
    conn_t *c;
    while (pr->wait_head && (c = pick(idx))) {
      op_t *o = pop_waiting(pr);
      if (o->stage == 0 && o->redirects == 0) o->sent_at = mono_ns();
      send_op(c, o, 0);
    }
  }
}
static void set_error(const char *m) { if (!first_error[0]) snprintf(first_error, sizeof first_error, "%s", m); }

static void record(op_t *o, uint64_t now, int error, int miss) {
  stats_t *s = &stats[o->kind];
  int i = hdr_index(ns_to_us(now - o->sent_at));
  s->interval.c[i]++;
  s->icount++; s->ierrors += error; s->imisses += miss;
  if (phase == STEADY) { s->total.c[i]++; s->count++; s->errors += error; s->misses += miss; budget--; }
}
static void complete(op_t *o, uint64_t now, int error, int miss, const char *message) {
  inflight--;
  drain_waiting();
  if (error) set_error(message);
  if (phase == IDLE) return release(o);
  record(o, now, error, miss);
  if (o->kind == K_INSERT && !error) source_acknowledge(&src, o->keynum);
  if (phase == DRAINING) return release(o);
  issue(o, now);
}

/* Slot owner unknown or not connected: refresh the map (at most every 100 ms), connect, retry; else fail the op after 100 ms. */
static void reroute(op_t *o, uint64_t now) {
  char err[256] = "";
  if (now - last_refresh_ns > 100000000ull) {
    last_refresh_ns = now;
    char used[MAXP];
    if (refresh_slots(err, sizeof err) == 0 && nprim_owning(used))
      for (int i = 0; i < nprim; i++) /* connect the owners new to this worker (not old, maybe dead, primaries) */
        if (used[i] && !has_pool(i) && open_pool(i, err, sizeof err) < 0) set_error(err);
  }
  if (has_pool(owner[o->slot])) { dispatch(o, now); return; }
  if (nparked == parked_cap) parked = realloc(parked, sizeof *parked * (size_t)(parked_cap = parked_cap ? parked_cap * 2 : 64));
  parked[nparked++] = (parked_t){o, now + 100000000ull};
}
static void dispatch(op_t *o, uint64_t now) {
  int idx = owner[o->slot];
  if (!has_pool(idx)) { reroute(o, now); return; }
  conn_t *c = pick(idx);
  if (!c) { /* every socket of the primary is full: wait for room, oldest first */
    prim_t *pr = &prims[idx];
    o->next = NULL, *(pr->wait_tail ? &pr->wait_tail->next : &pr->wait_head) = o, pr->wait_tail = o, waiting++;
    return;
  }
  if (o->stage == 0 && o->redirects == 0) o->sent_at = now; /* the op's latency: from its first send to its last reply */
  send_op(c, o, 0);
}
static void issue(op_t *o, uint64_t now) {
  if (budget <= 0) { /* operationCount reached: the run ends when the last op is in */
    release(o);
    if (inflight == 0) finish();
    return;
  }
  source_next(&src, &o->kind, &o->keynum, &o->field);
  o->klen = snprintf(o->key, sizeof o->key, "%suser%lld", key_prefix, (long long)fnvhash64(o->keynum));
  o->slot = key_slot(o->key, o->klen);
  o->stage = o->redirects = 0;
  inflight++;
  dispatch(o, now);
}
static void on_reply(op_t *o, char type, long long integer, const char *msg, size_t mlen, uint64_t now) {
  if (!o) return; /* ASKING's +OK */
  if (type == '-') {
    char m[256], kind[8], endpoint[128];
    int slot;
    snprintf(m, sizeof m, "%.*s", (int)mlen, msg);
    if (sscanf(m, "%7s %d %127s", kind, &slot, endpoint) == 3 && (!strcmp(kind, "MOVED") || !strcmp(kind, "ASK")) && o->redirects < MAX_REDIRECTS) {
      drain_waiting();
      o->redirects++, redirects++;
      int idx = prim_index(endpoint);
      char err[256];
      if (!has_pool(idx) && open_pool(idx, err, sizeof err) < 0) set_error(err);
      if (kind[0] == 'M') {
        if (slot >= 0 && slot < SLOTS) owner[slot] = (int16_t)idx;
        dispatch(o, now);
      } else if (has_pool(idx)) {
        conn_t *t = NULL;
        for (int i = 0; i < prims[idx].nconn && !t; i++) if (!prims[idx].conns[i]->closed) t = prims[idx].conns[i];
        send_op(t, o, 1);
      } else reroute(o, now);
      return;
    }
    return complete(o, now, 1, 0, m);
  }
  int miss = (o->kind == K_READ || o->kind == K_RMW) && o->stage == 0 && integer <= 0;
  if (o->kind == K_RMW && o->stage == 0) { /* read done: write one field, as YCSB's readModifyWrite */
    o->stage = 1, o->redirects = 0, stats[K_RMW].imisses += miss;
    if (phase == STEADY) stats[K_RMW].misses += miss;
    return drain_waiting(), dispatch(o, now);
  }
  complete(o, now, 0, miss, NULL);
}

/* A socket closed or failed: its ops fail; ops waiting for a primary without sockets are routed again. */
static void conn_failed(conn_t *c, const char *why) {
  char m[256];
  snprintf(m, sizeof m, "connection to %s: %s", prims[c->prim].endpoint, why);
  c->closed = 1, epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL), close(c->fd);
  uint64_t now = mono_ns();
  while (c->qlen) {
    op_t *o = qpop(c);
    if (o) complete(o, now, 1, 0, m);
  }
  c->olen = c->osent = 0;
  for (int idx = 0; idx < nprim; idx++)
    while (!has_pool(idx) && prims[idx].wait_head) reroute(pop_waiting(&prims[idx]), now);
}
static void on_readable(conn_t *c) {
  if (c->icap - c->ilen < 16384) c->in = realloc(c->in, c->icap *= 2);
  ssize_t k = read(c->fd, c->in + c->ilen, c->icap - c->ilen);
  if (k < 0 && (errno == EAGAIN || errno == EINTR)) return;
  if (k <= 0) return conn_failed(c, k == 0 ? "closed by the server" : strerror(errno));
  uint64_t now = mono_ns();
  size_t pos = 0; char type; long long integer; const char *end;
  c->ilen += (size_t)k;
  while (!c->closed && (end = skip_reply(c->in + pos, c->in + c->ilen, &type, &integer))) {
    if (!c->qlen) return conn_failed(c, "reply without a request");
    op_t *o = qpop(c);
    const char *msg = c->in + pos + 1;
    size_t mlen = (size_t)(end - msg) - 2;
    pos = (size_t)(end - c->in);
    on_reply(o, type, integer, msg, mlen, now);
  }
  if (!c->closed) memmove(c->in, c->in + pos, c->ilen - pos), c->ilen -= pos;
}
static void flush_conn(conn_t *c) {
  while (c->osent < c->olen) {
    ssize_t n = write(c->fd, c->out + c->osent, c->olen - c->osent);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) break;
    if (n < 0) return conn_failed(c, strerror(errno));
    c->osent += (size_t)n;
  }
  int pending = c->osent < c->olen;
  if (!pending) c->olen = c->osent = 0;
  if (pending != c->want_out) {
    struct epoll_event ev = {.events = EPOLLIN | (pending ? EPOLLOUT : 0), .data.ptr = c};
    epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
    c->want_out = pending;
  }
}
static void flush_all(void) {
  while (dirty_list) {
    conn_t *c = dirty_list;
    dirty_list = c->next_dirty, c->dirty = 0;
    if (!c->closed) flush_conn(c);
  }
}

/* ---------------- phases and output ---------------- */
static void print_ops(int totals) {
  int first = 1;
  putchar('[');
  for (int k = 0; k < NKINDS; k++) {
    stats_t *s = &stats[k]; uint64_t count = totals ? s->count : s->icount;
    if (count == 0 && (!totals || s->errors == 0)) continue;
    printf("%s{\"op\":\"%s\",\"count\":%llu,\"errors\":%llu,\"misses\":%llu,\"h\":", first ? "" : ",", KIND_NAMES[k], (unsigned long long)count,
           (unsigned long long)(totals ? s->errors : s->ierrors), (unsigned long long)(totals ? s->misses : s->imisses));
    hist_print(stdout, totals ? &s->total : &s->interval), putchar('}'), first = 0;
  }
  putchar(']');
}
static void interval(void) {
  int t = (int)lround((epoch_ms() - start_at_ms) / 1000) - (int)warmup_sec;
  printf("{\"type\":\"interval\",\"t\":%d,\"phase\":\"%s\",\"ops\":", t, t <= 0 ? "warmup" : "steady");
  print_ops(0), printf("}\n"), fflush(stdout);
  for (int k = 0; k < NKINDS; k++) { memset(&stats[k].interval, 0, sizeof(hist_t)); stats[k].icount = stats[k].ierrors = stats[k].imisses = 0; }
}
static void enter_steady(void) {
  phase = STEADY;
  for (int i = 0; i < nprim; i++) cmds0[i] = prims[i].commands;
  cpu0 = cpu_sec(), wall0_ms = epoch_ms();
}
static void finish(void) {
  if (phase != WARMUP && phase != STEADY) return;
  if (phase == WARMUP) enter_steady(); /* stopped in warm-up: an empty steady window */
  double now = epoch_ms();
  phase = DRAINING;
  if (now < steady_end_ms) steady_end_ms = now;
  for (int i = 0; i < nprim; i++) cmds1[i] = prims[i].commands;
  cpu1 = cpu_sec(), wall1_ms = now;
  drain_deadline_ns = mono_ns() + 5000000000ull;
}
static void done(void) {
  interval(), printf("{\"type\":\"done\",\"ops\":"), print_ops(1), printf(",\"endpointCommands\":{");
  for (int i = 0, first = 1; i < nprim; i++) {
    if (cmds1[i] == cmds0[i] && !has_pool(i)) continue;
    printf("%s", first ? "" : ","), json_str(stdout, prims[i].endpoint), first = 0;
    printf(":%llu", (unsigned long long)(cmds1[i] - cmds0[i]));
  }
  double wall = (wall1_ms - wall0_ms) / 1000;
  printf("},\"steadyStartMs\":%.3f,\"steadyEndMs\":%.3f,\"cpu\":%.4f,\"redirects\":%lld", steady_start_ms, steady_end_ms, wall > 0 ? (cpu1 - cpu0) / wall : 0, (long long)redirects);
  if (first_error[0]) printf(",\"firstError\":"), json_str(stdout, first_error);
  printf("}\n"), fflush(stdout);
  phase = IDLE;
}
static void begin(void) {
  phase = warmup_sec > 0 ? WARMUP : STEADY;
  if (phase == STEADY) enter_steady();
  uint64_t now = mono_ns();
  next_tick_ns = now + 1000000000ull;
  for (int i = 0; i < clients * pipeline_depth; i++) {
    op_t *o = free_ops ? free_ops : calloc(1, sizeof *o);
    if (o == free_ops) free_ops = o->next;
    issue(o, now);
  }
}

/* `run <startAtMs> <warmupSec> <durationSec|-1> <operationCount|-1>` or `stop` */
static void command(char *line) {
  double start, warm, dur, count;
  if (sscanf(line, "run %lf %lf %lf %lf", &start, &warm, &dur, &count) == 4) {
    if (phase != IDLE) fail("run while running%s", "");
    memset(stats, 0, sizeof stats);
    first_error[0] = 0, redirects = 0;
    source_init(&src, workload, records, worker_seed(seed, worker_index), worker_index, worker_count);
    start_at_ms = start, warmup_sec = warm, steady_start_ms = start + warm * 1000;
    steady_end_ms = dur >= 0 || count < 0 ? steady_start_ms + (dur >= 0 ? dur : 10) * 1000 : INFINITY;
    budget = count >= 0 ? (int64_t)count : INT64_MAX;
    phase = WARMUP, next_tick_ns = 0; /* waiting for start_at_ms (next_tick_ns 0): begin() sets the real phase */
  } else if (!strncmp(line, "stop", 4)) {
    if (next_tick_ns == 0 && phase == WARMUP) begin(); /* stopped before the start: still answer with a (empty) result */
    finish();
  }
}
static void read_stdin(void) {
  static char buf[4096]; static size_t len;
  ssize_t k = read(0, buf + len, sizeof buf - 1 - len);
  if (k <= 0) exit(0); /* the parent is gone */
  buf[len += (size_t)k] = 0;
  char *nl;
  while ((nl = strchr(buf, '\n'))) {
    *nl = 0, command(buf);
    len -= (size_t)(nl + 1 - buf);
    memmove(buf, nl + 1, len + 1);
  }
}
static void loop(void) {
  struct epoll_event evs[256];
  for (;;) {
    int timeout = 100;
    uint64_t now = mono_ns();
    if (phase == WARMUP && next_tick_ns == 0) {
      double wait = start_at_ms - epoch_ms();
      if (wait <= 0) { begin(), flush_all(); continue; }
      if (wait < timeout) timeout = (int)ceil(wait);
    } else if (phase != IDLE && next_tick_ns > now && (int)((next_tick_ns - now) / 1000000) + 1 < timeout)
      timeout = (int)((next_tick_ns - now) / 1000000) + 1;
    if (nparked) timeout = timeout < 10 ? timeout : 10;
    int n = epoll_wait(ep, evs, 256, timeout);
    if (n < 0 && errno != EINTR) fail("epoll_wait: %s", strerror(errno));
    for (int e = 0; e < n; e++) {
      conn_t *c = evs[e].data.ptr;
      if (!c) { read_stdin(); continue; }
      if (c->closed) continue;
      if (evs[e].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) on_readable(c);
      if (!c->closed && (evs[e].events & EPOLLOUT)) flush_conn(c);
    }
    now = mono_ns();
    for (int i = 0; i < nparked;) { /* ops whose primary stayed unreachable: fail them */
      if (parked[i].at > now) { i++; continue; }
      op_t *o = parked[i].op;
      char m[64];
      parked[i] = parked[--nparked];
      snprintf(m, sizeof m, "no connection for slot %d", o->slot), complete(o, now, 1, 0, m);
    }
    if ((phase == WARMUP || phase == STEADY) && next_tick_ns && now >= next_tick_ns) {
      next_tick_ns += 1000000000ull, interval();
      if (phase == WARMUP && epoch_ms() >= steady_start_ms - 500) enter_steady();
    }
    if (phase == STEADY && epoch_ms() >= steady_end_ms) finish();
    if (phase == DRAINING && (inflight == 0 || now >= drain_deadline_ns)) done();
    flush_all();
  }
}

/* ---------------- modes ---------------- */
static int key_name(int64_t keynum, char *key, size_t n) { return snprintf(key, n, "%suser%lld", key_prefix, (long long)fnvhash64(keynum)); }

/* The op sequence of this worker (dump_commands 0: `kind keynum field key slot` lines; 1: each op's commands as
   send_op writes them), each insert acknowledged when the next one is issued (one ack behind). */
static int dump_ops(long count, int dump_commands) {
  conn_t c = {.ocap = 65536, .qcap = 8};
  c.out = malloc(c.ocap), c.q = calloc((size_t)c.qcap, sizeof(op_t *)), nprim = 1;
  op_t o = {0};
  int64_t pending = -1;
  for (long i = 0; i < count; i++) {
    source_next(&src, &o.kind, &o.keynum, &o.field);
    o.klen = key_name(o.keynum, o.key, sizeof o.key), o.stage = 0;
    if (!dump_commands) printf("%s %lld %d %s %d\n", KIND_NAMES[o.kind], (long long)o.keynum, o.field, o.key, key_slot(o.key, o.klen));
    else {
      send_op(&c, &o, 0);
      if (o.kind == K_RMW) o.stage = 1, send_op(&c, &o, 0);
      fwrite(c.out, 1, c.olen, stdout);
      c.olen = 0, c.qhead = c.qlen = c.inflight = 0;
    }
    if (o.kind == K_INSERT) { if (pending >= 0) source_acknowledge(&src, pending); pending = o.keynum; }
  }
  return 0;
}
static int keys_test(void) { /* keynums, one a line -> `keynum key slot` */
  long long k; char key[96];
  while (scanf("%lld", &k) == 1) { int n = key_name(k, key, sizeof key); printf("%lld %s %d\n", k, key, key_slot(key, n)); }
  return 0;
}
static int histogram_test(void) { /* latencies in ns, one a line -> the pairs this worker would send */
  static hist_t h; unsigned long long ns;
  while (scanf("%llu", &ns) == 1) h.c[hdr_index(ns_to_us(ns))]++;
  hist_print(stdout, &h), putchar('\n');
  return 0;
}

int main(int argc, char **argv) {
  int opt, dump_commands = 0; long dump = 0;
  crc_init();
  while ((opt = getopt(argc, argv, "w:r:c:p:S:i:n:s:D:C:K:kH")) != -1) {
    switch (opt) {
      case 'w': workload = optarg[0]; break;            case 'r': records = atoll(optarg); break;
      case 'c': clients = atoi(optarg); break;          case 'p': pipeline_depth = atoi(optarg); break;
      case 'i': worker_index = atoll(optarg); break;    case 'n': worker_count = atoll(optarg); break;
      case 'S': seed = (uint32_t)strtoll(optarg, NULL, 10); break;
      case 's': if (nseeds < MAXP) snprintf(seeds[nseeds++], 128, "%s", optarg); break;
      case 'D': dump = atol(optarg); break;             case 'C': dump = atol(optarg), dump_commands = 1; break;
      case 'K': snprintf(key_prefix, sizeof key_prefix, "%s", optarg); break;
      case 'k': return keys_test();                     case 'H': return histogram_test();
      default: return 2;
    }
  }
  if (records < 1 || clients < 1 || pipeline_depth < 1 || worker_count < 1) fail("bad arguments%s", "");
  if (source_init(&src, workload, records, worker_seed(seed, worker_index), worker_index, worker_count) < 0)
    fail("unknown workload %s (a, b, c, d or f)", (char[]){workload, 0});
  pool_init(seed);
  if (dump) return dump_ops(dump, dump_commands);
  signal(SIGPIPE, SIG_IGN); /* a socket closed under a write is handled as a failed connection */
  auth_user = getenv("STRATA_AUTH_USER"), auth_pass = getenv("STRATA_AUTH_PASS");
  if (auth_user && !auth_pass) auth_pass = "";
  memset(owner, -1, sizeof owner);
  ep = epoll_create1(EPOLL_CLOEXEC);
  char err[256] = "no seeds";
  if (refresh_slots(err, sizeof err) < 0) fail("%s", err);
  for (int s = 0; s < SLOTS; s++) if (owner[s] < 0) fail("slot map incomplete%s", "");
  for (int i = 0, owning = nprim; i < owning; i++) if (open_pool(i, err, sizeof err) < 0) fail("%s", err);
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL}; /* stdin: commands */
  epoll_ctl(ep, EPOLL_CTL_ADD, 0, &ev);
  printf("{\"type\":\"ready\",\"primaries\":[");
  for (int i = 0; i < nprim; i++) printf("%s", i ? "," : ""), json_str(stdout, prims[i].endpoint);
  printf("]}\n"), fflush(stdout);
  loop();
}
