/*
 * tests/uninit.c - a program whose output depends on memory it reads
 * before writing (tests/lab8.sh): a 1 MiB block is filled with 0x5a and
 * freed, then a second 1 MiB block is summed without being written.
 *
 * Under glibc's defaults the first block is above the 128 KiB mmap
 * threshold: its own mmap, unmapped by free(), which raises the threshold
 * to its size.  The second then comes from the heap's fresh pages: zeros,
 * "sum: 0".  With the threshold pinned high (./policies' pin row) both
 * come from the heap top, and the second is the first's memory: 0x5a in
 * every byte but the chunk header and free-list words malloc wrote.  The
 * output differs, and policies must say so.  (Under hugetlb=1 it differed
 * too on glibc 2.36 with THP "madvise": measured, not asserted.)
 *
 * Usage: tests/bin/uninit (prints "sum: N").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK (1u << 20)

int main(void)
{
	unsigned char *a = malloc(BLOCK), *b;
	uint64_t sum = 0;

	if (!a)
		return 1;
	memset(a, 0x5a, BLOCK);
	__asm__ volatile("" : : "r"(a) : "memory");     /* the fill is kept */
	free(a);
	if (!(b = malloc(BLOCK)))
		return 1;
	__asm__ volatile("" : : "r"(b) : "memory");     /* read what is there */
	for (size_t i = 0; i < BLOCK; i++)
		sum += b[i];
	printf("sum: %llu\n", (unsigned long long)sum);
	free(b);
	return 0;
}
