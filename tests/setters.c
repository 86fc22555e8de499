/*
 * tests/setters.c - what malloc kept of glibc.malloc.tcache_max,
 * tcache_count and mxfast, measured, for tests/env-check.sh to hold the
 * header's words to: the loader stores any value in a tunable's range, and
 * malloc's do_set_* may then refuse it (tools/include/tunables.h,
 * env_setter_max).
 *
 * mallinfo2's fordblks counts the bytes of free chunks in the bins, the
 * fastbins included; a chunk in the tcache still counts as in use.  So a
 * free that leaves fordblks unchanged put the chunk in the tcache, and
 * fsmblks counts the fastbins alone.  (Past the tcache's count, a free now
 * and then leaves fordblks unchanged too: the count stops at the first
 * free that reaches the bins.)  Each freed block has a live block
 * after it, so it cannot merge into the top.
 *
 * Prints four lines:
 *   tcache_max: a freed 500-byte block is cached|uncached
 *   tcache_max: a freed 2000-byte block is cached|uncached
 *   tcache_count: C of 20 freed 100-byte blocks cached
 *   mxfast: F of 20 freed 150-byte blocks in a fastbin
 * (C: the tcache's count a size, 7 by default up to 2.42, 16 on 2.43;
 * F: those past the tcache, when a 160-byte chunk is fast).
 *
 * Usage: tests/bin/setters (reads GLIBC_TUNABLES as malloc does)
 */
#include "tools/include/env.h"

#include <malloc.h>
#include <stdlib.h>

#define N 20

/* Free n blocks of `size` (n <= N), each with a live guard after it.
 * fast = 0: how many frees in a row, from the first, left mallinfo2's
 * fordblks as it was: the blocks the tcache took before a block reached the
 * bins.  fast = 1: how many frees grew fsmblks: the blocks that reached a
 * fastbin. */
static int freed_to_bins(size_t size, int n, int fast)
{
	void *block[N], *guard[N];
	struct mallinfo2 before, after;
	int cached = 0, to_bins = 0, fastbin = 0;

	for (int i = 0; i < n; i++) {
		block[i] = malloc(size);
		guard[i] = malloc(16);
		if (!block[i] || !guard[i])
			die("malloc");
	}
	for (int i = 0; i < n; i++) {
		before = mallinfo2();
		free(block[i]);
		after = mallinfo2();
		to_bins |= after.fordblks > before.fordblks;
		cached += !to_bins;
		fastbin += after.fsmblks > before.fsmblks;
	}
	/* The guards stay live until the count is taken. */
	for (int i = 0; i < n; i++)
		free(guard[i]);
	return fast ? fastbin : cached;
}

int main(int argc, char **argv)
{
	int small, max, count, fast;

	cli_start(argv[0]);
	if (argc != 1) {
		fprintf(stderr, "usage: %s (reads GLIBC_TUNABLES only)\n", argv[0]);
		return 2;
	}
	/* Measured first, printed after: stdio's buffer is a malloc too.  The
	 * fastbins first, while they are empty: a later free can consolidate
	 * a fastbin chunk counted before. */
	fast = freed_to_bins(150, N, 1);
	small = freed_to_bins(500, 1, 0);
	max = freed_to_bins(2000, 1, 0);
	count = freed_to_bins(100, N, 0);
	printf("tcache_max: a freed 500-byte block is %s\n", small ? "cached" : "uncached");
	printf("tcache_max: a freed 2000-byte block is %s\n", max ? "cached" : "uncached");
	printf("tcache_count: %d of %d freed 100-byte blocks cached\n", count, N);
	printf("mxfast: %d of %d freed 150-byte blocks in a fastbin\n", fast, N);
	return 0;
}
