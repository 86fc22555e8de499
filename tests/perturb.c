/*
 * tests/perturb.c - what glibc.malloc.perturb can see: a block is filled
 * with 0x11, freed and asked for again at the same size; what is in it
 * then?  One row for a 32-byte block (a tcache size) and one for a
 * 2000-byte block (past the tcache's default reach of 1,032 bytes on
 * 64-bit: MAX_TCACHE_SIZE, glibc-2.36 malloc/malloc.c:309-313; 2.42 as
 * released compares the chunk size with that, so 1,016 there: glibc-2.42
 * malloc/malloc.c:297, 1935, 3474, fixed by ad4caba414 after it).
 *
 * Why the rows differ (glibc-2.36 malloc/malloc.c; the same at 2.26-2.42):
 * a tcache hit returns before any alloc_perturb (__libc_malloc, 3303-3309)
 * and a free into the tcache returns before free_perturb (_int_free,
 * 4475-4479): a block that goes through the tcache is never filled, and
 * keeps what the program left in it.  Its first two words are not
 * counted: a free list keeps its link there (the tcache a pointer mangled
 * with the address, whose bytes vary from run to run).  A block freed to a bin is filled with the
 * perturb byte (4521, 4594) and one malloc'ed from a bin or the top with
 * its complement (4382 from the top).  glibc.malloc.tcache_count=0 turns the
 * tcache off: then the 32-byte block is filled too.  Two more blind spots
 * docs/labs.md's step 6 names: with perturb set, calloc clears every block,
 * mapped or not (__libc_calloc, 3707-3716), and free unmaps a mapped
 * block without filling it (__libc_free, 3376: munmap_chunk).
 *
 * Usage: tests/bin/perturb (reads GLIBC_TUNABLES like every program).
 */
#include "tools/include/env.h"
#include "tools/include/work.h"

#include <stdlib.h>
#include <string.h>

#define LEFT 0x11               /* what the program writes before free() */

#define SKIP (2 * sizeof(void *))  /* a free list's link words */

/* One round: malloc(size), fill with LEFT, free, malloc(size).  The
 * bytes of the second block past SKIP are counted by value. */
static void round_trip(size_t size, unsigned mfill, unsigned ffill, int perturb)
{
	unsigned char *p, *q;
	uintptr_t first;
	size_t left = 0, mf = 0, ff = 0, other = 0;

	p = malloc(size);
	if (!p)
		die("malloc(%zu)", size);
	memset(p, LEFT, size);
	work_sink(p);           /* the fill is observable: not dead stores */
	first = (uintptr_t)p;   /* compared as a number: p is freed next */
	free(p);
	q = malloc(size);
	if (!q)
		die("malloc(%zu)", size);
	work_sink(q);           /* and its bytes are glibc's, not calloc's */
	for (size_t i = SKIP; i < size; i++) {
		if (q[i] == LEFT)
			left++;
		else if (perturb && q[i] == mfill)
			mf++;
		else if (perturb && q[i] == ffill)
			ff++;
		else
			other++;
	}
	printf("%6zu %10s %8zu %10zu %12zu %10zu %6zu\n", size,
	       (uintptr_t)q == first ? "yes" : "no", size - SKIP, left, mf, ff, other);
	free(q);
}

int main(int argc, char **argv)
{
	const struct env_malloc *m;
	unsigned mfill, ffill;

	cli_start(argv[0]);
	if (argc != 1) {
		fprintf(stderr, "usage: %s (reads GLIBC_TUNABLES and MALLOC_PERTURB_)\n",
			argv[0]);
		return 2;
	}
	m = env_malloc_policy();
	ffill = m->perturb & 0xff;
	mfill = ffill ^ 0xff;
	printf("glibc %s: malloc(size), fill with 0x%02x, free, malloc(size) again.\n",
	       gnu_get_libc_version(), LEFT);
	if (m->perturb)
		printf("perturb %u: malloc fills with 0x%02x, free with 0x%02x.\n",
		       m->perturb, mfill, ffill);
	else
		printf("perturb off: glibc fills nothing.\n");
	printf("Bytes counted from offset %zu (a free list's links come first).\n", SKIP);
	printf("%6s %10s %8s %10s %12s %10s %6s\n", "size", "same block", "counted",
	       "0x11 left", "malloc fill", "free fill", "other");
	round_trip(32, mfill, ffill, m->perturb != 0);
	round_trip(2000, mfill, ffill, m->perturb != 0);
	return 0;            /* cli_start checks stdout at exit */
}
