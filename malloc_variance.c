/*
 * malloc_variance.c - Lab 2: malloc is not slow, it is unpredictable.
 *
 * What it shows: the cost of one malloc + touch one byte + free, measured
 * one call at a time with the serialised TSC and reported as a distribution
 * (min p50 p90 p99 p99.9 max mean) for each size class: 32 B (tcache),
 * 4 KiB (past the tcache: cut from the heap's top, and merged back into it
 * by free, glibc-2.36 malloc/malloc.c:4644-4651, so no bin holds it here),
 * 1 MiB under the default dynamic threshold, 1 MiB forced onto mmap,
 * 1 MiB kept on the heap, and a 64 B pool (a free list over pre-faulted
 * memory).  The first row is the timer itself: every row includes that
 * floor.
 *
 * Build and run:   make malloc_variance; ./malloc_variance --help
 *                  tools/labs/pin.sh ./malloc_variance   (or: make variance)
 *                  ./malloc_variance large-mmap --hist
 *
 * What to look for: the medians are tens of ns except where the mmap path
 * runs (two syscalls and a page fault per call: microseconds); the tails
 * (p99.9, max) are far from the medians in every row.  faults/it and via
 * say which path each row really took.  Each row runs in a fresh child
 * process, because allocator state (the heap top, the dynamic threshold,
 * mallopt settings) carries from one row to the next: --history runs them
 * in one process so you can watch that happen.
 * Read on: the rows, the pool (an exercise), the timed loops, one row's
 * run, main(); the kit's instruments: tools/kit/malloc_variance.c.
 */
#include "tools/include/bench.h"    /* the TSC, getrusage, percentiles */
#include "tools/include/work.h"     /* the sink, threads and their start line */
#include "tools/include/malloc_variance.h"  /* a row, options, the run, reports */

#include <malloc.h>
#include <sys/mman.h>

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)
#define POOL_BLOCKS 1024        /* the row uses one at a time; 64 KiB */

/* The rows (struct row): label, the mode argument that selects it, kind,
 * size, and how the row sets up the allocator before it starts: mallopt's
 * M_MMAP_THRESHOLD and M_TRIM_THRESHOLD, bytes (0 = leave alone). */
const struct row rows[] = {
	{ "timer floor",                  NULL,         ROW_TIMER,  0,       0, 0 },
	{ "malloc 32 B",                  "small",      ROW_MALLOC, 32,      0, 0 },
	{ "malloc 4 KiB",                 "medium",     ROW_MALLOC, 4 * KIB, 0, 0 },
	{ "malloc 1 MiB (default)",       "large",      ROW_MALLOC, MIB,     0, 0 },
	{ "malloc 1 MiB (forced mmap)",   "large-mmap", ROW_MALLOC, MIB,     512 * 1024, 0 },
	{ "malloc 1 MiB (heap, no trim)", "large-heap", ROW_MALLOC, MIB,     64 << 20, 128 << 20 },
	{ "pool 64 B",                    "pool",       ROW_POOL,   64,      0, 0 },
};
const size_t nrows = sizeof rows / sizeof rows[0];

/* ------------------------------------------------------------------ pool */

/* The alternative to malloc on a hot path: fixed-size blocks on a free
 * list, carved from memory that was faulted in before timing starts.
 * Getting and putting a block is two loads and a store: no size classes,
 * no thresholds, no system calls. */
struct pool {
	void *free_list;        /* each free block holds the next one's address */
	char *base;             /* the pool's memory: count blocks of block bytes */
	size_t block, count;
};

/* Exercise: the pool.  pool_init() gets count blocks of block bytes (a
 * multiple of 16) in one piece at base, faulted in now, and returns 0 (-1
 * when the memory cannot be had); pool_get() hands out a free block (NULL
 * when none is left) and pool_put() takes one back, neither calling malloc
 * nor faulting; pool_destroy() gives the memory back.  --self-test checks
 * every rule it can see.
 * Its region may use libc's names (tools/exercises/libc.uses) and those
 * of lab2.pool.uses; make check names any rule it breaks. */
/* BEGIN EXERCISE lab2.pool */
static int pool_init(struct pool *pl, size_t block, size_t count)
{
	void *m = mmap(NULL, block * count, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return -1;
	pl->base = m;
	pl->block = block;
	pl->count = count;
	pl->free_list = NULL;
	/* Threading the list writes to every block: that pre-faults them. */
	for (size_t i = count; i-- > 0; ) {
		void **b = (void **)(pl->base + i * block);
		*b = pl->free_list;
		pl->free_list = b;
	}
	return 0;
}

static void pool_destroy(struct pool *pl)
{
	munmap(pl->base, pl->block * pl->count);
}

static inline void *pool_get(struct pool *pl)
{
	void **b = pl->free_list;

	if (b)
		pl->free_list = *b;
	return b;
}

static inline void pool_put(struct pool *pl, void *p)
{
	*(void **)p = pl->free_list;
	pl->free_list = p;
}
/* END EXERCISE lab2.pool */

/* --------------------------------------------------------- timed loops */

/* Back-to-back reads: what the clock itself adds to every sample. */
static void loop_timer(uint64_t *out, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t t0 = bench_tsc_start();
		uint64_t t1 = bench_tsc_stop();

		out[i] = t1 - t0;
	}
}

/* One sample = malloc, write one byte, free.  The write is what a real
 * caller does first, and it is where a fresh mmapped page faults; the
 * sink keeps the compiler from deleting the whole thing at -O2. */
static void loop_malloc(uint64_t *out, uint64_t n, size_t size)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t t0 = bench_tsc_start();
		char *p = malloc(size);

		if (!p)
			die("malloc(%zu)", size);
		p[0] = (char)i;
		work_sink(p);
		free(p);
		out[i] = bench_tsc_stop() - t0;
	}
}

static void loop_pool(uint64_t *out, uint64_t n, struct pool *pl)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t t0 = bench_tsc_start();
		char *p = pool_get(pl);

		if (!p)
			die("the pool is empty");
		p[0] = (char)i;
		work_sink(p);
		pool_put(pl, p);
		out[i] = bench_tsc_stop() - t0;
	}
}

/* ---------------------------------------------------------- one row run */
struct worker {
	const struct row *row;
	uint64_t *out, n;
	pthread_barrier_t *ready, *go;
	struct pool pool;
	int is_main;
	struct bench_usage before;
};

/* Every thread pre-faults its own slice of the sample array (and builds its
 * pool) before the start line, so none of that lands in the samples or in
 * the fault count.  The main thread takes the "before" snapshot between the
 * two barriers, when all set-up is done and no timing has begun. */
static void *worker_run(void *arg)
{
	struct worker *w = arg;

	memset(w->out, 0, w->n * sizeof *w->out);
	if (w->row->kind == ROW_POOL && pool_init(&w->pool, w->row->size, POOL_BLOCKS))
		die("mmap for the pool");
	work_gate(w->ready);
	if (w->is_main)
		w->before = bench_usage_now();
	work_gate(w->go);
	/* In twentieths, so the main thread can show how far the row is
	 * between two samples (each sample is timed alone: a progress line
	 * lands in none of them).  A forced-mmap row under strace runs for
	 * half a minute. */
	for (uint64_t done = 0, part; done < w->n; done += part) {
		part = w->n / 20 ? w->n / 20 : 1;
		if (part > w->n - done)
			part = w->n - done;
		if (w->is_main)
			cli_progress(done == 0, "%s: sample %" PRIu64 " of %" PRIu64,
				     w->row->label, done, w->n);
		switch (w->row->kind) {
		case ROW_TIMER:  loop_timer(w->out + done, part); break;
		case ROW_MALLOC: loop_malloc(w->out + done, part, w->row->size); break;
		case ROW_POOL:   loop_pool(w->out + done, part, &w->pool); break;
		}
	}
	if (w->row->kind == ROW_POOL)
		pool_destroy(&w->pool);
	return NULL;
}

/* Sets the row's thresholds.  Any of these freezes the dynamic threshold
 * for the rest of the process, which is one reason rows get a process each.
 * glibc up to 2.34 refuses a threshold above 32 MiB (its cap then); 32 MiB
 * still keeps a 1 MiB block on the heap, so that is used instead. */
static void set_thresholds(const struct row *r, struct row_result *res)
{
	if (r->mmap_threshold && !mallopt(M_MMAP_THRESHOLD, r->mmap_threshold)) {
		if (!mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024))
			refused("M_MMAP_THRESHOLD", r->mmap_threshold);
		res->threshold_capped = 1;
	}
	if (r->trim_threshold && !mallopt(M_TRIM_THRESHOLD, r->trim_threshold))
		refused("M_TRIM_THRESHOLD", r->trim_threshold);
}

/* Runs one row in the calling process: `threads` threads (the calling
 * thread is thread 0 and so uses the main arena; the others get arenas of
 * their own) each take `iters` samples into their slice of `samples`. */
static void run_row_here(const struct row *r, const struct options *o,
			 struct row_result *res)
{
	struct worker w[MAX_THREADS];
	pthread_t tid[MAX_THREADS];
	pthread_barrier_t ready, go;
	struct bench_usage after;
	unsigned t;

	set_thresholds(r, res);
	work_gate_init(&ready, o->threads);
	work_gate_init(&go, o->threads);
	for (t = 0; t < o->threads; t++) {
		w[t] = (struct worker){ .row = r, .out = samples + t * o->iters,
					.n = o->iters, .ready = &ready, .go = &go,
					.is_main = t == 0 };
		if (t > 0)
			work_thread_start(&tid[t], worker_run, &w[t]);
	}
	worker_run(&w[0]);
	for (t = 1; t < o->threads; t++)
		work_thread_join(tid[t]);
	after = bench_usage_now();
	res->minflt = bench_usage_delta(w[0].before, after).minflt;
	res->via_mmap = r->kind == ROW_MALLOC && next_block_is_mmapped(r->size);
	pthread_barrier_destroy(&ready);
	pthread_barrier_destroy(&go);
}

/* ----------------------------------------------------------------- main */

/* --self-test drives the pool above through its four calls, and the kit
 * checks every rule it can see. */
static struct pool test_pool;
static const struct pool_test pool_test = {
	&test_pool, &test_pool.base, pool_init, pool_get, pool_put, pool_destroy,
};

int main(int argc, char **argv)
{
	struct run run = { .run_row = run_row_here };
	struct options o;
	double t0 = bench_now();

	cli_start(argv[0]);
	o = parse_options(argc, argv);
	if (o.self_test)
		return pool_self_test(csv_output(&o), &pool_test);
	/* One allocating row in a process that has done nothing yet is already
	 * isolated; more than one gets a child each, unless --history. */
	run.isolate = !o.history && o.last > o.first;
	samples = map_samples((size_t)o.iters * o.threads);
	run.res = map_results();

	env_print_header_unless_csv(csv_output(&o));
	run.tpn = set_up_clock(&o);
	if (o.mlock && !run.isolate)
		run.mlock_err = lock_memory();
	if (!csv_output(&o))
		print_preamble(&o, &run);
	print_table_head(&o);
	measure_rows(&o, &run);
	if (csv_output(&o))
		print_mlock(&o, run.mlock_err);
	else
		print_summary(&o, &run, t0);
	return 0;
}
