/*
 * threads.c - Lab 3: large blocks from many threads (glibc bug 1541, 2005).
 *
 * The report's test, `malloc-test SIZE COUNT THREADS`: every thread keeps a
 * set of live work buffers, and COUNT times frees a random one and allocates
 * a new one of a random size up to SIZE, writing every page of it.  Before
 * glibc 2.5 every request above a fixed 128 KiB threshold was a fresh
 * mmap(), so every page of every buffer faulted and was zeroed, and the
 * freed buffer went back to the kernel with munmap().  --mode pre25 emulates
 * that (the threshold pinned, no adaptation), --mode default is today's
 * dynamic threshold, --mode tuned raises the mmap and trim thresholds.
 *
 * Build: make threads
 * Run:   ./threads --mode pre25 1280000 2000 2     the old policy
 *        ./threads --mode tuned 1280000 2000 2     the same work, tuned
 *        make bug1541                the report's four cases, 1 and N threads
 *        make bug1541-strace         the system calls behind them
 * Look at: minor faults against "mmapped pages" (the prediction: one fault
 *        per page written in a block that came straight from mmap), sys
 *        time, and time per request at 1 thread and at N threads.
 */
#include "tools/env.h"

#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>

#define PAGE 4096u
#define CHUNK_HDR 16u           /* an mmapped chunk's user pointer is mapping + 16 */
#define OLD_THRESHOLD (128u * 1024)    /* glibc's fixed threshold before 2.5 */
#define TUNED_THRESHOLD (16u << 20)    /* what the reporter built glibc with */
#define DEFAULT_LIVE 490000000ull      /* the report's live set, ~490 MB */

enum mode { MODE_PRE25, MODE_DEFAULT, MODE_TUNED };
static const char *const mode_names[] = { "pre25", "default", "tuned" };

struct options {
	uint64_t size;          /* largest request */
	uint64_t count;         /* requests per thread after the live set is built */
	unsigned threads;
	enum mode mode;
	uint64_t threshold;     /* 0: the mode's own choice */
	uint64_t live;          /* bytes live across all threads (expected) */
	uint64_t seed;
	int fixed;              /* every request is exactly SIZE */
	int csv;
};

/* The allocator settings a run used, for the report. */
struct policy {
	uint64_t mmap_threshold;  /* 0: dynamic, starting at 128 KiB */
	uint64_t trim_threshold;  /* 0: left alone */
};

/* What one thread did in one phase. */
struct tally {
	uint64_t requests;
	uint64_t bytes;           /* sum of request sizes */
	uint64_t mmapped;         /* requests served straight by mmap() */
	uint64_t mmapped_pages;   /* pages written in those blocks */
};

struct worker {
	pthread_t tid;
	const struct options *o;
	unsigned index;
	uint64_t slots;           /* live blocks this thread keeps */
	struct tally fill, churn;
};

/* Workers and main() meet twice around each measured phase, so that the
 * process-wide getrusage() snapshots bracket exactly one phase. */
static pthread_barrier_t phase_gate;

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [options] SIZE COUNT THREADS\n"
		"Each of THREADS threads keeps a set of live blocks and COUNT times\n"
		"replaces a random one with a new block of a random size up to SIZE\n"
		"bytes (SIZE x u^2, u uniform: a third of SIZE on average), writing\n"
		"every page.  Reports time, faults and CPU time of those requests.\n"
		"  -m, --mode MODE        pre25    threshold pinned at 128 KiB: glibc\n"
		"                                  before 2.5 (default mode)\n"
		"                         default  today's dynamic threshold\n"
		"                         tuned    mmap threshold 16 MiB, trim threshold\n"
		"                                  twice that\n"
		"  -t, --threshold BYTES  pin M_MMAP_THRESHOLD at BYTES instead (the\n"
		"                         report's build flag); trim stays as the mode has it\n"
		"  -l, --live BYTES       bytes live across all threads (default 490000000)\n"
		"  -s, --seed N           random seed (default 1541)\n"
		"  -f, --fixed            every request is exactly SIZE bytes\n"
		"      --csv              print a CSV header and one row instead\n"
		"  -h, --help             this text\n"
		"SIZE and BYTES take K, M or G (KiB, MiB, GiB).  Example:\n"
		"  %s --mode pre25 1280000 2000 2\n",
		bench_prog, bench_prog);
}

/* ---------------------------------------------------------------- sizes */

/* splitmix64: small, fast, and the same sequence on every machine. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The report's average request (421,006 B for SIZE 1,280,000) is a third
 * of SIZE, not half: its sizes leaned small.  SIZE x u^2 has mean SIZE/3. */
static uint64_t request_size(const struct options *o, uint64_t *state)
{
	double u;

	if (o->fixed)
		return o->size;
	u = (double)(next_random(state) >> 11) * 0x1.0p-53;
	return 1 + (uint64_t)(u * u * (double)(o->size - 1));
}

static double mean_request(const struct options *o)
{
	return o->fixed ? (double)o->size : 1.0 + (double)(o->size - 1) / 3.0;
}

/* --------------------------------------------------------------- blocks */

/* glibc keeps each chunk's size just below the pointer it returns; bit 1
 * (IS_MMAPPED) says the chunk is its own mmap().  Reading it tells us what
 * the allocator really did with this request instead of guessing. */
static int came_from_mmap(const void *p)
{
	/* Through an integer: GCC would flag p[-1] as outside the block. */
	const size_t *size_field = (const size_t *)((uintptr_t)p - sizeof(size_t));

	return (*size_field & 2) != 0;
}

/* Pages a fresh mapping faults in when all `size` bytes are written: the
 * user bytes start CHUNK_HDR bytes into the first page. */
static uint64_t pages_written(uint64_t size)
{
	return (size + CHUNK_HDR + PAGE - 1) / PAGE;
}

static void *new_block(uint64_t size, struct tally *t)
{
	void *p = malloc(size);

	if (!p)
		die("malloc(%" PRIu64 ") failed", size);
	/* Write every page, as a work buffer is used.  The sink keeps the
	 * compiler from deleting a memset whose bytes are never read. */
	memset(p, 'w', size);
	bench_sink(p);
	t->requests++;
	t->bytes += size;
	if (came_from_mmap(p)) {
		t->mmapped++;
		t->mmapped_pages += pages_written(size);
	}
	return p;
}

static void *run_worker(void *arg)
{
	struct worker *w = arg;
	const struct options *o = w->o;
	uint64_t state = o->seed * 1000003u + w->index;
	void **live = calloc(w->slots, sizeof *live);

	if (!live)
		die("calloc(%" PRIu64 " pointers) failed", w->slots);
	for (uint64_t i = 0; i < w->slots; i++)
		live[i] = new_block(request_size(o, &state), &w->fill);

	pthread_barrier_wait(&phase_gate);   /* all filled: main takes a snapshot */
	pthread_barrier_wait(&phase_gate);   /* go */
	for (uint64_t i = 0; i < o->count; i++) {
		uint64_t k = next_random(&state) % w->slots;

		free(live[k]);
		live[k] = new_block(request_size(o, &state), &w->churn);
	}
	pthread_barrier_wait(&phase_gate);   /* all done: main takes a snapshot */

	for (uint64_t i = 0; i < w->slots; i++)
		free(live[i]);
	free(live);
	return NULL;
}

/* ------------------------------------------------------------- settings */

static void set_or_die(int param, const char *name, uint64_t value)
{
	if (mallopt(param, (int)value) != 1)
		die("mallopt(%s, %" PRIu64 ") was refused", name, value);
}

/* Set up the allocator before any thread exists.  Pinning the mmap
 * threshold (any value, by mallopt or tunable) also switches off the
 * dynamic adjustment that glibc 2.5 added: that is what makes pre25 old. */
static struct policy apply_mode(const struct options *o)
{
	struct policy p = { 0, 0 };

	switch (o->mode) {
	case MODE_PRE25:
		p.mmap_threshold = o->threshold ? o->threshold : OLD_THRESHOLD;
		break;
	case MODE_DEFAULT:
		p.mmap_threshold = o->threshold;   /* 0: stay dynamic */
		break;
	case MODE_TUNED:
		p.mmap_threshold = o->threshold ? o->threshold : TUNED_THRESHOLD;
		/* Twice the threshold, as glibc's own dynamic rule sets it: freed
		 * memory at the top of a heap then stays for the next request
		 * instead of going back with madvise/brk and faulting again. */
		p.trim_threshold = p.mmap_threshold * 2;
		if (p.trim_threshold > INT_MAX)
			p.trim_threshold = INT_MAX;
		break;
	}
	if (p.mmap_threshold)
		set_or_die(M_MMAP_THRESHOLD, "M_MMAP_THRESHOLD", p.mmap_threshold);
	if (p.trim_threshold)
		set_or_die(M_TRIM_THRESHOLD, "M_TRIM_THRESHOLD", p.trim_threshold);
	return p;
}

/* ------------------------------------------------------------------ run */

/* TLB shootdowns so far, summed over CPUs, from the "TLB:" line of
 * /proc/interrupts; -1 where there is none (not x86, or no /proc).  The
 * count is system-wide: other processes' munmaps add to it. */
static long tlb_shootdowns(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[4096], *p, *end;
	long sum = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		p = line + strspn(line, " ");
		if (strncmp(p, "TLB:", 4))
			continue;
		sum = 0;
		for (p += 4;; p = end) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			sum += v;
		}
		break;
	}
	fclose(f);
	return sum;
}


struct result {
	struct tally fill, churn;
	uint64_t slots;                 /* per thread */
	double fill_s, churn_s;
	struct bench_usage fill_use, churn_use;
	long tlb_ipis;                  /* during the timed part; -1: unknown */
};

static void add_tally(struct tally *sum, const struct tally *t)
{
	sum->requests += t->requests;
	sum->bytes += t->bytes;
	sum->mmapped += t->mmapped;
	sum->mmapped_pages += t->mmapped_pages;
}

static uint64_t slots_per_thread(const struct options *o)
{
	double n = (double)o->live / o->threads / mean_request(o);

	return n < 1 ? 1 : (uint64_t)(n + 0.5);
}

static struct result run(const struct options *o)
{
	struct result r;
	struct worker *w = calloc(o->threads, sizeof *w);
	struct bench_usage u0, u1, u2;
	double t0, t1, t2;
	long tlb1, tlb2;

	if (!w)
		die("calloc(%u workers) failed", o->threads);
	memset(&r, 0, sizeof r);
	r.slots = slots_per_thread(o);
	if (pthread_barrier_init(&phase_gate, NULL, o->threads + 1))
		die("pthread_barrier_init");

	u0 = bench_usage_now();
	t0 = bench_now();
	for (unsigned i = 0; i < o->threads; i++) {
		w[i].o = o;
		w[i].index = i;
		w[i].slots = r.slots;
		errno = pthread_create(&w[i].tid, NULL, run_worker, &w[i]);
		if (errno)
			die("pthread_create");
	}
	pthread_barrier_wait(&phase_gate);
	u1 = bench_usage_now();
	tlb1 = tlb_shootdowns();
	t1 = bench_now();
	pthread_barrier_wait(&phase_gate);
	pthread_barrier_wait(&phase_gate);
	t2 = bench_now();
	u2 = bench_usage_now();
	tlb2 = tlb_shootdowns();
	for (unsigned i = 0; i < o->threads; i++) {
		pthread_join(w[i].tid, NULL);
		add_tally(&r.fill, &w[i].fill);
		add_tally(&r.churn, &w[i].churn);
	}
	r.fill_s = t1 - t0;
	r.churn_s = t2 - t1;
	r.fill_use = bench_usage_delta(u0, u1);
	r.churn_use = bench_usage_delta(u1, u2);
	r.tlb_ipis = tlb1 < 0 || tlb2 < 0 ? -1 : tlb2 - tlb1;
	pthread_barrier_destroy(&phase_gate);
	free(w);
	return r;
}

/* --------------------------------------------------------------- report */

static const char *describe_threshold(const struct policy *p, char *buf, size_t len)
{
	if (p->mmap_threshold)
		snprintf(buf, len, "%" PRIu64 " (pinned: no dynamic threshold)", p->mmap_threshold);
	else
		snprintf(buf, len, "dynamic (starts at 131072, rises on free)");
	return buf;
}

static double per_request(double total, uint64_t requests)
{
	return requests ? total / (double)requests : 0.0;
}

static void print_report(const struct options *o, const struct policy *p,
			 const struct result *r)
{
	char buf[96];
	const struct tally *c = &r->churn;

	printf("  mode:            %s\n", mode_names[o->mode]);
	printf("  mmap threshold:  %s\n", describe_threshold(p, buf, sizeof buf));
	if (p->trim_threshold)
		printf("  trim threshold:  %" PRIu64 "\n", p->trim_threshold);
	else
		printf("  trim threshold:  %s\n", p->mmap_threshold ? "131072 (default)"
		       : "dynamic (twice the mmap threshold)");
	printf("  size:            %" PRIu64 " (largest request%s)\n", o->size,
	       o->fixed ? ", every request" : "");
	printf("  threads:         %u\n", o->threads);
	printf("  live blocks:     %" PRIu64 " per thread\n", r->slots);
	printf("  live:            %.1f MB (the blocks built before the timed part)\n",
	       r->fill.bytes / 1e6);
	printf("  fill time:       %.3f s\n", r->fill_s);
	printf("  fill faults:     %ld\n", r->fill_use.minflt);
	printf("timed: %" PRIu64 " requests per thread, each freeing a live block\n", o->count);
	printf("  requests:        %" PRIu64 "\n", c->requests);
	printf("  average request: %.0f B\n", per_request((double)c->bytes, c->requests));
	printf("  time:            %.3f s\n", r->churn_s);
	printf("  per request:     %.2f us\n", per_request(r->churn_s * 1e6, c->requests));
	printf("  minor faults:    %ld\n", r->churn_use.minflt);
	printf("  faults/request:  %.1f\n", per_request((double)r->churn_use.minflt, c->requests));
	printf("  mmapped:         %" PRIu64 " requests (chunk header's IS_MMAPPED bit)\n",
	       c->mmapped);
	printf("  mmapped pages:   %" PRIu64 " (pages written in them: the predicted"
	       " minimum of faults)\n", c->mmapped_pages);
	printf("  user time:       %.3f s\n", r->churn_use.user_s);
	printf("  sys time:        %.3f s\n", r->churn_use.sys_s);
	if (r->tlb_ipis >= 0)
		printf("  TLB shootdowns:  %ld (all CPUs, system-wide)\n", r->tlb_ipis);
	else
		printf("  TLB shootdowns:  n/a (no TLB line in /proc/interrupts)\n");
}

static void print_csv(const struct options *o, const struct policy *p,
		      const struct result *r)
{
	char thr[24];
	const struct tally *c = &r->churn;

	if (p->mmap_threshold)
		snprintf(thr, sizeof thr, "%" PRIu64, p->mmap_threshold);
	else
		snprintf(thr, sizeof thr, "dynamic");
	printf("mode,mmap_threshold,trim_threshold,size,count,threads,live_blocks,live_mb,"
	       "requests,avg_request,time_s,us_per_request,minor_faults,mmapped,"
	       "mmapped_pages,user_s,sys_s,tlb_shootdowns,fill_s,fill_faults");
	env_csv_header(stdout);
	putchar('\n');
	printf("%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%" PRIu64 ",%.1f,%" PRIu64
	       ",%.0f,%.3f,%.2f,%ld,%" PRIu64 ",%" PRIu64 ",%.3f,%.3f,%ld,%.3f,%ld",
	       mode_names[o->mode], thr, p->trim_threshold,
	       o->size, o->count, o->threads, r->slots, r->fill.bytes / 1e6, c->requests,
	       per_request((double)c->bytes, c->requests), r->churn_s,
	       per_request(r->churn_s * 1e6, c->requests), r->churn_use.minflt, c->mmapped,
	       c->mmapped_pages, r->churn_use.user_s, r->churn_use.sys_s, r->tlb_ipis, r->fill_s,
	       r->fill_use.minflt);
	env_csv_fields(stdout);
	putchar('\n');
}

/* -------------------------------------------------------------- options */

static uint64_t positional(const char *s, const char *what, uint64_t min, uint64_t max,
			   int sized)
{
	uint64_t v;
	int bad = sized ? bench_parse_size(s, min, max, &v) : bench_parse_u64(s, min, max, &v);

	if (bad)
		bad_usage(usage, "%s wants a whole number from %" PRIu64 " to %" PRIu64
			  "%s, not '%s'", what, min, max, sized ? " (K/M/G allowed)" : "", s);
	return v;
}

static struct options parse_options(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "threshold", required_argument, NULL, 't' },
		{ "live", required_argument, NULL, 'l' },
		{ "seed", required_argument, NULL, 's' },
		{ "fixed", no_argument, NULL, 'f' },
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = { 0, 0, 0, MODE_PRE25, 0, DEFAULT_LIVE, 1541, 0, 0 };
	int c, k;

	opterr = 0;     /* our own message, then the usage */
	while ((c = getopt_long(argc, argv, ":m:t:l:s:fh", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			for (k = 0; k < 3 && strcmp(optarg, mode_names[k]); k++)
				;
			if (k == 3)
				bad_usage(usage, "--mode wants pre25, default or tuned, not '%s'", optarg);
			o.mode = (enum mode)k;
			break;
		case 't':
			/* mallopt() takes an int. */
			if (bench_parse_size(optarg, 1, INT_MAX, &o.threshold))
				bad_usage(usage, "--threshold wants bytes from 1 to %d, e.g. 16M, not '%s'",
					  INT_MAX, optarg);
			break;
		case 'l':
			if (bench_parse_size(optarg, 1, 1ull << 40, &o.live))
				bad_usage(usage, "--live wants bytes from 1 to 1T, e.g. 490M, not '%s'", optarg);
			break;
		case 's':
			if (bench_parse_u64(optarg, 0, UINT64_MAX, &o.seed))
				bad_usage(usage, "--seed wants a whole number, not '%s'", optarg);
			break;
		case 'f': o.fixed = 1; break;
		case 'c': o.csv = 1; break;
		case 'h': usage(stdout); exit(0);
		case ':': bad_usage(usage, "%s needs a value", argv[optind - 1]);
		default:  bad_usage(usage, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 3)
		bad_usage(usage, "wants three arguments, SIZE COUNT THREADS; got %d", argc - optind);
	o.size = positional(argv[optind], "SIZE", 1, 1ull << 30, 1);
	o.count = positional(argv[optind + 1], "COUNT", 1, 1000000000, 0);
	o.threads = (unsigned)positional(argv[optind + 2], "THREADS", 1, 1024, 0);
	return o;
}

int main(int argc, char **argv)
{
	struct options o;
	struct policy p;
	struct result r;

	bench_start(argv[0]);
	o = parse_options(argc, argv);
	if (!o.csv) {
		env_print_header(stdout);
		fflush(stdout);
	}
	p = apply_mode(&o);
	r = run(&o);
	if (o.csv)
		print_csv(&o, &p, &r);
	else
		print_report(&o, &p, &r);
	return 0;
}
