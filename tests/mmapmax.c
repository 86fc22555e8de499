/*
 * tests/mmapmax.c - what mmap_max=0 stops, and what it does not.  The
 * header's '# set:' line for it says "main arena mmaps no block": sysmalloc
 * maps a block at or above the threshold only while n_mmaps < n_mmaps_max
 * (glibc-2.36 malloc/malloc.c:2573-2575), so in the main arena a block of
 * any size comes from the brk heap.  A thread's arena is not bound by it:
 * its heaps are mmap()ed (new_heap, arena.c:562-577), and a block too big
 * for a heap (HEAP_MAX_SIZE, 64 MiB on 64-bit) is mapped on its own by
 * the fallback after new_heap fails, which does not look at n_mmaps_max
 * (malloc.c:2667-2673).  Both are shown here, with mallopt(M_MMAP_MAX, 0)
 * as --tune calls it.
 *
 * Prints "main: brk" or "main: outside brk" for a 1 MiB block from the main
 * thread, then the same for a 100 MiB block from a second thread ("thread:
 * outside brk" where the fallback maps it), or "thread: failed".
 *
 * Usage: tests/bin/mmapmax
 */
#include "tools/include/env.h"
#include "tools/include/work.h"

#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>

#define MIB (1024 * 1024)

static char *heap_lo;          /* the brk heap's start: sbrk(0) before any block */

/* Where a block lies: in the brk heap (heap_lo up to the current break)
 * or outside it (a mapping of its own, or a thread's heap). */
static const char *where(const char *p)
{
	return p >= heap_lo && p < (char *)sbrk(0) ? "brk" : "outside brk";
}

static void *thread_block(void *unused)
{
	char *p = malloc(100 * MIB);

	(void)unused;
	if (!p) {
		printf("thread: failed\n");
		return NULL;
	}
	p[0] = 1;
	work_sink(p);
	printf("thread: %s\n", where(p));
	free(p);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	char *p;
	int err;

	heap_lo = sbrk(0);      /* where the brk heap starts, as frames.c reads it */
	cli_start(argv[0]);
	if (argc != 1) {
		fprintf(stderr, "usage: %s\n", argv[0]);
		return 2;
	}
	if (mallopt(M_MMAP_MAX, 0) != 1)
		die("mallopt(M_MMAP_MAX, 0) refused");
	p = malloc(MIB);
	if (!p)
		die("malloc(1 MiB)");
	p[0] = 1;
	work_sink(p);
	printf("main: %s\n", where(p));
	free(p);
	err = pthread_create(&t, NULL, thread_block, NULL);
	if (err) {
		errno = err;
		die("pthread_create");
	}
	pthread_join(t, NULL);
	return 0;            /* cli_start checks stdout at exit */
}
