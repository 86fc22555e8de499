/*
 * tests/test_bench.c - unit tests for tools/include/bench.h's percentiles, sort,
 * median and TSC calibration.  Built by `make tests/bin/test_bench`; run by
 * tests/lab2.sh, which turns each "ok NAME" / "FAIL NAME: why" line into a
 * check.  Exit status 1 when any check failed.
 *
 * The expected percentiles are worked out by hand from the nearest-rank
 * definition: the p-th percentile of n sorted samples is the sample at
 * rank ceil(p/100 * n), counting from 1.
 */
#include "tools/include/bench.h"
#include "tools/include/work.h"

#include <malloc.h>
#include <sys/mman.h>

static int failures;

__attribute__((format(printf, 2, 3)))
static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	fputs(ok ? "ok " : "FAIL ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	failures += !ok;
}

static void expect_pct(const uint64_t *v, size_t n, unsigned p, uint64_t want,
		       const char *what)
{
	uint64_t got = bench_pct(v, n, p);

	check(got == want, "%s: p%u.%u of n=%zu is %" PRIu64 " (want %" PRIu64 ")", what,
	      p / 10, p % 10, n, got, want);
}

/* n = 1: every percentile is the one sample. */
static void test_single(void)
{
	uint64_t v[1] = { 42 };

	expect_pct(v, 1, 0, 42, "n=1");
	expect_pct(v, 1, 500, 42, "n=1");
	expect_pct(v, 1, 999, 42, "n=1");
	expect_pct(v, 1, 1000, 42, "n=1");
}

/* Ties: {5, 5, 5, 7}.  p50 -> rank 2, p75 -> rank 3 (still 5), p75.1 ->
 * ceil(3.004) = rank 4 (7), p0 -> the minimum, p100 -> the maximum. */
static void test_ties(void)
{
	uint64_t v[4] = { 7, 5, 5, 5 };

	bench_sort(v, 4);
	check(v[0] == 5 && v[2] == 5 && v[3] == 7, "ties: sort gives 5 5 5 7");
	expect_pct(v, 4, 500, 5, "ties");
	expect_pct(v, 4, 750, 5, "ties");
	expect_pct(v, 4, 751, 7, "ties");
	expect_pct(v, 4, 0, 5, "ties");
	expect_pct(v, 4, 1000, 7, "ties");
}

/* p99.9 of small n is the maximum: 10 samples -> ceil(9.99) = rank 10.
 * It leaves the maximum only at n = 1000: ceil(999) = rank 999. */
static void test_small_n(void)
{
	uint64_t v[1001];

	for (unsigned i = 0; i < 10; i++)
		v[i] = 10 - i;          /* 10 .. 1, so the sort matters */
	bench_sort(v, 10);
	expect_pct(v, 10, 999, 10, "1..10");
	expect_pct(v, 10, 990, 10, "1..10");
	expect_pct(v, 10, 900, 9, "1..10");
	expect_pct(v, 10, 500, 5, "1..10");
	expect_pct(v, 10, 501, 6, "1..10");
	expect_pct(v, 2, 500, 1, "1..2");
	expect_pct(v, 3, 500, 2, "1..3");

	for (unsigned i = 0; i < 1001; i++)
		v[i] = i + 1;
	expect_pct(v, 1000, 999, 999, "1..1000");
	expect_pct(v, 1001, 999, 1000, "1..1001");
	expect_pct(v, 1000, 500, 500, "1..1000");
}

/* A sort with duplicates, reversed and already-sorted runs; checked for
 * order and, by sum and xor, for being the same multiset. */
static void test_sort(void)
{
	enum { N = 10007 };
	static uint64_t v[N];
	uint64_t sum = 0, x = 0, sum2 = 0, x2 = 0, seed = 12345;
	int ordered = 1;

	for (unsigned i = 0; i < N; i++) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		v[i] = i < 2000 ? N - i : i < 4000 ? i : (seed >> 33) % 500;
		sum += v[i];
		x ^= v[i] * 2654435761u;
	}
	bench_sort(v, N);
	for (unsigned i = 0; i < N; i++) {
		ordered &= i == 0 || v[i - 1] <= v[i];
		sum2 += v[i];
		x2 ^= v[i] * 2654435761u;
	}
	check(ordered && sum == sum2 && x == x2, "bench_sort: %d samples in order, none lost", N);
}

/* n = 0 and n = 1 change nothing, in the samples or beside them: the
 * samples sit among canaries in descending order, so a sort that took in
 * a neighbour would reorder them, and one that wrote to v[0] for n = 0
 * would change it. */
static void test_sort_tiny(void)
{
	enum { K = 4, N = 2 * K + 1 };
	uint64_t v[N], was[N];

	for (unsigned i = 0; i < N; i++)
		v[i] = was[i] = 1000 - i;
	bench_sort(v + K, 0);
	bench_sort(v + K, 1);
	check(!memcmp(v, was, sizeof v), "bench_sort: n = 0 and n = 1 change nothing");
}

/* The median: the middle value of an odd count, the mean of the middle two
 * of an even one (where bench_pct's p50 is the lower), the values sorted. */
static void test_median(void)
{
	double odd[5] = { 0.5, 0.1, 0.4, 0.2, 0.3 }, even[4] = { 7, 1, 4, 2 }, one[1] = { 9 };
	double m_odd = bench_median(odd, 5), m_even = bench_median(even, 4);

	check(m_odd == 0.3 && odd[0] == 0.1 && odd[4] == 0.5,
	      "bench_median: of 5 values the middle one, sorted (%g, want 0.3)", m_odd);
	check(m_even == 3 && even[0] == 1 && even[3] == 7,
	      "bench_median: of 4 values the mean of the middle two, sorted (%g, want 3)", m_even);
	check(bench_median(one, 1) == 9, "bench_median: of 1 value that value");
}

/* The sort must not allocate: glibc's qsort mallocs a copy of the array,
 * and freeing an 8 MiB mmapped copy would raise the dynamic mmap threshold
 * to 8 MiB.  So: sort 8 MiB of samples held in mmap'd memory, then ask
 * whether a 4 MiB block is still mmapped, as it is in a fresh process. */
static void test_sort_leaves_allocator_alone(void)
{
	size_t n = 1 << 20;
	uint64_t *v = mmap(NULL, n * sizeof *v, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t before, after;
	char *p;

	if (v == MAP_FAILED)
		die("mmap");
	for (size_t i = 0; i < n; i++)
		v[i] = (i * 2654435761u) % 1000003;
	bench_sort(v, n);
	before = mallinfo2().hblks;
	p = malloc(4 << 20);
	if (!p)
		die("malloc");
	work_sink(p);
	after = mallinfo2().hblks;
	free(p);
	munmap(v, n * sizeof *v);
	check(after == before + 1,
	      "bench_sort allocates nothing: a 4 MiB block is still mmapped after sorting 8 MiB");
}

/* The calibrated rate turns a 100 ms TSC interval into ns within 2% of
 * CLOCK_MONOTONIC.  Best of three tries: a tick of the shared machine's
 * scheduler between two clock reads must not fail the kit. */
static void test_calibration(void)
{
	double tpn = bench_tsc_calibrate(100), best = 1e9;

	for (int attempt = 0; attempt < 3 && best > 0.02; attempt++) {
		double m0 = bench_now(), m1, err;
		uint64_t c0 = bench_tsc_start(), c1;

		do
			m1 = bench_now();
		while (m1 - m0 < 0.1);
		c1 = bench_tsc_stop();
		err = ((double)(c1 - c0) / tpn / 1e9 - (m1 - m0)) / (m1 - m0);
		if (err < 0)
			err = -err;
		if (err < best)
			best = err;
	}
	check(tpn > 0 && best <= 0.02,
	      "TSC calibration: %.2f MHz, a 100 ms interval within %.3f%% of CLOCK_MONOTONIC (limit 2%%)",
	      tpn * 1000, best * 100);
}

int main(void)
{
	cli_start("test_bench");   /* a failed write to stdout: exit 1 */
	test_single();
	test_ties();
	test_small_n();
	test_sort();
	test_sort_tiny();
	test_median();
	test_sort_leaves_allocator_alone();
	test_calibration();
	return failures != 0;
}
