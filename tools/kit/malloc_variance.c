/*
 * tools/kit/malloc_variance.c - Lab 2's instruments: the options, the
 * pool's self-test, the fork that gives a row a process of its own, the
 * clock's calibration, the statistics (percentiles: bench.h) and the
 * tables, histograms and CSV (what each does:
 * tools/include/malloc_variance.h).
 *
 * Compiled once a build flavour as DIR/kit/malloc_variance.o and linked
 * into malloc_variance alone.  It reads the lesson's rows[] and calls the
 * lesson back only through what it is handed: struct run's run_row, a row
 * measured in this process, and struct pool_test's calls of the pool.
 */
/* This unit reads the program's env_build, it does not define it. */
#define KIT_UNIT 1
#include "../include/malloc_variance.h"

#include <malloc.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define MAX_ITERS 50000000u
#define HIST_BUCKETS 48         /* power-of-two ns buckets: up to 2^47 ns */

/* ------------------------------------------ options: their defaults, usage */

/* Where parse_options() starts, and what usage() calls the default: every
 * row (MODE all), the last of which parse_options() takes from nrows. */
static const struct options defaults = {
	.iters = 200000, .threads = 1, .first = 1,
	.output = OUTPUT_REPORT,
};

static void usage(FILE *f)
{
	int indent = (int)strlen(cli_prog) + 8;     /* under "[MODE]" */

	fprintf(f,
"usage: %s [MODE] [--iters N] [--threads N] [--hist | --csv]\n"
"%*s[--mlock] [--history]\n"
"       %s --self-test | --env | --help\n"
"Times malloc + touch one byte + free, one call at a time, and prints the\n"
"distribution in ns (nearest-rank percentiles) for each row.\n"
"MODE (default all): all, small (32 B), medium (4 KiB), large (1 MiB,\n"
"  default threshold), large-mmap (1 MiB, threshold 512 KiB), large-heap\n"
"  (1 MiB, threshold 64 MiB, trim 128 MiB), pool (64 B free list).\n"
"  The timer floor row is always printed first.\n"
"  -n, --iters N     samples per row and thread (default %" PRIu64 ")\n"
"  -t, --threads N   N threads run each row at once (1-%d, default %u)\n"
"      --hist        an ASCII histogram per row on power-of-two buckets\n"
"      --csv         a header and one line per row instead of the table\n"
"      --quantiles   CSV of label,pct,ns: every 1%% and 99.1..99.9%% (for plots)\n"
"      --mlock       mlockall(MCL_CURRENT|MCL_FUTURE) before measuring\n"
"      --history     (or --no-isolate) run the rows in one process: each row\n"
"                    inherits the allocator state the previous rows left\n"
"      --self-test   check the pool hands out distinct, reusable blocks\n"
"      --env         print the environment check and exit\n"
"  -h, --help        this text\n", cli_prog, indent, "", cli_prog, defaults.iters,
		MAX_THREADS, defaults.threads);
}

/* --csv or --quantiles: CSV only, no "# " header and no human lines. */
int csv_output(const struct options *o)
{
	return o->output != OUTPUT_REPORT;
}

/* The timed samples (tools/include/malloc_variance.h says how they are
 * kept); set by the lesson's main(), filled by its threads. */
uint64_t *samples;

/* ------------------------------------------------------- the self-test */

/* malloc's bytes in use: a pool whose blocks come from malloc grows it. */
static size_t heap_in_use(void)
{
#if __GLIBC_PREREQ(2, 33)
	struct mallinfo2 m = mallinfo2();
#else
	struct mallinfo m = mallinfo();          /* mallinfo2() is 2.33+ */
#endif
	return (size_t)m.uordblks + (size_t)m.hblkhd;
}

/* --self-test: the pool hands out distinct, aligned, in-bounds blocks that
 * malloc did not provide, says when it is empty, and hands the same blocks
 * out again after they are returned.  Each block is filled and re-checked,
 * so overlapping blocks would show.  NULL: every rule held; else the first
 * rule broken. */
static const char *pool_failure(const struct pool_test *t)
{
	enum { N = 64, B = 64 };
	static unsigned char *got[N];   /* static: the test itself allocates nothing */
	struct pool *pl = t->pool;
	size_t heap0;
	int bad = 0;

	heap0 = heap_in_use();
	if (t->init(pl, B, N))
		return "pool_init() failed";
	for (int i = 0; i < N; i++) {
		unsigned char *base;

		got[i] = t->get(pl);
		base = (unsigned char *)*t->base;
		if (!got[i] || !base || got[i] < base || got[i] + B > base + (size_t)B * N ||
		    (size_t)(got[i] - base) % B)
			return "a block is outside the pool or misaligned";
		memset(got[i], i, B);
	}
	if (heap_in_use() > heap0)
		return "the blocks came from malloc (its bytes in use grew)";
	if (t->get(pl))
		return "an empty pool handed out a block";
	for (int i = 0; i < N; i++)
		for (int j = 0; j < B; j++)
			bad |= got[i][j] != (unsigned char)i;
	if (bad)
		return "two blocks overlap (a fill was overwritten)";
	for (int i = 0; i < N; i++)
		t->put(pl, got[i]);
	for (int i = 0; i < N; i++) {
		static unsigned char again[N];
		unsigned char *p = t->get(pl);
		int j = 0;

		while (j < N && p != got[j])
			j++;
		if (j == N || again[j]++)
			return "a returned block was not handed out again, or twice";
	}
	t->destroy(pl);
	return NULL;
}

/* The self-test's verdict, as a line or (--csv) a CSV row; exit status 1
 * when a rule was broken. */
int pool_self_test(int csv, const struct pool_test *t)
{
	const char *why = pool_failure(t);

	if (csv) {
		printf("self_test,blocks,block_bytes,failure\n%s,64,64,%s\n", why ? "fail" : "ok",
		       why ? why : "");
		if (why)      /* for a run that records only stderr and the status */
			fprintf(stderr, "%s: pool self-test: FAIL %s\n", cli_prog, why);
	} else if (why)
		printf("  pool self-test:  FAIL %s\n", why);
	else
		printf("  pool self-test:  ok (64 blocks of 64 B: distinct, aligned, in bounds, not from\n"
		       "                   malloc, reused after put)\n");
	return why != NULL;
}

/* ----------------------------------------------- a row's process of its own */

/* mallopt() sets no errno, so die() gets none; the usual cause is another
 * allocator (a preload, ASan), so name whose malloc() refused. */
void refused(const char *what, int value)
{
	errno = 0;
	die("mallopt(%s, %d) was refused by %s's malloc", what, value,
	    env_malloc_is_glibc() ? "glibc" : env_malloc_owner());
}

/* Where would the next block of this size come from?  Asked once, after the
 * timed loops, through the public mallinfo2() count of mmapped blocks. */
int next_block_is_mmapped(size_t size)
{
#if __GLIBC_PREREQ(2, 33)
	size_t before = mallinfo2().hblks, after;
#else
	int before = mallinfo().hblks, after;
#endif
	char *p = malloc(size);

	if (!p)
		die("malloc(%zu)", size);
	p[0] = 1;
	work_sink(p);
#if __GLIBC_PREREQ(2, 33)
	after = mallinfo2().hblks;
#else
	after = mallinfo().hblks;
#endif
	free(p);
	return after > before;
}

/* mlockall in the process that measures.  Locks are not inherited across
 * fork, so each row's child locks again.  0 or the errno. */
int lock_memory(void)
{
	return mlockall(MCL_CURRENT | MCL_FUTURE) ? errno : 0;
}

/* Runs one row (run->run_row) in a child forked for it: the child starts
 * from the parent's allocator state, in which no measured allocation or
 * mallopt has ever happened, and takes whatever it changes with it when it
 * exits. */
static void run_row_isolated(const struct run *run, const struct row *r,
			     const struct options *o, struct row_result *res)
{
	int status;
	pid_t pid, parent = getpid();

	fflush(NULL);           /* or the child's exit would print it twice */
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		/* Killing only the parent (kill PID, a closed terminal) must not
		 * leave a row measuring on, unseen: the kernel kills the child
		 * when the parent dies.  The parent may have died before the
		 * prctl, hence the getppid() check after it. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 || getppid() != parent)
			_exit(1);
		if (o->mlock)
			res->mlock_errno = lock_memory();
		run->run_row(r, o, res);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		errno = 0;
		die("the process measuring \"%s\" failed (%s %d)", r->label,
		    WIFSIGNALED(status) ? "signal" : "exit status",
		    WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	}
}

/* ------------------------------------------------------------ reporting */

struct stats {
	double min, p50, p90, p99, p999, max, mean;     /* ns */
	uint64_t hist[HIST_BUCKETS];                    /* samples per 2^k ns */
};

static void compute_stats(uint64_t *v, size_t n, double ticks_per_ns, struct stats *s)
{
	long double sum = 0;

	bench_sort(v, n);
	s->min = v[0] / ticks_per_ns;
	s->p50 = bench_pct(v, n, 500) / ticks_per_ns;
	s->p90 = bench_pct(v, n, 900) / ticks_per_ns;
	s->p99 = bench_pct(v, n, 990) / ticks_per_ns;
	s->p999 = bench_pct(v, n, 999) / ticks_per_ns;
	s->max = v[n - 1] / ticks_per_ns;
	memset(s->hist, 0, sizeof s->hist);
	for (size_t i = 0; i < n; i++) {
		double ns = v[i] / ticks_per_ns;
		unsigned k = 0;

		sum += v[i];
		while (k + 1 < HIST_BUCKETS && ns >= (double)((uint64_t)2 << k))
			k++;
		s->hist[k]++;
	}
	s->mean = (double)(sum / n) / ticks_per_ns;
}

/* The clock's granularity as seen here: the smallest nonzero timer-floor
 * sample (sorted).  Where the counter steps coarsely (some AMD CPUs add tens
 * of ticks at a time) every figure is a multiple of it; elsewhere it is the
 * cost of one read.  0 when every sample was 0. */
static uint64_t timer_step(const uint64_t *sorted, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (sorted[i])
			return sorted[i];
	return 0;
}

static const char *via_name(const struct row *r, const struct row_result *res)
{
	switch (r->kind) {
	case ROW_MALLOC: return res->via_mmap ? "mmap" : "heap";
	case ROW_POOL:   return "pool";
	default:         return "-";
	}
}

/* The human table is two, so each fits 80 columns: the times as each row
 * is measured (ns: a percentile column holds up to 10 ms, max up to 1 s),
 * then, after the last row, each row's mean and its two witnesses. */
#define TIME_COLS "%-28s %7s %7s %7s %7s %7s %9s\n"
#define MEAN_COLS "%-28s %10s %9s  %s\n"

static void print_times_head(void)
{
	printf(TIME_COLS, "times (ns)", "min", "p50", "p90", "p99", "p99.9", "max");
}

void print_table_head(const struct options *o)
{
	if (o->output == OUTPUT_QUANTILES) {
		printf("label,pct,ns");
		env_csv_header(stdout);
		putchar('\n');
	} else if (o->output == OUTPUT_CSV) {
		printf("label,min_ns,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,mean_ns,"
		       "faults_per_iter,via,iters,threads");
		env_csv_header(stdout);   /* glibc, THP, page, tunables, MALLOC_*, preload */
		putchar('\n');
	} else
		print_times_head();
}

/* A latency in a column of `width`: ns while it fits, else us or ms with
 * the unit written out (rare: a descheduled vCPU can add 20 ms to a 20 ns
 * call, and the table must still fit 80 columns).  The CSV keeps plain ns. */
static const char *fit_ns(char *buf, size_t len, double ns, int width)
{
	int n = snprintf(buf, len, "%*.0f", width, ns);

	if (n > width)
		n = snprintf(buf, len, "%*.0fus", width - 2, ns / 1e3);
	if (n > width)
		snprintf(buf, len, "%*.0fms", width - 2, ns / 1e6);
	return buf;
}

/* One line of the times table. */
static void print_times(const char *label, const struct stats *s)
{
	char c[6][24];

	printf(TIME_COLS, label,
	       fit_ns(c[0], sizeof c[0], s->min, 7), fit_ns(c[1], sizeof c[1], s->p50, 7),
	       fit_ns(c[2], sizeof c[2], s->p90, 7), fit_ns(c[3], sizeof c[3], s->p99, 7),
	       fit_ns(c[4], sizeof c[4], s->p999, 7), fit_ns(c[5], sizeof c[5], s->max, 9));
}

/* One line of the means table; faults and via are "" for a thread's line
 * (faults are counted for the whole process). */
static void print_mean(const char *label, double mean, const char *faults, const char *via)
{
	char m[24];

	snprintf(m, sizeof m, "%10.1f", mean);
	if (mean >= 1e9)
		fit_ns(m, sizeof m, mean, 10);
	if (*faults)
		printf(MEAN_COLS, label, m, faults, via);
	else
		printf("%-28s %s\n", label, m);
}

static void print_row(const struct row *r, const struct row_result *res,
		      const struct stats *s, const struct options *o)
{
	double n = (double)o->iters * o->threads;

	/* The label is always quoted (RFC 4180 allows it; "heap, no trim" holds
	 * a comma); the environment's text fields are quoted where they must be. */
	if (o->output == OUTPUT_CSV) {
		printf("\"%s\",%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.1f,%.4f,%s,%" PRIu64 ",%u",
		       r->label, s->min, s->p50, s->p90, s->p99, s->p999, s->max,
		       s->mean, res->minflt / n, via_name(r, res), o->iters,
		       o->threads);
		env_csv_fields(stdout);
		putchar('\n');
	} else
		print_times(r->label, s);
}

/* --quantiles: the sorted samples at every 1% and at 99.1 to 99.9%, by
 * nearest rank, so a plot can draw the distribution without a sample
 * file.  Each value is a measured sample (bench_pct never interpolates). */
static void print_quantiles(const struct row *r, const uint64_t *sorted, size_t n,
			    double ticks_per_ns)
{
	for (unsigned p = 0; p <= 1000; p += p < 990 ? 10 : 1)
	{
		printf("\"%s\",%.1f,%.0f", r->label, p / 10.0, bench_pct(sorted, n, p) / ticks_per_ns);
		env_csv_fields(stdout);
		putchar('\n');
	}
}

/* With --threads, each thread's own distribution, shown under the row:
 * thread 0 is the main thread (main arena), the others have arenas of their
 * own, and a second mode in the row's histogram usually belongs to one of
 * them.  Timing columns only: faults are counted for the whole process.
 * Each slice is sorted here, before the whole array is. */
static void per_thread_stats(const struct options *o, double ticks_per_ns,
			     struct stats *out)
{
	for (unsigned t = 0; t < o->threads; t++)
		compute_stats(samples + (size_t)t * o->iters, o->iters,
			      ticks_per_ns, &out[t]);
}

static const char *thread_label(char *buf, size_t len, unsigned t)
{
	snprintf(buf, len, "  thread %u%s", t, t ? "" : " (main arena)");
	return buf;
}

static void print_thread_rows(const struct options *o, const struct stats *s)
{
	char label[40];

	for (unsigned t = 0; t < o->threads; t++)
		print_times(thread_label(label, sizeof label, t), &s[t]);
}

/* A bar of log2(count + 1) characters: a count of 1 and a count of 200,000
 * both stay visible, which a linear bar would not allow. */
static void print_hist(const struct row *r, const struct stats *s)
{
	int lo = 0, hi = HIST_BUCKETS - 1;

	while (lo < hi && !s->hist[lo])
		lo++;
	while (hi > lo && !s->hist[hi])
		hi--;
	printf("    %s: samples per bucket (ns; bar length = log2 of the count)\n", r->label);
	for (int k = lo; k <= hi; k++) {
		uint64_t lo_ns = k ? (uint64_t)1 << k : 0, c = s->hist[k];
		char bar[72];
		int len = 0;

		for (uint64_t x = c; x && len < (int)sizeof bar - 1; x >>= 1)
			bar[len++] = '#';
		bar[len] = '\0';
		printf("    %9" PRIu64 " - %-9" PRIu64 " %9" PRIu64 " %s\n",
		       lo_ns, ((uint64_t)2 << k) - 1, c, bar);
	}
	printf("\n");
}

/* ------------------------------------------------------------ the clock */

/* Calibrates the TSC and, in human output, says what it found and what
 * could make it lie.  Returns ticks per ns. */
double set_up_clock(const struct options *o)
{
	double tpn = bench_tsc_calibrate(100);

	if (csv_output(o))
		return tpn;
	if (!BENCH_HAVE_TSC) {
		printf("  clock:           CLOCK_MONOTONIC_RAW (no TSC on this CPU; it adds\n"
		       "                   more to every sample)\n");
		return tpn;
	}
	printf("  clock:           TSC at %.2f MHz (calibrated: CLOCK_MONOTONIC_RAW, 100 ms)\n",
	       tpn * 1000);
	printf("  tsc flags:       constant_tsc=%s nonstop_tsc=%s hypervisor=%s\n",
	       bench_cpu_flag("constant_tsc"), bench_cpu_flag("nonstop_tsc"),
	       bench_cpu_flag("hypervisor"));
	if (strcmp(bench_cpu_flag("constant_tsc"), "yes") ||
	    strcmp(bench_cpu_flag("nonstop_tsc"), "yes"))
		printf("  warning:         the TSC is not invariant here: its rate can change with\n"
		       "                   the CPU's frequency or stop in sleep states, so ns are\n"
		       "                   approximate\n");
	if (!strcmp(bench_cpu_flag("hypervisor"), "yes"))
		printf("  warning:         a hypervisor is present: the host can deschedule this\n"
		       "                   vCPU at any time, which shows up as tail (p99.9, max)\n"
		       "                   that is not malloc's\n");
	return tpn;
}

/* -------------------------------------------------------------- options */

/* The row a mode names (its index in rows[]), or -1. */
static int row_index(const char *mode)
{
	for (size_t i = 1; i < nrows; i++)
		if (!strcmp(mode, rows[i].mode))
			return (int)i;
	return -1;
}

/* MODE: the rows first..last it names after the timer floor (all: every
 * row), or -1. */
static int parse_mode(const char *m, struct options *o)
{
	int i = strcmp(m, "all") ? row_index(m) : 0;

	if (i < 0)
		return -1;
	o->first = i ? (size_t)i : 1;
	o->last = i ? (size_t)i : nrows - 1;
	return 0;
}

struct options parse_options(int argc, char **argv)
{
	enum { OPT_HIST = 256, OPT_QUANTILES, OPT_MLOCK, OPT_HISTORY, OPT_SELF_TEST };
	static const struct option longopts[] = {
		CLI_OPT_COUNT("iters"),
		CLI_OPT_THREADS,
		{ "hist",      no_argument,       NULL, OPT_HIST },
		{ "quantiles", no_argument,       NULL, OPT_QUANTILES },
		{ "mlock",     no_argument,       NULL, OPT_MLOCK },
		{ "history",   no_argument,       NULL, OPT_HISTORY },
		{ "no-isolate", no_argument,      NULL, OPT_HISTORY },
		{ "self-test", no_argument,       NULL, OPT_SELF_TEST },
		ENV_OPTIONS_END,
	};
	struct options o = defaults;
	uint64_t v;
	int c;

	o.last = nrows - 1;
	while ((c = env_getopt(argc, argv, ":n:t:h", longopts, usage)) != -1) {
		switch (c) {
		case 'n':
			if (cli_parse_u64(optarg, 1, MAX_ITERS, &v))
				bad_usage(usage, "--iters wants a whole number from 1 to %u, not '%s'",
					  MAX_ITERS, optarg);
			o.iters = v;
			break;
		case 't':
			if (cli_parse_u64(optarg, 1, MAX_THREADS, &v))
				bad_usage(usage, "--threads wants a whole number from 1 to %d, not '%s'",
					  MAX_THREADS, optarg);
			o.threads = (unsigned)v;
			break;
		case OPT_HIST: o.hist = 1; break;
		case ENV_OPT_CSV: o.output = OUTPUT_CSV; break;
		case OPT_QUANTILES: o.output = OUTPUT_QUANTILES; break;
		case OPT_MLOCK: o.mlock = 1; break;
		case OPT_HISTORY: o.history = 1; break;
		case OPT_SELF_TEST: o.self_test = 1; break;
		}
	}
	/* The samples are held in memory, 8 bytes each: keep them under 400 MB. */
	if (o.iters * o.threads > MAX_ITERS)
		bad_usage(usage, "--iters times --threads is at most %u samples", MAX_ITERS);
	if (o.hist && csv_output(&o))
		bad_usage(usage, "--hist and --csv do not mix: the histogram is not CSV");
	if (optind < argc && parse_mode(argv[optind++], &o))
		bad_usage(usage, "unknown mode '%s'", argv[optind - 1]);
	if (optind < argc)
		bad_usage(usage, "one mode at a time: unexpected '%s'", argv[optind]);
	return o;
}

/* Did the run measure row i (rows first..last and the timer floor)? */
static int ran(const struct options *o, int i)
{
	return i == 0 || (i > 0 && (size_t)i >= o->first && (size_t)i <= o->last);
}

/* Rows side by side, found by their mode names: a row added to rows[]
 * moves no other. */
static void print_ratios(const struct options *o, const struct stats *st)
{
	const int mmap_row = row_index("large-mmap"), heap_row = row_index("large-heap");
	const int pool_row = row_index("pool"), small_row = row_index("small");

	if (ran(o, mmap_row) && ran(o, heap_row))
		printf("  mmap/heap p50:   %.1fx (forced mmap p50 / heap, no trim p50)\n",
		       st[mmap_row].p50 / st[heap_row].p50);
	if (ran(o, pool_row) && ran(o, small_row))
		printf("  pool/32 B p50:   %.2fx (pool 64 B p50 / malloc 32 B p50; means: %.2fx)\n",
		       st[pool_row].p50 / st[small_row].p50, st[pool_row].mean / st[small_row].mean);
}

void *map_samples(size_t n)
{
	/* MAP_SHARED so a row's child writes where the parent reads. */
	void *m = mmap(NULL, n * sizeof(uint64_t), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		die("mmap for %zu samples", n);
	memset(m, 0, n * sizeof(uint64_t));
	return m;
}

void print_mlock(const struct options *o, int err)
{
	struct rlimit rl;
	char lim[40];

	if (!o->mlock)
		return;
	if (!err) {
		if (!csv_output(o))
			printf("  mlock:           ok: mlockall(MCL_CURRENT|MCL_FUTURE) where it measures\n");
		return;
	}
	if (getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY)
		snprintf(lim, sizeof lim, "not limited");
	else
		snprintf(lim, sizeof lim, "%llu KiB", (unsigned long long)rl.rlim_cur / 1024);
	printf("%s  mlock:           FAILED: mlockall: %s; measured unlocked\n"
	       "%s                   (RLIMIT_MEMLOCK: %s: `ulimit -l`; root can lift it)\n",
	       csv_output(o) ? "# " : "", strerror(err), csv_output(o) ? "# " : "", lim);
	fprintf(stderr, "%s: --mlock: mlockall failed: %s; the numbers are for unlocked memory\n",
		cli_prog, strerror(err));
}

/* ------------------------------------------------------------- the run */

struct row_result *map_results(void)
{
	struct row_result *res = mmap(NULL, sizeof *res * nrows, PROT_READ | PROT_WRITE,
				      MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (res == MAP_FAILED)
		die("mmap for the results");
	memset(res, 0, sizeof *res * nrows);
	return res;
}

/* Zeroed memory for what the parent keeps of each row, from mmap: with
 * --history the rows are measured in this process, and malloc's state
 * must be theirs alone. */
static void *map_rows(size_t bytes_a_row)
{
	void *m = mmap(NULL, bytes_a_row * nrows, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		die("mmap for the rows' statistics");
	memset(m, 0, bytes_a_row * nrows);
	return m;
}

void print_preamble(const struct options *o, const struct run *run)
{
	printf("  iterations:      %" PRIu64 " a row%s, %u thread%s\n", o->iters,
	       o->threads > 1 ? " per thread" : "", o->threads,
	       o->threads > 1 ? "s at once" : "");
	printf("  isolation:       %s\n", run->isolate ?
	       "each row in a fresh child process (forked before it\n"
	       "                   allocates or calls mallopt)" :
	       o->last > o->first ? "none (--history): rows share one process and its\n"
	       "                   allocator state" :
	       "one row in a fresh process");
	printf("  percentiles:     nearest rank (each one is a measured sample)\n"
	       "  times:           ns per malloc + touch + free\n\n");
}

/* Every row the mode names, after the timer floor, each printed as soon as
 * it is measured. */
void measure_rows(const struct options *o, struct run *run)
{
	static struct stats tst[MAX_THREADS];
	size_t nsamples = (size_t)o->iters * o->threads;
	int per_thread = !csv_output(o) && o->threads > 1, mlock_reported = 0;

	run->st = map_rows(sizeof *run->st);
	run->thread_mean = map_rows(sizeof *run->thread_mean);
	for (size_t i = 0; i < nrows; i++) {
		if (!ran(o, (int)i))
			continue;
		/* The timer floor allocates nothing: it needs no child. */
		if (run->isolate && i != 0)
			run_row_isolated(run, &rows[i], o, &run->res[i]);
		else
			run->run_row(&rows[i], o, &run->res[i]);
		if (run->isolate && i != 0 && !mlock_reported) {
			run->mlock_err = run->res[i].mlock_errno;
			mlock_reported = 1;
		}
		cli_progress_done();
		if (per_thread)
			per_thread_stats(o, run->tpn, tst);
		compute_stats(samples, nsamples, run->tpn, &run->st[i]);
		if (i == 0)
			run->step = timer_step(samples, nsamples);
		if (o->output == OUTPUT_QUANTILES)
			print_quantiles(&rows[i], samples, nsamples, run->tpn);
		else
			print_row(&rows[i], &run->res[i], &run->st[i], o);
		if (per_thread) {
			print_thread_rows(o, tst);
			for (unsigned t = 0; t < o->threads; t++)
				run->thread_mean[i][t] = tst[t].mean;
		}
		fflush(stdout);
	}
}

/* The second table: each row's mean, faults a call and where one more
 * block came from (each thread's mean under its row, with --threads). */
static void print_means(const struct options *o, const struct run *run)
{
	double n = (double)o->iters * o->threads;
	char f[24], label[40];

	printf("\n" MEAN_COLS, "label", "mean (ns)", "faults/it", "via");
	for (size_t i = 0; i < nrows; i++) {
		if (!ran(o, (int)i))
			continue;
		snprintf(f, sizeof f, "%9.3f", run->res[i].minflt / n);
		print_mean(rows[i].label, run->st[i].mean, f, via_name(&rows[i], &run->res[i]));
		for (unsigned t = 0; o->threads > 1 && t < o->threads; t++)
			print_mean(thread_label(label, sizeof label, t), run->thread_mean[i][t], "", "");
	}
}

/* After the tables: histograms, notes, the timer's step, ratios. */
void print_summary(const struct options *o, const struct run *run, double t0)
{
	print_means(o, run);
	printf("\n");
	if (o->hist)
		for (size_t i = 0; i < nrows; i++)
			if (ran(o, (int)i))
				print_hist(&rows[i], &run->st[i]);
	for (size_t i = o->first; i <= o->last; i++)
		if (run->res[i].threshold_capped)
			printf("  note:            this glibc refused a 64 MiB threshold:\n"
			       "                   \"%s\" used 32 MiB\n",
			       rows[i].label);
	if (run->step)
		printf("  timer step:      %.1f ns (%" PRIu64 " ticks: the least nonzero gap of two reads)\n",
		       run->step / run->tpn, run->step);
	print_mlock(o, run->mlock_err);
	print_ratios(o, run->st);
	printf("  elapsed:         %.1f s\n", bench_now() - t0);
}

