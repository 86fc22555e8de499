/*
 * tools/include/arenas.h - Lab 6's instruments: what arenas.c measures
 * with, kept out of the lesson.
 *
 * arenas.c is the lesson: the workers, their requests (a burst allocated,
 * written and freed, one block kept), the exercise and the run.  The
 * instruments are the rest: the options, /proc/self/status and mallinfo2()
 * read, the count of bytes live, the arena prediction from glibc's rules
 * and its why line, and the report and CSV.  None of it calls the
 * student's code.
 *   parse_options()                   the options
 *   read_status()                     VmRSS, RssAnon, VmHWM, VmSize
 *   count_alloc(), count_free()       bytes live: live_now, live_peak
 *   predict_arenas()                  the arenas glibc's rules predict
 *   take_mallinfo(), count_arenas()   glibc's own view, its arenas
 *   print_report(), print_csv()       the report, the CSV
 * Declarations only: the code is tools/kit/arenas.c.
 */
#ifndef MALLOC_LABS_ARENAS_H
#define MALLOC_LABS_ARENAS_H

/* env.h defines the program's own build facts (env_build) in arenas.c. */
#include "env.h"
#include "model.h"

/* A request's blocks: arenas.c's block_size() and handle_request(). */
#define SMALL_MAX 512u          /* small blocks: 16 to 512 bytes */
#define MEDIUM_MAX MODEL_LAB6_MEDIUM_MAX   /* medium blocks: 513 bytes to 16 KiB */
#define BIG_EVERY 8u            /* about one request in 8 is big ... */
#define BIG_TIMES 8u            /* ... eight times the usual burst */

/* ----------------------------------------------------------------- options */

enum output { OUTPUT_REPORT, OUTPUT_CSV };

struct options {
	unsigned threads;
	unsigned rounds;        /* requests per thread */
	unsigned blocks;        /* blocks in a usual burst */
	unsigned live;          /* blocks kept, over all threads */
	uint64_t seed;
	int trim;               /* malloc_trim(0) after the burst */
	enum output output;
};

/* ------------------------------------------------------ /proc/self/status */

struct status {
	long rss_kib, anon_kib, hwm_kib, size_kib;   /* VmRSS RssAnon VmHWM VmSize */
};

/* ------------------------------------------------------------ bytes live */

/* Bytes live now and at their peak: count_alloc() and count_free() keep
 * them (atomically: every worker counts), arenas.c reads them. */
extern uint64_t live_now, live_peak;

/* ------------------------------------------------------------- prediction */

struct arena_prediction {
	unsigned lo, hi;          /* the number of arenas: exact when lo == hi */
	uint64_t arena_max, arena_test;
	int online, affinity;     /* CPUs */
	unsigned limit_lo, limit_hi;
};

/* ------------------------------------------------- glibc's view, the run's */

struct glibc_view {
	uint64_t arena, ordblks, hblkhd, uordblks, fordblks, keepcost;
};

struct result {
	struct status before;     /* before any worker exists */
	struct status start;      /* every worker has its arena, nothing allocated */
	struct status after;      /* every request done, the live set held */
	struct status trimmed;    /* after malloc_trim(0) (--trim) */
	long anon_peak_kib;       /* RssAnon sampled during the requests */
	long samples;
	uint64_t live_peak, live_after, live_blocks, requests, calls;
	struct glibc_view view, view_trimmed;
	long arenas;
	int trim_result;
	double seconds, trim_seconds;
	struct bench_usage use;
};

/* ----------------------------------------- defined in tools/kit/arenas.c */

struct options parse_options(int argc, char **argv);

struct status read_status(void);

void count_alloc(uint64_t bytes);

void count_free(uint64_t bytes);

struct arena_prediction predict_arenas(unsigned threads);

struct glibc_view take_mallinfo(void);

long count_arenas(void);

void print_report(const struct options *o, const struct result *r,
		  const struct arena_prediction *a);

void print_csv(const struct options *o, const struct result *r,
	       const struct arena_prediction *a);

#endif
