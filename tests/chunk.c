/*
 * tests/chunk.c - the bytes of heap an in-use block costs, measured: for
 * each request size given, two blocks in a row from the top of the heap
 * lie one chunk apart.  docs/glossary.md's Chunk entry gives examples
 * (an in-use chunk is the request plus 8, rounded up to 16, at least 32 on
 * 64-bit: its prev_size field belongs to the chunk before), and
 * tests/readme.sh holds them to this.  Run it with
 * GLIBC_TUNABLES=glibc.malloc.tcache_count=0 after nothing was freed of the
 * size, so both blocks come from the top.
 *
 * Usage: tests/bin/chunk SIZE...   prints "SIZE CHUNK" a line
 */
#include "tools/include/env.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
	cli_start(argv[0]);
	if (argc < 2) {
		fprintf(stderr, "usage: %s SIZE... (each 1 to 65536 bytes)\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		char *end;
		unsigned long n = strtoul(argv[i], &end, 10);
		char *a, *b;

		if (*end || end == argv[i] || n < 1 || n > 65536) {
			fprintf(stderr, "%s: bad size '%s'\nusage: %s SIZE... (each 1 to 65536 bytes)\n",
				argv[0], argv[i], argv[0]);
			return 2;
		}
		a = malloc(n);
		b = malloc(n);
		if (!a || !b)
			die("malloc");
		printf("%lu %td\n", n, b - a);
	}
	return 0;
}
