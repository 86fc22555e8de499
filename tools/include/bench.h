/*
 * tools/include/bench.h - the measuring kit shared by every malloc-labs program.
 *
 * Header-only on purpose: each lab stays one .c file that builds with a
 * single compiler command.  Everything here is static; unused parts cost
 * nothing.  What it offers:
 *   die(), usage errors      uniform failure messages and exit codes
 *   bench_getopt()           getopt_long with the kit's option rules (below)
 *   bench_parse_*()          numbers and sizes (K/M/G = KiB/MiB/GiB)
 *   bench_usage_*()          getrusage snapshots and deltas (faults, RSS, CPU)
 *   bench_now()              monotonic wall clock in seconds
 *   bench_progress()         a progress line on a terminal, cleared when done
 *   bench_start()            names the program; stdout is checked at exit
 *   bench_csv_str()          one CSV field, quoted when it must be (RFC 4180)
 *   bench_tsc_*()            serialised cycle counter, calibrated to ns
 *   bench_sort(), bench_pct() sorting that allocates nothing; nearest-rank
 *                            percentiles
 *   bench_sink()             keeps the compiler from deleting measured work
 *   bench_next_random()      splitmix64: the same numbers on every machine
 *   bench_gate()             a start line (barrier) for threads and main()
 * The environment check (glibc, THP, the build) lives in tools/include/env.h, the
 * rules glibc reads its tunables by in tools/include/tunables.h.
 *
 * Options: a short letter means one thing in every program that has it;
 * a program without that option lacks the letter.  Options with no meaning
 * shared by programs are long only.  Long names never differ in meaning.
 *   -h  --help          the usage on stdout, exit 0            every program
 *   -n  --frames N, --iters N, --rounds N, --reps N
 *                       how many times the measured work repeats: frames,
 *                       malloc_variance, arenas, yes (threads: COUNT)
 *   -s  --size BYTES    the block or buffer under test: frames, yes
 *                       (threads: SIZE)
 *   -t  --threads N     worker threads: malloc_variance, arenas
 *                       (threads: THREADS)
 *   -l  --live N        what stays allocated: threads (bytes), arenas
 *                       (blocks)
 *   long only           --csv, --env (every lab), --seed, --stats, --trim,
 *                       and each program's own options
 */
#ifndef MALLOC_LABS_BENCH_H
#define MALLOC_LABS_BENCH_H

#include <features.h>
#if !defined(__linux__) || !defined(__GLIBC__)
#error "malloc-labs measures glibc's malloc on Linux: build it on a Linux system with glibc."
#else   /* the rest of the kit: skipped elsewhere, so the #error stands alone */

#include <errno.h>
#include <getopt.h>
#include <stdio_ext.h>
#include <gnu/libc-version.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- errors */

/* Set by each program's main(); used to prefix every message. */
static const char *bench_prog = "malloc-labs";
/* The process bench_start() ran in.  A forked child that fails leaves
 * with _exit(): exit() would run the parent's atexit check and flush a
 * copy of the parent's stdio buffers. */
static pid_t bench_pid;

/* Print "prog: message: strerror(errno)" and exit 1.  For failures of the
 * system (an allocation, a syscall), not of the user's input. */
__attribute__((format(printf, 1, 2), noreturn, unused))
static void die(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	fprintf(stderr, "%s: ", bench_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (saved)
		fprintf(stderr, ": %s", strerror(saved));
	fputc('\n', stderr);
	if (bench_pid && getpid() != bench_pid)
		_exit(1);
	exit(1);
}

/* Print "prog: reason", then the program's usage, on stderr; exit 2.
 * Bad input is the user's mistake, so it gets exit status 2, never a crash. */
__attribute__((format(printf, 2, 3), noreturn, unused))
static void bad_usage(void (*usage)(FILE *), const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", bench_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage(stderr);
	exit(2);
}

/* Set by a program whose arguments are numbers (threads: SIZE COUNT
 * THREADS): "-5" is then called negative, not an unknown option. */
__attribute__((unused))
static const char *bench_numbers_hint;

/* The option getopt_long (with opterr = 0 and a leading ':' in the short
 * options) stopped at, as the user typed it: "-z" from "-zt", "--bogus",
 * then the usage; exit 2.  `c` is what getopt_long returned. */
__attribute__((noreturn, unused))
static void bench_bad_option(void (*usage)(FILE *), int c, char **argv)
{
	const char *arg = argv[optind - 1];
	int is_long = arg && !strncmp(arg, "--", 2);
	char shortname[3] = { '-', (char)optopt, '\0' };

	if (c == ':')
		bad_usage(usage, "%s needs a value", is_long ? arg : shortname);
	if (is_long)
		bad_usage(usage, "unknown option '%.*s'", (int)strcspn(arg, "="), arg);
	/* A short option's letter is in optopt; argv[optind - 1] may still be
	 * the word before it ("-zt"), so only a whole "-5" is a number. */
	if (bench_numbers_hint && arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9')
		bad_usage(usage, "'%s' is negative: %s", arg, bench_numbers_hint);
	bad_usage(usage, "unknown option '%s'", optopt ? shortname : arg);
}

/*
 * getopt_long as every program uses it: the next option for the caller's
 * switch, or -1 at the end.  It answers -h/--help itself (the usage on
 * stdout, exit 0) and stops at an unknown option or a missing value with
 * one line and the usage (exit 2); `shortopts` must start with ':' so a
 * missing value can be told from an unknown option.
 */
__attribute__((unused))
static int bench_getopt(int argc, char **argv, const char *shortopts,
			const struct option *longopts, void (*usage)(FILE *))
{
	int c;

	opterr = 0;     /* our own message, then the usage */
	c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c == 'h') {
		usage(stdout);
		exit(0);
	}
	if (c == '?' || c == ':')
		bench_bad_option(usage, c, argv);
	return c;
}

/* The longopts rows of the options with a letter: the table above, in
 * code, so a letter cannot drift to a second meaning.  -n has each
 * program's own long name. */
#define BENCH_OPT_COUNT(name) { name, required_argument, NULL, 'n' }
#define BENCH_OPT_SIZE        { "size", required_argument, NULL, 's' }
#define BENCH_OPT_THREADS     { "threads", required_argument, NULL, 't' }
#define BENCH_OPT_LIVE        { "live", required_argument, NULL, 'l' }

/* The rows a longopts table ends with: --help (answered by bench_getopt)
 * and the end mark. */
#define BENCH_OPTIONS_END \
	{ "help", no_argument, NULL, 'h' }, \
	{ NULL, 0, NULL, 0 }

/* After the options, for a program that takes no other arguments. */
__attribute__((unused))
static void bench_no_arguments(void (*usage)(FILE *), int argc, char **argv)
{
	if (optind < argc)
		bad_usage(usage, "unexpected argument '%s'", argv[optind]);
}

/* Which of n names `s` is (an option's value: --alloc, --mode), or -1. */
__attribute__((unused))
static int bench_name_index(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

/* At exit: stdout must have reached its file.  A full disk, a closed
 * descriptor or a broken pipe would otherwise end in exit status 0 with
 * the output lost (the coreutils close_stdout idea). */
static void bench_close_stdout(void)
{
	int pending, bad;

	if (getpid() != bench_pid)   /* a child: its stdout is the parent's */
		return;
	pending = __fpending(stdout) > 0;
	bad = ferror(stdout);
	if (fclose(stdout) != 0 && (pending || errno != EBADF))
		bad = 1;
	if (bad) {
		fprintf(stderr, "%s: write error: %s\n", bench_prog,
			errno ? strerror(errno) : "output lost");
		_exit(1);
	}
}

/* Every main() starts here: messages are prefixed with the program's
 * name, and a failed write to stdout makes the exit status 1. */
__attribute__((unused))
static void bench_start(const char *argv0)
{
	bench_prog = argv0;
	bench_pid = getpid();
	if (atexit(bench_close_stdout) != 0)
		die("atexit");
}

/* One CSV field: as it is when it holds no comma, quote or line break,
 * otherwise in double quotes with each quote doubled (RFC 4180). */
__attribute__((unused))
static void bench_csv_str(FILE *out, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* --------------------------------------------------------------- parsing */

/* A whole decimal number in [min, max], nothing after it.  0 on success. */
__attribute__((unused))
static int bench_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')    /* strtoull would skip blanks, take signs */
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* A size in bytes: a decimal number with an optional K, M or G suffix
 * (binary: KiB, MiB, GiB; "KiB"/"MiB"/"GiB" spelt out are accepted too).
 * Rejects overflow, negatives, fractions and junk.  0 on success. */
__attribute__((unused))
static int bench_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: return -1;
	}
	if (shift && (!strcmp(end, "iB") || !strcmp(end, "B")))
		end += strlen(end);
	if (*end)
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	v <<= shift;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* --seed's value: any whole number (threads, arenas). */
__attribute__((unused))
static uint64_t bench_seed_option(void (*usage)(FILE *), const char *s)
{
	uint64_t v;

	if (bench_parse_u64(s, 0, UINT64_MAX, &v))
		bad_usage(usage, "--seed wants a whole number, not '%s'", s);
	return v;
}

/* ----------------------------------------------------- resources, clocks */

struct bench_usage {
	long minflt;       /* minor faults: a page mapped without I/O */
	long majflt;       /* major faults: a page read from disk */
	long maxrss_kib;   /* peak resident set of the process so far */
	long nvcsw;        /* voluntary context switches: times it blocked */
	double user_s;     /* CPU time in user mode */
	double sys_s;      /* CPU time in the kernel: faults, mmap, munmap, brk */
};

__attribute__((unused))
static struct bench_usage bench_usage_now(void)
{
	struct rusage ru;
	struct bench_usage u;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		die("getrusage");
	u.minflt = ru.ru_minflt;
	u.majflt = ru.ru_majflt;
	u.maxrss_kib = ru.ru_maxrss;
	u.nvcsw = ru.ru_nvcsw;
	u.user_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	u.sys_s = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return u;
}

/* What happened between two snapshots.  max RSS is a high-water mark, so
 * the later snapshot's value is kept rather than a difference. */
__attribute__((unused))
static struct bench_usage bench_usage_delta(struct bench_usage a, struct bench_usage b)
{
	struct bench_usage d;

	d.minflt = b.minflt - a.minflt;
	d.majflt = b.majflt - a.majflt;
	d.maxrss_kib = b.maxrss_kib;
	d.nvcsw = b.nvcsw - a.nvcsw;
	d.user_s = b.user_s - a.user_s;
	d.sys_s = b.sys_s - a.sys_s;
	return d;
}

/* Wall-clock seconds from an arbitrary origin; never jumps. */
__attribute__((unused))
static double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* -------------------------------------------------------------- progress */

/* Progress for a person watching: on stderr, only when stderr is a
 * terminal, overwritten in place and cleared by bench_progress_done(), so
 * nothing of it stays in the output, in a pipe or in a file.  At most 4
 * updates a second (pass force=1 for the first line of a new part); a line
 * is cut to 79 columns so it never wraps on an 80-column projector.  stderr
 * is unbuffered: printing allocates nothing. */
static int bench_progress_on = -1;     /* -1: not asked yet */
static double bench_progress_last;

__attribute__((format(printf, 2, 3), unused))
static void bench_progress(int force, const char *fmt, ...)
{
	char line[80];
	int n;
	va_list ap;
	double now;

	if (bench_progress_on < 0)
		bench_progress_on = isatty(STDERR_FILENO);
	if (!bench_progress_on)
		return;
	now = bench_now();
	if (!force && now - bench_progress_last < 0.25)
		return;
	bench_progress_last = now;
	n = snprintf(line, sizeof line, "%s: ", bench_prog);
	if (n < 0 || (size_t)n >= sizeof line)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\r\033[K%s", line);
}

__attribute__((unused))
static void bench_progress_done(void)
{
	if (bench_progress_on > 0)
		fputs("\r\033[K", stderr);
}
__attribute__((unused))
static uint64_t bench_ns_raw(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------------- TSC */

/*
 * One timed call costs tens of ns, so the clock must be cheaper than that:
 * the time-stamp counter, read in the order Intel's SDM gives for timing a
 * short region.  lfence before rdtsc keeps earlier instructions from
 * drifting into the region; rdtscp waits for the region to finish and the
 * lfence after it keeps later instructions out.  (cpuid would serialise
 * too, but in a VM it exits to the hypervisor and costs microseconds.)
 * Where there is no TSC (not x86), CLOCK_MONOTONIC_RAW stands in and a
 * "tick" is a nanosecond.
 */
#if defined(__x86_64__) || defined(__i386__)
#define BENCH_HAVE_TSC 1
static inline uint64_t bench_tsc_start(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t bench_tsc_stop(void)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}
#else
#define BENCH_HAVE_TSC 0
static inline uint64_t bench_tsc_start(void) { return bench_ns_raw(); }
static inline uint64_t bench_tsc_stop(void) { return bench_ns_raw(); }
#endif

/* "yes" when /proc/cpuinfo lists `flag` for the CPU, "no" when it does not,
 * and "?" when it cannot be read. */
__attribute__((unused))
static const char *bench_cpu_flag(const char *flag)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	const char *ans = "?";
	size_t fl = strlen(flag);

	if (!f)
		return ans;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "flags", 5))
			continue;
		ans = "no";
		for (char *p = strstr(line, flag); p; p = strstr(p + 1, flag))
			if (p[-1] == ' ' && (p[fl] == ' ' || p[fl] == '\n')) {
				ans = "yes";
				break;
			}
		break;
	}
	fclose(f);
	return ans;
}

/* Ticks per nanosecond, measured against CLOCK_MONOTONIC_RAW (not NTP-
 * slewed) over `ms` milliseconds of spinning.  No unprivileged file gives
 * the TSC's rate reliably, so it is measured.  1.0 without a TSC. */
__attribute__((unused))
static double bench_tsc_calibrate(unsigned ms)
{
	uint64_t t0, t1, c0, c1, goal;

	if (!BENCH_HAVE_TSC)
		return 1.0;
	t0 = bench_ns_raw();
	c0 = bench_tsc_start();
	goal = t0 + (uint64_t)ms * 1000000u;
	do
		t1 = bench_ns_raw();
	while (t1 < goal);
	c1 = bench_tsc_stop();
	return (double)(c1 - c0) / (double)(t1 - t0);
}

/* ----------------------------------------------------------- percentiles */

/* Moves v[i] down the max-heap v[0..n) until both children are smaller. */
__attribute__((unused))
static void bench_sift_down(uint64_t *v, size_t i, size_t n)
{
	for (;;) {
		size_t big = i, l = 2 * i + 1, r = l + 1;
		uint64_t t;

		if (l < n && v[l] > v[big])
			big = l;
		if (r < n && v[r] > v[big])
			big = r;
		if (big == i)
			return;
		t = v[i];
		v[i] = v[big];
		v[big] = t;
		i = big;
	}
}

/*
 * Sort n samples in place, ready for bench_pct().  A heapsort rather than
 * qsort(): glibc's qsort (up to 2.36 at least) mallocs a buffer as big as
 * the array, and freeing a 1.6 MB mmapped buffer raises the dynamic mmap
 * threshold and can leave a heap top of that size behind, so sorting one
 * row's samples would change what the next row measures.  This allocates
 * nothing.
 */
__attribute__((unused))
static void bench_sort(uint64_t *v, size_t n)
{
	uint64_t t;

	for (size_t i = n / 2; i-- > 0; )
		bench_sift_down(v, i, n);
	for (size_t end = n; end > 1; end--) {
		t = v[0];
		v[0] = v[end - 1];
		v[end - 1] = t;
		bench_sift_down(v, 0, end - 1);
	}
}

/*
 * Nearest-rank percentile of sorted samples: the smallest sample with at
 * least p% of the samples at or below it, i.e. v[ceil(p/100 * n) - 1].
 * Every answer is a sample that was really measured, never an
 * interpolation.  p is given in tenths of a percent (500 = p50,
 * 999 = p99.9) so the rank is exact integer arithmetic.  p = 0 gives the
 * minimum.  n must be at least 1.
 */
__attribute__((unused))
static uint64_t bench_pct(const uint64_t *sorted, size_t n, unsigned p_tenths)
{
	/* ceil(n * p / 1000) without overflow, and without 128-bit integers
	 * that 32-bit targets lack. */
	size_t rank = n / 1000 * p_tenths + ((n % 1000) * p_tenths + 999) / 1000;

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

/* --------------------------------------------------------------- threads */

/* splitmix64: small, fast, and the same sequence on every machine, so a
 * seed names a run exactly. */
__attribute__((unused))
static uint64_t bench_next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A thread running fn(arg), or die(). */
__attribute__((unused))
static void bench_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg)
{
	errno = pthread_create(tid, NULL, fn, arg);
	if (errno)
		die("pthread_create");
}

/* Wait for a thread to end, or die(). */
__attribute__((unused))
static void bench_thread_join(pthread_t tid)
{
	errno = pthread_join(tid, NULL);
	if (errno)
		die("pthread_join");
}

/* A start line for n threads (main() included), or die(). */
__attribute__((unused))
static void bench_gate_init(pthread_barrier_t *gate, unsigned n)
{
	errno = pthread_barrier_init(gate, NULL, n);
	if (errno)
		die("pthread_barrier_init");
}

/* Wait at a start line shared by main() and its workers: the phase a
 * getrusage() snapshot brackets begins for every thread at once. */
__attribute__((unused))
static void bench_gate(pthread_barrier_t *gate)
{
	int e = pthread_barrier_wait(gate);

	if (e && e != PTHREAD_BARRIER_SERIAL_THREAD) {
		errno = e;
		die("pthread_barrier_wait");
	}
}

/* --------------------------------------------------------------- honesty */

/* Tell the compiler that `p` escapes and memory may have been read and
 * written here.  Without it GCC and clang may delete a malloc/memset/free
 * whose memory is never read, or turn malloc + reads into calloc, and the
 * lab would measure nothing. */
#define bench_sink(p) __asm__ __volatile__("" : : "r"(p) : "memory")

#endif /* Linux and glibc */
#endif /* MALLOC_LABS_BENCH_H */
