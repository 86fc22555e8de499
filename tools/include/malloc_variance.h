/*
 * tools/include/malloc_variance.h - Lab 2's instruments: what
 * malloc_variance.c measures and reports with, kept out of the lesson.
 *
 * malloc_variance.c is the lesson: the rows, the pool (an exercise), the
 * timed loops and one row's run.  What it calls here:
 *   parse_options(), csv_output()   the command line (struct options)
 *   pool_self_test()                --self-test: the pool, through its calls
 *   map_samples(), samples          the timed samples, shared with a row's child
 *   map_results()                   where each row's process reports
 *   set_up_clock()                  the TSC's calibration, said in human output
 *   lock_memory(), print_mlock()    --mlock, and whether it held
 *   refused()                       a row's mallopt() refused: exit, saying whose
 *   next_block_is_mmapped()         where one more block of a size comes from
 *   print_preamble(), print_table_head()   the lines before the rows
 *   measure_rows()                  every row (a process each unless --history),
 *                                   printed as it is measured
 *   print_summary()                 the means table, histograms, notes, ratios
 * What the kit reads of the lesson: rows[] and nrows; struct run's
 * run_row (one row measured in the calling process); struct pool_test
 * (the pool's four calls).
 * Declarations only: the code is tools/kit/malloc_variance.c.
 */
#ifndef MALLOC_LABS_MALLOC_VARIANCE_H
#define MALLOC_LABS_MALLOC_VARIANCE_H

#include "env.h"
#include "work.h"

#define MAX_THREADS 64

/* ------------------------------------------------------------- the rows */

enum row_kind { ROW_TIMER, ROW_MALLOC, ROW_POOL };

/* How each row sets up the allocator before it starts.  0 = leave alone. */
struct row {
	const char *label;
	const char *mode;       /* the mode argument that selects it */
	enum row_kind kind;
	size_t size;
	int mmap_threshold;     /* mallopt(M_MMAP_THRESHOLD), bytes */
	int trim_threshold;     /* mallopt(M_TRIM_THRESHOLD), bytes */
};

/* The lesson's rows (malloc_variance.c), the timer floor first. */
extern const struct row rows[];
extern const size_t nrows;

/* What a row's process reports back.  It lives in a MAP_SHARED page so a
 * child can fill it in for the parent. */
struct row_result {
	long minflt;            /* minor faults during the timed loops */
	int via_mmap;           /* 1: a probe block after the row was mmapped */
	int mlock_errno;        /* mlockall in the row's process: 0 = locked */
	int threshold_capped;   /* mallopt refused 64 MiB; 32 MiB used */
};

/* ------------------------------------------------------------- options */

enum output {
	OUTPUT_REPORT,          /* the table */
	OUTPUT_CSV,             /* --csv: a header and one line per row */
	OUTPUT_QUANTILES,       /* --quantiles: label,pct,ns for plots */
};

struct options {
	uint64_t iters;         /* samples per row and thread */
	unsigned threads;
	size_t first, last;     /* the rows measured after the timer floor */
	enum output output;
	int hist, mlock, history, self_test;
};

struct options parse_options(int argc, char **argv);

/* --csv or --quantiles: CSV only, no "# " header and no human lines. */
int csv_output(const struct options *o);

/* ------------------------------------------------------- the self-test */

/* The lesson's pool (an exercise) and its four calls, for --self-test:
 * the kit's code sees the pool only through these. */
struct pool;
struct pool_test {
	struct pool *pool;              /* the one to test, not yet made */
	char *const *base;              /* &pool->base: where its blocks must lie */
	int (*init)(struct pool *pl, size_t block, size_t count);
	void *(*get)(struct pool *pl);
	void (*put)(struct pool *pl, void *p);
	void (*destroy)(struct pool *pl);
};

/* The self-test's verdict, as a line or (csv) a CSV row; 1 when a rule
 * was broken. */
int pool_self_test(int csv, const struct pool_test *t);

/* ----------------------------------------------------------- measuring */

/* The timed samples, in TSC ticks: iters per thread, allocated once with
 * mmap (never malloc, so the bookkeeping does not disturb the allocator
 * being measured) and shared with the row processes. */
extern uint64_t *samples;

void *map_samples(size_t n);

/* One a row, zeroed, MAP_SHARED: a row's child fills its own in. */
struct row_result *map_results(void);

/* Calibrates the TSC and, in human output, says what it found and what
 * could make it lie.  Returns ticks per ns. */
double set_up_clock(const struct options *o);

/* mlockall in the process that measures: 0 or the errno. */
int lock_memory(void);

/* mallopt() refused WHAT = VALUE: exit 1, naming whose malloc() refused. */
__attribute__((noreturn))
void refused(const char *what, int value);

/* Did a block of this size, allocated now, come from mmap? */
int next_block_is_mmapped(size_t size);

/* ------------------------------------------------------------- the run */

struct stats;           /* a row's distribution, ns: the kit's own */

/* What the rows measured, for the lines after the table. */
struct run {
	/* The lesson's: one row measured in the calling process, its
	 * threads taking their samples into samples[]. */
	void (*run_row)(const struct row *r, const struct options *o,
			struct row_result *res);
	struct row_result *res;    /* one a row, MAP_SHARED: a row's child fills it */
	struct stats *st;          /* one a row: mapped by measure_rows() */
	double (*thread_mean)[MAX_THREADS];   /* --threads: the means table's */
	double tpn;                /* TSC ticks per ns */
	uint64_t step;             /* the timer's step in ticks; 0: none seen */
	int isolate;               /* each allocating row in a child of its own */
	int mlock_err;
};

void print_preamble(const struct options *o, const struct run *run);

void print_table_head(const struct options *o);

/* Every row the mode names, after the timer floor, each printed as soon
 * as it is measured. */
void measure_rows(const struct options *o, struct run *run);

/* --mlock's outcome (err: 0 or mlockall's errno); nothing without it. */
void print_mlock(const struct options *o, int err);

/* After the tables: histograms, notes, the timer's step, ratios; t0: when
 * the run began (bench_now()). */
void print_summary(const struct options *o, const struct run *run, double t0);

#endif /* MALLOC_LABS_MALLOC_VARIANCE_H */
