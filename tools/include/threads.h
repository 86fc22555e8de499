/*
 * tools/include/threads.h - Lab 3's instruments.  threads.c is the lesson
 * (the threads' work buffers, the exercise, the measured run); this holds
 * what measures and reports it:
 *   options, parse_options()            the command line and its bounds
 *   mean_request()                      the mean of threads.c's request sizes
 *   machine_setup(), count_block()      glibc's chunk geometry (the kit's
 *                                       model): was a block mapped, and
 *                                       how many pages were written in it
 *   add_tally()                         one thread's tally into the total
 *   policy_from_environment()           what GLIBC_TUNABLES or MALLOC_* set
 *   set_or_die()                        mallopt(), or exit saying it refused
 *   tlb_shootdowns(), take_glibc_view() the machine's and glibc's view
 *   print_report(), print_csv()         the report and the CSV row
 * Declarations only: the code is tools/kit/threads.c, linked into threads
 * alone.
 */
#ifndef MALLOC_LABS_THREADS_H
#define MALLOC_LABS_THREADS_H

#include "env.h"
#include "model.h"    /* MODEL_MMAP_THRESHOLD: threads.c's OLD_THRESHOLD */

/* Live blocks a run may keep, over all threads.  `threads 16 1 1` would
 * otherwise build 81.7 M blocks of 6 bytes on average (3.2 GB resident),
 * and `threads 1 1 1` 490 M of them: a pointer, a size and a 32-byte chunk
 * each.  4 Mi blocks cost at most ~200 MB of bookkeeping. */
#define MAX_BLOCKS (1ull << 22)

enum mode { MODE_PRE25, MODE_DEFAULT, MODE_TUNED };
#define N_MODES (MODE_TUNED + 1)

/* ------------------------------------------------------------- options */

/* The most SIZE, COUNT and THREADS take. */
#define MAX_SIZE (1ull << 30)
#define MAX_COUNT 1000000000ull
#define MAX_THREADS 1024u

enum output { OUTPUT_REPORT, OUTPUT_CSV };

struct options {
	uint64_t size;          /* largest request */
	uint64_t count;         /* requests per thread after the live set is built */
	unsigned threads;
	enum mode mode;
	uint64_t threshold;     /* 0: the mode's own choice */
	uint64_t live;          /* bytes live: in total, or per thread with --weak */
	uint64_t seed;
	int weak;               /* --weak: per-thread live set, one shared sequence */
	int fixed;              /* every request is exactly SIZE */
	int stats;              /* --stats: glibc's own view at the end */
	enum output output;
};

/* ---------------------------------------------------------------- tally */

/* What one thread did in one phase. */
struct tally {
	uint64_t requests;
	uint64_t bytes;           /* sum of request sizes */
	uint64_t mmapped;         /* requests served straight by mmap() */
	uint64_t mmapped_pages;   /* pages written in those blocks */
	uint64_t unexplained;     /* usable sizes glibc's geometry cannot give */
};

/* ------------------------------------------------------------- settings */

/* The allocator settings a run used, for the report. */
struct policy {
	uint64_t mmap_threshold;  /* 0: not set (glibc's 128 KiB) */
	uint64_t trim_threshold;  /* 0: not set */
	uint64_t arena_max;       /* 0: not set (8 per CPU on 64-bit) */
	const char *mmap_from, *trim_from, *arena_from;   /* who set each */
	int dynamic;              /* the threshold still adapts */
	const char *pinned_by;    /* what switched the dynamic threshold off */
};

/* ------------------------------------ what a run records, beside its time */

/* glibc's own view, taken while the live set is still allocated. */
struct glibc_view {
	char *stats;              /* malloc_stats() text; NULL: not taken */
	long arenas;              /* <heap> elements of malloc_info(); -1: unknown */
	uint64_t heap_bytes;      /* system bytes of every arena's heaps */
	uint64_t mmap_count, mmap_bytes;   /* blocks that are their own mapping */
};

struct result {
	struct tally fill, churn;
	uint64_t slots;                 /* per thread */
	uint64_t live_start, live_end;  /* bytes, all threads */
	double fill_s, churn_s;
	struct bench_usage fill_use, churn_use;
	long tlb_ipis;                  /* during the timed part; -1: unknown */
	struct glibc_view view;
};

/* -------------------------------------- defined in tools/kit/threads.c */

struct options parse_options(int argc, char **argv);

double mean_request(const struct options *o);

void machine_setup(void);

void count_block(struct tally *t, const void *p, uint64_t size);

void add_tally(struct tally *sum, const struct tally *t);

struct policy policy_from_environment(void);

void set_or_die(int param, const char *name, uint64_t value);

long tlb_shootdowns(void);

struct glibc_view take_glibc_view(void);

void print_report(const struct options *o, const struct policy *p,
		  const struct result *r);

void print_csv(const struct options *o, const struct policy *p,
	       const struct result *r);

#endif   /* MALLOC_LABS_THREADS_H */
