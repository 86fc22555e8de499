/*
 * tools/include/bench.h - the kit's bench header: timing, getrusage and
 * percentiles, and nothing else.  Its code is here, static, compiled into
 * each program and unit that includes it (the TSC's reads stay inline in
 * the code they time; unused parts cost nothing), not into the kit's
 * library: build/kit/libkit.a, which every lab links (with its own
 * instruments, tools/kit/LAB.c), holds the rest of the kit's code, the
 * command line, the environment check and the model.
 *   bench_usage_*()          getrusage snapshots and deltas (faults, RSS, CPU)
 *   bench_now()              monotonic wall clock in seconds
 *   bench_tsc_*()            serialised cycle counter, calibrated to ns
 *   bench_sort(), bench_pct()  a sort that allocates nothing, percentiles
 *   bench_median()           the median of a few values, as runs are summed up
 * What a workload needs beside it (the sink, a repeatable random stream,
 * threads and their start line) is tools/include/work.h; the command
 * line, errors and progress are tools/include/cli.h (included: what fails
 * here dies), the environment check tools/include/env.h.
 */
#ifndef MALLOC_LABS_BENCH_H
#define MALLOC_LABS_BENCH_H

/* A lab may include this first: env.h, which its instruments include
 * after it, needs glibc's extensions (dladdr), asked for before any
 * system header. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "cli.h"
#if defined(__linux__) && defined(__GLIBC__)   /* else cli.h said why */

#include <sys/resource.h>

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

/* Nanoseconds, never slewed by NTP: the TSC's yardstick and stand-in. */
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

/*
 * The median of n values (n at least 1), v sorted in place: the middle
 * value, or the mean of the middle two when n is even, which no run
 * measured (bench_pct(v, n, 500) is the lower of the two).  For a few
 * values, a program's runs rather than its samples: an insertion sort,
 * which allocates nothing either.
 */
__attribute__((unused))
static double bench_median(double *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif /* Linux and glibc */
#endif /* MALLOC_LABS_BENCH_H */