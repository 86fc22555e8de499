/*
 * arenas.c - Lab 6: memory that threads keep (arenas, RSS and malloc_trim).
 *
 * A service's worker threads each handle requests: a request allocates a
 * burst of small and medium blocks, writes them, frees them, and keeps one
 * of them in a small live set (a cache that forgets its oldest entry).
 * glibc gives each thread its own arena, up to 8 per CPU, and an arena
 * keeps the pages of its largest burst: the freed chunks lie between the
 * live ones, so the heap cannot shrink from the top.  Resident memory
 * grows with the number of threads while the bytes live stay the same.
 * MALLOC_ARENA_MAX=2 (or glibc.malloc.arena_max=2) makes the threads share
 * two arenas; malloc_trim(0) hands the free pages inside every arena back
 * with madvise(MADV_DONTNEED).
 *
 * Build: make arenas
 * Run:   ./arenas --threads 8               eight workers, glibc's defaults
 *        MALLOC_ARENA_MAX=2 ./arenas --threads 8    two arenas for all
 *        ./arenas --threads 8 --trim        malloc_trim(0) after the burst
 *        make lab6                          1 to MAX_THREADS threads (16 x CPUs,
 *                                           at most 64), the three side by side
 *        make lab6-tunables                 arena_max, trim_threshold, --trim
 *        make lab6-strace                   what malloc_trim calls (madvise)
 * Look at: "RssAnon after" against "live after" (the bytes the program
 *        really holds), "arenas" against "predicted", and the RssAnon
 *        before and after malloc_trim.
 */
#include "tools/include/bench.h"    /* the clock, getrusage */
#include "tools/include/work.h"     /* random sizes, threads and their gate, the sink */
#include "tools/include/arenas.h"   /* the burst's sizes, options, prediction, report */

#include <malloc.h>
#include <pthread.h>
#include <sys/prctl.h>

/* ---------------------------------------------------------------- workers */

/* Three blocks in four small, one medium. */
static uint32_t block_size(uint64_t *state)
{
	uint64_t r = work_random(state);

	if (r % 4)
		return 16 + (uint32_t)((r >> 8) % (SMALL_MAX - 15));
	return SMALL_MAX + 1 + (uint32_t)((r >> 8) % (MEDIUM_MAX - SMALL_MAX));
}

struct block {
	void *p;
	uint32_t size;
};

struct worker {
	pthread_t tid;
	const struct options *o;
	unsigned index;
	unsigned slots;           /* its share of the live set */
	uint64_t requests, calls;
};

static pthread_barrier_t gate_all;   /* main and every worker */
static unsigned workers_done;        /* workers whose requests are over */

static void gate(void)
{
	work_gate(&gate_all);
}

static void *new_block(uint32_t size)
{
	void *p = malloc(size);

	if (!p)
		die("malloc(%" PRIu32 ") failed", size);
	memset(p, 'r', size);     /* a request writes what it allocates */
	work_sink(p);
	count_alloc(size);
	return p;
}

static void drop_block(struct block *b)
{
	if (!b->p)
		return;
	free(b->p);
	count_free(b->size);
	b->p = NULL;
}

/* One request: a burst, one block kept (it replaces the oldest in this
 * thread's share of the live set), the rest freed.  The kept block lies
 * among the freed ones: that is what stops the heap shrinking. */
static void handle_request(struct worker *w, struct block *burst, struct block *ring,
			   unsigned round, uint64_t *state)
{
	unsigned n = w->o->blocks, keep;

	if (work_random(state) % BIG_EVERY == 0)
		n *= BIG_TIMES;
	for (unsigned i = 0; i < n; i++) {
		burst[i].size = block_size(state);
		burst[i].p = new_block(burst[i].size);
	}
	keep = (unsigned)(work_random(state) % n);
	drop_block(&ring[round % w->slots]);
	ring[round % w->slots] = burst[keep];
	burst[keep].p = NULL;
	for (unsigned i = 0; i < n; i++)
		drop_block(&burst[i]);
	w->requests++;
	w->calls += 2ull * n;
}

static void *run_worker(void *arg)
{
	struct worker *w = arg;
	const struct options *o = w->o;
	uint64_t state = o->seed * 1000003u + w->index;
	/* These two are this thread's first mallocs: they create its arena
	 * before the start gate, as a real worker's first request would. */
	struct block *burst = calloc((size_t)o->blocks * BIG_TIMES, sizeof *burst);
	struct block *ring = calloc(w->slots, sizeof *ring);

	if (!burst || !ring)
		die("calloc for a burst of %u blocks failed", o->blocks * BIG_TIMES);
	gate();         /* every thread has its arena: go */
	for (unsigned r = 0; r < o->rounds; r++)
		handle_request(w, burst, ring, r, &state);
	__atomic_add_fetch(&workers_done, 1, __ATOMIC_RELEASE);
	gate();         /* main measures, trims, measures again */
	gate();         /* then the live set goes */
	for (unsigned i = 0; i < w->slots; i++)
		drop_block(&ring[i]);
	free(ring);
	free(burst);
	return NULL;
}

/* ------------------------------------------------------------------- run */

/* Exercise: --trim's call once the burst is over and most blocks are
 * freed: hand the free memory inside every arena back to the kernel, and
 * return what glibc said (1: some memory went back).  Its effect is what
 * "RssAnon trimmed" shows.
 * Its region may use libc's names (tools/exercises/libc.uses) and those
 * of lab6.give_memory_back.uses; make check names any rule it breaks. */
/* BEGIN EXERCISE lab6.give_memory_back */
static int give_memory_back(void)
{
	return malloc_trim(0);
}
/* END EXERCISE lab6.give_memory_back */

/* Sleep a millisecond between RssAnon samples (nanosleep: no malloc). */
static void sample_until_done(const struct options *o, struct result *r)
{
	struct timespec ms = { 0, 1000000 };

	do {
		struct status s = read_status();

		if (s.anon_kib > r->anon_peak_kib)
			r->anon_peak_kib = s.anon_kib;
		r->samples++;
		nanosleep(&ms, NULL);
	} while (__atomic_load_n(&workers_done, __ATOMIC_ACQUIRE) < o->threads);
}

static struct result run(const struct options *o)
{
	struct worker *w = calloc(o->threads, sizeof *w);
	struct result r;
	struct bench_usage u0;
	double t0;

	if (!w)
		die("calloc(%u workers) failed", o->threads);
	memset(&r, 0, sizeof r);
	work_gate_init(&gate_all, o->threads + 1);
	cli_progress(1, "starting the threads");
	r.before = read_status();
	for (unsigned i = 0; i < o->threads; i++) {
		w[i].o = o;
		w[i].index = i;
		/* The live set shared out: the first LIVE % THREADS get one more. */
		w[i].slots = o->live / o->threads + (i < o->live % o->threads);
		if (!w[i].slots)
			w[i].slots = 1;
		work_thread_start(&w[i].tid, run_worker, &w[i]);
	}
	r.start = read_status();   /* the workers wait at the gate */
	r.anon_peak_kib = r.start.anon_kib;
	cli_progress(1, "requests");
	u0 = bench_usage_now();
	t0 = bench_now();
	gate();
	sample_until_done(o, &r);
	gate();
	r.seconds = bench_now() - t0;
	r.use = bench_usage_delta(u0, bench_usage_now());
	r.after = read_status();
	r.live_after = __atomic_load_n(&live_now, __ATOMIC_RELAXED);
	r.live_peak = __atomic_load_n(&live_peak, __ATOMIC_RELAXED);
	r.view = take_mallinfo();
	if (o->trim) {
		cli_progress(1, "malloc_trim(0)");
		t0 = bench_now();
		r.trim_result = give_memory_back();
		r.trim_seconds = bench_now() - t0;
		r.trimmed = read_status();
		r.view_trimmed = take_mallinfo();
	}
	r.arenas = count_arenas();
	cli_progress(1, "freeing");
	gate();
	for (unsigned i = 0; i < o->threads; i++) {
		work_thread_join(w[i].tid);
		r.requests += w[i].requests;
		r.calls += w[i].calls;
		r.live_blocks += o->rounds < w[i].slots ? o->rounds : w[i].slots;
	}
	cli_progress_done();
	pthread_barrier_destroy(&gate_all);
	free(w);
	return r;
}

int main(int argc, char **argv)
{
	struct options o;
	struct arena_prediction a;
	struct result r;

	cli_start(argv[0]);
	o = parse_options(argc, argv);
	/* Huge pages are the kernel's policy, not malloc's: under THP "always"
	 * khugepaged may fold an arena's sparse pages into a 2 MiB page at any
	 * moment, and what stays resident after malloc_trim(0) is then the
	 * kernel's doing.  Off for this process, so RSS is malloc's alone. */
	if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0)
		die("prctl(PR_SET_THP_DISABLE)");
	env_print_header_unless_csv(o.output == OUTPUT_CSV);
	if (o.output != OUTPUT_CSV)
		printf("# transparent huge pages disabled for this process\n");
	a = predict_arenas(o.threads);
	r = run(&o);
	if (o.output == OUTPUT_CSV)
		print_csv(&o, &r, &a);
	else
		print_report(&o, &r, &a);
	return 0;
}
