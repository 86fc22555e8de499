/*
 * tests/gotcha.c - Lab 4's benchmarking gotcha: the same malloc + memset +
 * free loop twice, once as most benchmarks write it and once with the
 * kit's guard, work_sink().  At -O1 and above GCC and clang see that
 * nobody reads the memory and may delete the whole loop: the "benchmark"
 * then measures an empty loop and reports no page faults at all.
 *
 * Build and run: make gotcha   (try OPT=-O0 too: then both loops survive)
 * Look at: the minor faults of each loop.  The guarded one must fault
 * about once per page per iteration (an 8 MiB block is above the mmap
 * threshold, pinned here so it stays there).  The last line says what
 * the two counts mean, from the counts.  Transparent huge pages are off for
 * this process: under THP "always" an 8 MiB block faults in 2 MiB pieces.
 */
#include "tools/include/env.h"
#include "tools/include/work.h"

#include <malloc.h>
#include <sys/prctl.h>

#define BLOCK (8u << 20)
#define ITERS 50

static long faults_unguarded(void)
{
	long f0 = bench_usage_now().minflt;

	for (int i = 0; i < ITERS; i++) {
		char *p = malloc(BLOCK);
		if (!p)
			die("malloc");
		memset(p, 1, BLOCK);
		free(p);
	}
	return bench_usage_now().minflt - f0;
}

static long faults_guarded(void)
{
	long f0 = bench_usage_now().minflt;

	for (int i = 0; i < ITERS; i++) {
		char *p = malloc(BLOCK);
		if (!p)
			die("malloc");
		work_sink(p);      /* the compiler must assume p is used ... */
		memset(p, 1, BLOCK);
		work_sink(p);      /* ... and that the stores are read */
		free(p);
	}
	return bench_usage_now().minflt - f0;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	long pages = (BLOCK + 16 + page - 1) / page;

	long unguarded, guarded;

	cli_start(argv[0]);
	if (argc > 1) {
		fprintf(argc == 2 && !strcmp(argv[1], "--help") ? stdout : stderr,
			"usage: %s\nRuns the same malloc+memset+free loop without and with work_sink().\n",
			cli_prog);
		return argc == 2 && !strcmp(argv[1], "--help") ? 0 : 2;
	}
	/* Keep every block on the mmap path: the dynamic threshold would
	 * otherwise move 8 MiB to the heap after the first free(). */
	if (mallopt(M_MMAP_THRESHOLD, 1 << 20) != 1)
		die("mallopt(M_MMAP_THRESHOLD)");
	if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0)
		die("prctl(PR_SET_THP_DISABLE)");
	env_print_header(stdout);
	printf("# transparent huge pages disabled for this process: 4 KiB faults only\n");
	printf("%d x malloc(8 MiB) + memset + free; each block touches %ld pages\n", ITERS, pages);
	unguarded = faults_unguarded();
	guarded = faults_guarded();
	printf("  unguarded faults:  %ld\n", unguarded);
	printf("  guarded faults:    %ld\n", guarded);
	printf("  expected guarded:  %ld (1 per page per iteration: memset writes first)\n",
	       ITERS * pages);
	/* Far below the guarded count means the unguarded loop did not touch
	 * its blocks: the compiler removed the memset it saw nobody read. */
	if (unguarded * 10 < guarded)
		printf("  meaning:           the unguarded loop faulted %.1f times a block, the\n"
		       "                     guarded one %.1f: the compiler deleted the memset\n"
		       "                     (nobody read it), so that loop measured nothing\n",
		       (double)unguarded / ITERS, (double)guarded / ITERS);
	else
		printf("  meaning:           both loops touched their blocks (%.1f and %.1f\n"
		       "                     faults a block): the compiler kept the memset here\n",
		       (double)unguarded / ITERS, (double)guarded / ITERS);
	return 0;
}
