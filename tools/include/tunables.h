/*
 * tools/include/tunables.h - how the running glibc reads the malloc settings a
 * program inherits: GLIBC_TUNABLES and the MALLOC_* variables, by the rules
 * of glibc 2.31 to 2.43 (elf/dl-tunables.c, elf/dl-misc.c, malloc/arena.c).
 * glibc 2.36 accepts a misspelt tunable without a word and reads "256M" as
 * 256, so the kit works out what each setting really did, and says it.
 * Included by tools/include/env.h (the environment check), which is what a lab
 * includes; it keeps tools/include/bench.h the small timing header.
 *   env_glibc(), env_glibc_at_least()   the running glibc's version
 *   env_malloc_policy()         the malloc settings in force, item by item
 *   env_malloc_policy_of()      the same for a list of environment words
 *                               and a glibc version (the grader's prediction)
 *   env_describe()              what glibc did with one setting, in words
 * Declarations only: the code is tools/kit/tunables.c, built once into the
 * kit's library and linked.
 */
#ifndef MALLOC_LABS_TUNABLES_H
#define MALLOC_LABS_TUNABLES_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "bench.h"
#if defined(__linux__) && defined(__GLIBC__)   /* else cli.h said why */

#include <fcntl.h>
#include <gnu/libc-version.h>
#include <sys/auxv.h>
#include <sys/wait.h>

/* ------------------------------------------------------------ versions */

struct env_glibc {
	int major, minor;
};

/* Whose rules the reading below follows: the running process's (live:
 * its glibc, its word size, and what only it can know: secure mode, the
 * loader's list of tunables), or a described one's (a submission's glibc
 * and word size, for a prediction: no secure mode, no loader to ask). */
struct env_reader {
	struct env_glibc glibc;
	int bits;            /* 32 or 64: the threshold cap */
	int live;
};

/* ------------------------------------------------- malloc's settings */

/* How one setting from the environment fared with the running glibc. */
enum env_fate {
	ENV_APPLIED,      /* in force, with the value glibc read */
	ENV_MISREAD,      /* in force, but glibc read a different number */
	ENV_UNKNOWN,      /* no such tunable: ignored without a word */
	ENV_MALFORMED,    /* not a number: ignored (2.39+ warns) */
	ENV_RANGE,        /* outside the tunable's range: ignored */
	ENV_REFUSED,      /* stored by the loader, refused by malloc's setter */
	ENV_SECURE,       /* setuid or similar: glibc ignores it */
	ENV_UNMODELLED,   /* a real tunable of this glibc that the kit does not model */
	ENV_OVERRIDDEN,   /* an alias whose tunable GLIBC_TUNABLES set: ignored */
	ENV_DROPPED,      /* in a GLIBC_TUNABLES the loader threw away whole (2.39+) */
};

struct env_item {
	char source[24];     /* "GLIBC_TUNABLES" or the MALLOC_* variable */
	char name[40];       /* glibc.malloc.X, or the name as written */
	char text[40];       /* the value as written */
	int has_eq;          /* written as name=value (else a bare name) */
	uint64_t value;      /* what glibc made of it */
	uint64_t limit;      /* ENV_REFUSED: the most malloc's setter keeps */
	enum env_fate fate;
};

#define ENV_MAX_ITEMS 24

/* The policy a program starts with: glibc's defaults, then the
 * environment as the running glibc reads it.  (mallopt() calls made by
 * the program itself come after; programs that make them update this.) */
struct env_malloc {
	uint64_t mmap_threshold, trim_threshold, top_pad, mmap_max;
	unsigned perturb;
	unsigned hugetlb;    /* glibc.malloc.hugetlb: 0 off, 1 madvise THP, 2 hugetlbfs */
	uint64_t arena_max;  /* 0: glibc's default (8 x CPUs) */
	int dynamic;         /* the mmap threshold still adapts */
	int n_items;
	struct env_item items[ENV_MAX_ITEMS];
};

/* A malloc tunable: its name, the MALLOC_* alias, its type and range, and
 * the first glibc that has it.  From elf/dl-tunables.list (2.31 to 2.43):
 * INT_32 tunables compare as signed numbers, SIZE_T ones as unsigned. */
struct env_tunable {
	const char *name, *alias;
	int int32;           /* INT_32 (else SIZE_T) */
	int64_t min;         /* INT_32: signed; SIZE_T: 0 or 1 */
	uint64_t max;
	int since;           /* 2.<since> */
};

static const struct env_tunable env_tunables[] = {
	{ "check", "MALLOC_CHECK_", 1, 0, 3, 26 },
	{ "top_pad", "MALLOC_TOP_PAD_", 0, 0, UINT64_MAX, 26 },
	{ "perturb", "MALLOC_PERTURB_", 1, 0, 0xff, 26 },
	{ "mmap_threshold", "MALLOC_MMAP_THRESHOLD_", 0, 0, UINT64_MAX, 26 },
	{ "trim_threshold", "MALLOC_TRIM_THRESHOLD_", 0, 0, UINT64_MAX, 26 },
	{ "mmap_max", "MALLOC_MMAP_MAX_", 1, 0, INT32_MAX, 26 },  /* min INT32_MIN before 2.34 */
	{ "arena_max", "MALLOC_ARENA_MAX", 0, 1, UINT64_MAX, 26 },
	{ "arena_test", "MALLOC_ARENA_TEST", 0, 1, UINT64_MAX, 26 },
	{ "tcache_max", NULL, 0, 0, UINT64_MAX, 26 },
	{ "tcache_count", NULL, 0, 0, UINT64_MAX, 26 },
	{ "tcache_unsorted_limit", NULL, 0, 0, UINT64_MAX, 26 },
	{ "mxfast", NULL, 0, 0, UINT64_MAX, 26 },
	{ "hugetlb", NULL, 0, 0, UINT64_MAX, 35 },
};
#define ENV_N_TUNABLES (sizeof env_tunables / sizeof env_tunables[0])

/* A list of environment words ("NAME=VALUE"), as a process started with
 * them would find them: the last word of a name wins, as in env(1). */
struct env_words {
	const char *const *w;
	int n;
};

/* ------------------------------------------ defined in tools/kit/tunables.c */

struct env_glibc env_glibc(void);

int env_glibc_at_least(int minor);

uint64_t env_mmap_threshold_max(int bits);

uint64_t env_setter_max(const struct env_reader *r, const char *name);

const struct env_malloc *env_malloc_policy(void);

void env_malloc_policy_of(struct env_malloc *m, const char *const *words, int n,
				 struct env_glibc glibc, int bits);

void env_describe(const struct env_item *it, char *buf, size_t len);

#endif /* Linux and glibc */
#endif /* MALLOC_LABS_TUNABLES_H */
