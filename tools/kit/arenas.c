/*
 * tools/kit/arenas.c - Lab 6's instruments: the options, /proc/self/status
 * and mallinfo2() read, the count of bytes live, the arena prediction and
 * its why line, the report and the CSV (what each does:
 * tools/include/arenas.h).
 *
 * Compiled once a build flavour as DIR/kit/arenas.o and linked into
 * arenas alone: arenas.c compiles the declarations, not this code.
 * Nothing here calls the student's code.
 */
/* This unit reads the program's env_build, it does not define it. */
#define KIT_UNIT 1
#include "../include/arenas.h"

#include <malloc.h>
#include <sched.h>
#include <sys/sysinfo.h>

/* glibc's own constants (malloc/malloc.c, malloc/arena.c, 2.26 to 2.41):
 * NARENAS_FROM_NCORES(n) is n x 8 on 64-bit, n x 2 on 32-bit; arena_test
 * defaults to NARENAS_FROM_NCORES(1); HEAP_MAX_SIZE is twice
 * DEFAULT_MMAP_THRESHOLD_MAX: 2 x 32 MiB on 64-bit, 2 x 512 KiB on 32-bit
 * (glibc-2.36 malloc/malloc.c:964-972, 1935-1936, malloc/arena.c:29-31). */
#define ARENAS_PER_CPU (sizeof(long) == 4 ? 2u : 8u)
#define HEAP_MAX_BYTES (sizeof(long) == 4 ? 1ull << 20 : 64ull << 20)

/* ------------------------------------------ options: their defaults, usage */

/* The most each count option takes. */
#define MAX_THREADS 256u
#define MAX_ROUNDS 1000000u
#define MAX_BLOCKS 100000u
#define MAX_LIVE 1000000u

/* Where parse_options() starts, and what usage() calls the default. */
static const struct options defaults = {
	.threads = 4, .rounds = 256, .blocks = 400, .live = 256, .seed = 6,
	.output = OUTPUT_REPORT,
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [options]\n"
		"THREADS workers each handle ROUNDS requests: a request allocates a burst\n"
		"of BLOCKS small (16-512 B) and medium (513 B-16 KiB) blocks, writes them,\n"
		"frees them and keeps one in a live set of LIVE blocks shared out among the\n"
		"threads; about one request in %u is %u times bigger.  Reports resident\n"
		"memory (/proc/self/status) against the bytes really live, glibc's\n"
		"mallinfo2() and the number of arenas, beside their predictions.\n"
		"  -t, --threads N   worker threads (default %u, at most %u)\n"
		"  -n, --rounds N    requests per thread (default %u)\n"
		"      --blocks N    blocks in a usual burst (default %u)\n"
		"  -l, --live N      blocks kept live over all threads (default %u)\n"
		"      --seed N      random seed (default %" PRIu64 ")\n"
		"      --trim        call malloc_trim(0) after the burst; show RSS before\n"
		"                    and after\n"
		"      --csv         print a CSV header and one row instead\n"
		"      --env         print the environment check and exit\n"
		"  -h, --help        this text\n"
		"Try it with MALLOC_ARENA_MAX=2 or GLIBC_TUNABLES=glibc.malloc.arena_max=2.\n",
		cli_prog, BIG_EVERY, BIG_TIMES, defaults.threads, MAX_THREADS, defaults.rounds,
		defaults.blocks, defaults.live, defaults.seed);
}

/* ------------------------------------------------------ /proc/self/status */

/* One reading, without malloc (tools/include/env.h): RSS is what is measured. */
struct status read_status(void)
{
	char text[4096];
	struct status s;

	env_read_status(text, sizeof text);
	s.rss_kib = env_status_kib(text, "VmRSS");
	s.anon_kib = env_status_kib(text, "RssAnon");
	s.hwm_kib = env_status_kib(text, "VmHWM");
	s.size_kib = env_status_kib(text, "VmSize");
	if (s.rss_kib < 0)
		die("no VmRSS line in /proc/self/status");
	return s;
}

/* ------------------------------------------------------------ bytes live */

/* Bytes live: every malloc adds its request, every free takes it away, so
 * the peak is exact (an atomic add a call, included in the time). */
uint64_t live_now, live_peak;

void count_alloc(uint64_t bytes)
{
	uint64_t now = __atomic_add_fetch(&live_now, bytes, __ATOMIC_RELAXED);
	uint64_t peak = __atomic_load_n(&live_peak, __ATOMIC_RELAXED);

	while (now > peak && !__atomic_compare_exchange_n(&live_peak, &peak, now, 1,
							   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

void count_free(uint64_t bytes)
{
	__atomic_sub_fetch(&live_now, bytes, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------ prediction */

/* A malloc tunable in force from the environment (tools/include/env.h), or 0. */
static uint64_t tunable_in_force(const char *name)
{
	const struct env_malloc *m = env_malloc_policy();

	for (int i = 0; i < m->n_items; i++)
		if ((m->items[i].fate == ENV_APPLIED || m->items[i].fate == ENV_MISREAD) &&
		    !strncmp(m->items[i].name, "glibc.malloc.", 13) &&
		    !strcmp(m->items[i].name + 13, name))
			return m->items[i].value;
	return 0;
}

static unsigned arena_limit(uint64_t arena_test, int cpus)
{
	uint64_t by_cpus = (uint64_t)ARENAS_PER_CPU * (uint64_t)(cpus > 0 ? cpus : 2);

	return (unsigned)(by_cpus > arena_test + 1 ? by_cpus : arena_test + 1);
}

/*
 * arena_get2() (malloc/arena.c, 2.26 to 2.41; glibc-2.36 arena.c:924-971):
 * a thread's first malloc takes an arena from the free list (left by a
 * thread that exited: none here), else makes a new one while narenas (the
 * main arena included) is under the limit, else shares one
 * (reused_arena).  The limit is arena_max when set; otherwise it is
 * computed once narenas exceeds arena_test (8 on 64-bit), as 8 x CPUs, so
 * arena_test + 1 arenas always come first.  Every worker is alive at once,
 * so the answer is min(threads + 1, limit).  "CPUs": __get_nprocs()
 * (online) up to 2.34 and since the BZ 30945 fix (2.39, backported to the
 * 2.34-2.38 branches: Debian's 2.36 has it); 2.35-2.38 builds without it
 * count the CPUs this thread may run on.  On those versions both are
 * worked out; they differ only under taskset or a cpuset.
 */
struct arena_prediction predict_arenas(unsigned threads)
{
	struct arena_prediction a = { 0, 0, 0, ARENAS_PER_CPU, 0, 0, 0, 0 };
	cpu_set_t set;
	unsigned want = threads + 1;

	a.arena_max = env_malloc_policy()->arena_max;
	if (tunable_in_force("arena_test"))
		a.arena_test = tunable_in_force("arena_test");
	a.online = get_nprocs();
	a.affinity = a.online;
	if (env_glibc_at_least(35) && !env_glibc_at_least(39) &&
	    sched_getaffinity(0, sizeof set, &set) == 0)
		a.affinity = CPU_COUNT(&set);
	if (a.arena_max) {
		a.limit_lo = a.limit_hi = a.arena_max > 100000 ? 100000 : (unsigned)a.arena_max;
	} else {
		unsigned x = arena_limit(a.arena_test, a.online), y = arena_limit(a.arena_test, a.affinity);

		a.limit_lo = x < y ? x : y;
		a.limit_hi = x < y ? y : x;
	}
	a.lo = want < a.limit_lo ? want : a.limit_lo;
	a.hi = want < a.limit_hi ? want : a.limit_hi;
	return a;
}

/* ------------------------------------------------- glibc's view, the run's */

/* mallinfo2() is 2.33+; a build against an older glibc (make glibc-2.31)
 * falls back to mallinfo(), whose int fields wrap past 2 GiB. */
struct glibc_view take_mallinfo(void)
{
	struct glibc_view v;
#if __GLIBC_PREREQ(2, 33)
	struct mallinfo2 m = mallinfo2();
#else
	struct mallinfo m = mallinfo();
#endif

	v.arena = (uint64_t)m.arena;
	v.ordblks = (uint64_t)m.ordblks;
	v.hblkhd = (uint64_t)m.hblkhd;
	v.uordblks = (uint64_t)m.uordblks;
	v.fordblks = (uint64_t)m.fordblks;
	v.keepcost = (uint64_t)m.keepcost;
	return v;
}

/* The arenas that exist: malloc_info() writes one <heap nr="N"> element
 * for each.  Its output goes to a memory stream, which mallocs: called
 * after every RSS reading.  -1 where malloc is not glibc's. */
long count_arenas(void)
{
	char *text = NULL, *p;
	size_t len = 0;
	long n = 0;
	FILE *f;

	if (!env_malloc_is_glibc())
		return -1;
	f = open_memstream(&text, &len);
	if (!f)
		die("open_memstream");
	if (malloc_info(0, f) != 0)
		die("malloc_info");
	if (fclose(f) != 0)
		die("closing malloc_info's stream");
	for (p = text; (p = strstr(p, "<heap nr=")); p++)
		n++;
	free(text);
	return n;
}

/* ---------------------------------------------------------------- report */

static double kib(uint64_t bytes)
{
	return (double)bytes / 1024.0;
}

/* a / b as "12.3", or "n/a" when b is not positive. */
static const char *ratio(double a, double b, char *buf, size_t len)
{
	if (b > 0)
		snprintf(buf, len, "%.1f", a / b);
	else
		snprintf(buf, len, "n/a");
	return buf;
}

/* How the arena prediction was made, in a few words. */
static void explain_arenas(const struct arena_prediction *a, unsigned threads,
			   char *buf, size_t len)
{
	if (a->arena_max)
		snprintf(buf, len, "min(%u threads + main, arena_max %" PRIu64 ")", threads,
			 a->arena_max);
	else if (a->online == a->affinity)
		snprintf(buf, len, "min(%u threads + main, limit %u = max(%u x %d CPUs,"
			 " arena_test %" PRIu64 " + 1))", threads, a->limit_lo, ARENAS_PER_CPU,
			 a->online, a->arena_test);
	else
		snprintf(buf, len, "min(%u + main, limit %u or %u: %d CPUs online, %d allowed;"
			 " 2.%d may count either)", threads, a->limit_lo, a->limit_hi,
			 a->online, a->affinity, env_glibc().minor);
}

static uint64_t heap_reserve_bound(long arenas)
{
	return arenas > 1 ? (uint64_t)(arenas - 1) * HEAP_MAX_BYTES : 0;
}

void print_report(const struct options *o, const struct result *r,
		  const struct arena_prediction *a)
{
	char why[160], b1[32], b2[32];
	long grown = r->after.anon_kib - r->start.anon_kib;
	int hugetlb2 = env_malloc_policy()->hugetlb == 2;

	printf("%u threads, %u requests each, %u blocks a burst (x%u about one in %u)\n",
	       o->threads, o->rounds, o->blocks, BIG_TIMES, BIG_EVERY);
	printf("  requests:        %" PRIu64 " (%" PRIu64 " malloc and free calls)\n",
	       r->requests, r->calls);
	printf("  time:            %.3f s\n", r->seconds);
	printf("  minor faults:    %ld\n", r->use.minflt);
	printf("live (the program's own count of bytes it holds):\n");
	printf("  live peak:       %.0f KiB (most bytes held at once)\n", kib(r->live_peak));
	printf("  live after:      %.0f KiB (the live set, %" PRIu64 " blocks, when every request"
	       " is done)\n", kib(r->live_after), r->live_blocks);
	printf("resident (/proc/self/status, KiB):\n");
	printf("  VmHWM:           %ld (peak VmRSS of the process: the kernel's high-water mark)\n",
	       r->after.hwm_kib);
	printf("  RssAnon start:   %ld (workers started%s)\n", r->start.anon_kib,
	       env_glibc_model_applies() ? ", each with its arena" : "");
	printf("  RssAnon peak:    %ld (sampled every ms during the requests: %ld samples)\n",
	       r->anon_peak_kib, r->samples);
	printf("  RssAnon after:   %ld (every request done, the live set held)\n", r->after.anon_kib);
	printf("  VmRSS after:     %ld\n", r->after.rss_kib);
	printf("  grown:           %ld (RssAnon after - start)\n", grown);
	printf("  grown/live:      %s (resident growth per byte live after: a measurement)\n",
	       ratio((double)grown, kib(r->live_after), b1, sizeof b1));
	printf("  peak/live peak:  %s (RssAnon peak - start, per byte live at the peak)\n",
	       ratio((double)(r->anon_peak_kib - r->start.anon_kib), kib(r->live_peak), b2,
		     sizeof b2));
	printf("  bound:           grown >= live after: a live byte is a resident byte; how much"
	       "\n                   more stays depends on where the live blocks sit: no prediction\n");
	if (o->trim) {
		printf("malloc_trim(0) after the burst:\n");
		printf("  returned:        %d (1: some memory went back to the kernel)\n",
		       r->trim_result);
		printf("  trim time:       %.4f s\n", r->trim_seconds);
		printf("  RssAnon trimmed: %ld (was %ld)\n", r->trimmed.anon_kib, r->after.anon_kib);
		printf("  VmRSS trimmed:   %ld (was %ld)\n", r->trimmed.rss_kib, r->after.rss_kib);
		printf("  trimmed/live:    %s ((RssAnon trimmed - start) per byte live)\n",
		       ratio((double)(r->trimmed.anon_kib - r->start.anon_kib), kib(r->live_after),
			     b1, sizeof b1));
	}
	if (!env_glibc_model_applies()) {
		printf("glibc's view (mallinfo2) and arenas: n/a (malloc is %s)\n",
		       env_allocator(b1, sizeof b1));
		return;
	}
	printf("glibc's view after the burst (mallinfo2(), bytes):\n");
	printf("  arena:           %" PRIu64 " (heap bytes glibc holds in all arenas: mapped,"
	       " not all resident)\n", r->view.arena);
	printf("  uordblks:        %" PRIu64 " (in use, tcache included)\n", r->view.uordblks);
	printf("  fordblks:        %" PRIu64 " (free inside the arenas, %" PRIu64 " chunks)\n",
	       r->view.fordblks, r->view.ordblks);
	printf("  hblkhd:          %" PRIu64 " (blocks mmapped on their own)\n", r->view.hblkhd);
	if (o->trim)
		printf("  arena trimmed:   %" PRIu64 " (madvise keeps the mapping: arena barely"
		       " moves)\n", r->view_trimmed.arena);
	printf("arenas:\n");
	if (r->arenas < 0) {
		printf("  arenas:          n/a (malloc here is not glibc's)\n");
		return;
	}
	printf("  arenas:          %ld (malloc_info's <heap> elements)\n", r->arenas);
	explain_arenas(a, o->threads, why, sizeof why);
	if (a->lo == a->hi)
		printf("  predicted:       %u (exact)\n", a->lo);
	else
		printf("  predicted:       %u to %u (bound: which CPU count, see why)\n",
		       a->lo, a->hi);
	printf("  why:             %s\n", why);
	printf("  VmSize grown:    %ld KiB (address space, not memory)\n",
	       r->after.size_kib - r->before.size_kib);
	if (hugetlb2)
		printf("  heap reserve:    no prediction (glibc.malloc.hugetlb=2 sizes heaps by the"
		       " huge page)\n");
	else
		printf("  heap reserve:    %.0f KiB at least (bound: %ld thread arenas x %.0f KiB"
		       " HEAP_MAX_SIZE)\n", kib(heap_reserve_bound(r->arenas)), r->arenas - 1,
		       kib(HEAP_MAX_BYTES));
}

void print_csv(const struct options *o, const struct result *r,
	       const struct arena_prediction *a)
{
	printf("threads,rounds,blocks,live_blocks,live_kept,seed,trim,arena_max,requests,calls,time_s,"
	       "minor_faults,live_peak,live_after,hwm_kib,anon_start_kib,anon_peak_kib,"
	       "anon_after_kib,rss_after_kib,anon_trimmed_kib,rss_trimmed_kib,trim_result,"
	       "trim_s,mallinfo_arena,mallinfo_uordblks,mallinfo_fordblks,mallinfo_hblkhd,"
	       "arenas,arenas_predicted_lo,arenas_predicted_hi,vmsize_grown_kib,"
	       "heap_reserve_min_kib,anon_end_kib");
	env_csv_header(stdout);
	printf("\n%u,%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.4f,%ld,"
	       "%" PRIu64 ",%" PRIu64 ",%ld,%ld,%ld,%ld,%ld,", o->threads, o->rounds, o->blocks,
	       o->live, r->live_blocks, o->seed, o->trim, a->arena_max, r->requests, r->calls, r->seconds,
	       r->use.minflt, r->live_peak, r->live_after, r->after.hwm_kib, r->start.anon_kib,
	       r->anon_peak_kib, r->after.anon_kib, r->after.rss_kib);
	if (o->trim)
		printf("%ld,%ld,%d,%.4f,", r->trimmed.anon_kib, r->trimmed.rss_kib,
		       r->trim_result, r->trim_seconds);
	else
		printf(",,,,");
	printf("%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", r->view.arena,
	       r->view.uordblks, r->view.fordblks, r->view.hblkhd);
	if (r->arenas >= 0)
		printf("%ld,%u,%u,", r->arenas, a->lo, a->hi);
	else
		printf(",,,");
	printf("%ld,", r->after.size_kib - r->before.size_kib);
	if (r->arenas >= 0 && env_malloc_policy()->hugetlb != 2)
		printf("%.0f", kib(heap_reserve_bound(r->arenas)));
	/* What the process keeps at the end: after the trim when there was one. */
	printf(",%ld", o->trim ? r->trimmed.anon_kib : r->after.anon_kib);
	env_csv_fields(stdout);
	putchar('\n');
}

/* --------------------------------------------------------------- options */

static unsigned count_option(const char *s, const char *name, uint64_t max)
{
	uint64_t v;

	if (cli_parse_u64(s, 1, max, &v))
		bad_usage(usage, "--%s wants a whole number from 1 to %" PRIu64 ", not '%s'",
			  name, max, s);
	return (unsigned)v;
}

/* Every thread in a big burst at once, blocks of the mean size: refused
 * before anything runs when that passes half of this machine's memory. */
static void check_memory(const struct options *o)
{
	double mean = 0.75 * (16 + SMALL_MAX) / 2 + 0.25 * (SMALL_MAX + 1 + MEDIUM_MAX) / 2;
	double worst = (double)o->threads * o->blocks * BIG_TIMES * mean;
	double mem = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);

	if (mem > 0 && worst > mem / 2)
		bad_usage(usage, "%u threads x %u blocks x %u (a big burst) is about %.0f MiB,"
			  " more than half of this machine's memory: lower --blocks or --threads",
			  o->threads, o->blocks, BIG_TIMES, worst / (1 << 20));
}

struct options parse_options(int argc, char **argv)
{
	enum { OPT_BLOCKS = 256, OPT_SEED, OPT_TRIM };
	static const struct option longopts[] = {
		CLI_OPT_THREADS,
		CLI_OPT_COUNT("rounds"),
		{ "blocks", required_argument, NULL, OPT_BLOCKS },
		CLI_OPT_LIVE,
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "trim", no_argument, NULL, OPT_TRIM },
		ENV_OPTIONS_END,
	};
	struct options o = defaults;
	int c;

	while ((c = env_getopt(argc, argv, ":t:n:l:h", longopts, usage)) != -1) {
		switch (c) {
		case 't': o.threads = count_option(optarg, "threads", MAX_THREADS); break;
		case 'n': o.rounds = count_option(optarg, "rounds", MAX_ROUNDS); break;
		case OPT_BLOCKS: o.blocks = count_option(optarg, "blocks", MAX_BLOCKS); break;
		case 'l': o.live = count_option(optarg, "live", MAX_LIVE); break;
		case OPT_SEED: o.seed = cli_seed_option(usage, optarg); break;
		case OPT_TRIM: o.trim = 1; break;
		case ENV_OPT_CSV: o.output = OUTPUT_CSV; break;
		}
	}
	cli_no_arguments(usage, argc, argv);
	check_memory(&o);
	return o;
}
