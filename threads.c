/*
 * threads.c - Lab 3: large blocks from many threads (glibc bug 1541, 2005).
 *
 * The report's test, `malloc-test SIZE COUNT THREADS`: every thread keeps a
 * set of live work buffers, and COUNT times frees a random one and allocates
 * a new one of a random size up to SIZE, writing every page of it.  Before
 * glibc 2.5 every request at or above a fixed 128 KiB threshold was a
 * fresh mmap() (glibc-2.4 malloc/malloc.c:1461, 2797), so every page of
 * every buffer faulted and was zeroed, and the freed buffer went back to
 * the kernel with munmap().
 *
 * Every mode runs on the glibc this program is linked with, so each one
 * reproduces a policy, not the 2005 allocator:
 *   --mode pre25    the 128 KiB threshold, pinned: which requests are
 *                   mapped, and what a mapped one costs.
 *   --mode default  today's dynamic threshold (2.5 and later).
 *   --mode tuned    16 MiB mmap threshold, trim threshold twice that.
 *   --threshold 16M a 16 MiB threshold on today's glibc, whose thread heaps
 *                   reserve 64 MiB.  It is not the reporter's rebuilt glibc:
 *                   in 2.4 a thread's own arena grew in heaps of at most
 *                   1 MiB, so no threshold kept a 1.28 MB block in it, and
 *                   mallopt() refused thresholds above 512 KiB, which is
 *                   why the reporter rebuilt glibc (FURTHER.md, Lab 3, has
 *                   the lines at each tag).
 * None of them has 2.4's arenas: a thread then took the first arena it
 * could lock, the main one included; today each thread makes its own.
 *
 * Build: make threads
 * Run:   ./threads --mode pre25 1280000 2000 2     the old policy
 *        ./threads --mode tuned 1280000 2000 2     the same work, tuned
 *        ./threads --weak --live 245M --mode tuned 1280000 2000 1    one thread
 *                                    of the 2-thread --weak run: weak scaling
 *        make lab3 (or bug1541)      the report's cases at 1 and N threads,
 *                                    repeated, with the speed-up's range
 *        make lab3-tunables          the same policies set from outside
 *        make lab3-strace            the system calls behind them
 * Look at: minor faults against "mmapped pages" (the prediction: one fault
 *        per page written in a block that came straight from mmap), sys
 *        time, and time per request at 1 thread and at N threads.
 */
#include "tools/include/bench.h"     /* the clock, getrusage */
#include "tools/include/work.h"      /* random sizes, threads and their gate, the sink */
#include "tools/include/threads.h"   /* options, the policy, the geometry, report */

#include <limits.h>
#include <malloc.h>
#include <pthread.h>

#define OLD_THRESHOLD MODEL_MMAP_THRESHOLD   /* glibc's fixed threshold before 2.5 */
#define TUNED_THRESHOLD (16u << 20)    /* the reporter's threshold, on today's heaps */

/* ---------------------------------------------------------------- sizes */

/* The report's average request (421,006 B for SIZE 1,280,000) is a third
 * of SIZE, not half: its sizes leaned small.  SIZE x u^2 has mean SIZE/3. */
static uint64_t request_size(const struct options *o, uint64_t *state)
{
	double u;

	if (o->fixed)
		return o->size;
	u = (double)(work_random(state) >> 11) * 0x1.0p-53;
	return 1 + (uint64_t)(u * u * (double)(o->size - 1));
}

/* --------------------------------------------------------------- blocks */

/* One thread: its share of the live set, and what it did with it
 * (struct tally, tools/include/threads.h). */
struct worker {
	pthread_t tid;
	const struct options *o;
	unsigned index;
	uint64_t slots;           /* live blocks this thread keeps */
	uint64_t live_start, live_end;   /* bytes live when the timed part starts, ends */
	struct tally fill, churn;
};

/* Workers and main() meet around each measured phase, so that the
 * process-wide getrusage() snapshots bracket exactly one phase, and every
 * thread (and its arena) exists before the clock starts. */
static pthread_barrier_t phase_gate;

static void *new_block(uint64_t size, struct tally *t)
{
	void *p = malloc(size);

	if (!p)
		die("malloc(%" PRIu64 ") failed", size);
	/* Write every page, as a work buffer is used.  The sink keeps the
	 * compiler from deleting a memset whose bytes are never read. */
	memset(p, 'w', size);
	work_sink(p);
	count_block(t, p, size);
	return p;
}

static void gate(void)
{
	work_gate(&phase_gate);
}

static void *run_worker(void *arg)
{
	struct worker *w = arg;
	const struct options *o = w->o;
	/* --weak: every thread replays the sequence of a 1-thread run. */
	uint64_t state = o->seed * 1000003u + (o->weak ? 0 : w->index);
	void **live = calloc(w->slots, sizeof *live);
	uint64_t *len = calloc(w->slots, sizeof *len);

	if (!live || !len)
		die("calloc(%" PRIu64 " slots) failed", w->slots);
	for (uint64_t i = 0; i < w->slots; i++) {
		len[i] = request_size(o, &state);
		live[i] = new_block(len[i], &w->fill);
		w->live_start += len[i];
	}
	w->live_end = w->live_start;

	gate();   /* all filled: main takes a snapshot */
	gate();   /* go */
	for (uint64_t i = 0; i < o->count; i++) {
		uint64_t k = work_random(&state) % w->slots;

		free(live[k]);
		w->live_end -= len[k];
		len[k] = request_size(o, &state);
		live[k] = new_block(len[k], &w->churn);
		w->live_end += len[k];
	}
	gate();   /* all done: main takes a snapshot */
	gate();   /* main has read glibc's statistics: free everything */

	for (uint64_t i = 0; i < w->slots; i++)
		free(live[i]);
	free(live);
	free(len);
	return NULL;
}

/* Exercise: the policy that keeps the threads' buffers (up to SIZE bytes,
 * 1,280,000 in the report) out of mmap and their freed memory in the
 * heaps, for --mode tuned: the mmap threshold and the trim threshold in
 * bytes, each at most INT_MAX (0 leaves that one as glibc has it).  The
 * kit passes them to mallopt() before any thread starts and prints them.
 * Its region may use libc's names (tools/exercises/libc.uses) and those
 * of lab3.thread_policy.uses; make check names any rule it breaks. */
/* BEGIN EXERCISE lab3.thread_policy */
static void thread_policy(uint64_t *mmap_threshold, uint64_t *trim_threshold)
{
	*mmap_threshold = TUNED_THRESHOLD;
	/* Twice the threshold, as glibc's own dynamic rule sets it: freed
	 * memory at the top of a heap then stays for the next request
	 * instead of going back with madvise/brk and faulting again. */
	*trim_threshold = 2 * (uint64_t)TUNED_THRESHOLD;
}
/* END EXERCISE lab3.thread_policy */

/* Set up the allocator before any thread exists, on top of what the
 * environment set.  Pinning the mmap threshold (any value, by mallopt or
 * tunable) also switches off the dynamic adjustment that glibc 2.5 added:
 * that is what makes pre25 old. */
static struct policy apply_mode(const struct options *o)
{
	struct policy p = policy_from_environment();
	uint64_t mmap = 0, trim = 0;

	switch (o->mode) {
	case MODE_PRE25:
		mmap = o->threshold ? o->threshold : OLD_THRESHOLD;
		break;
	case MODE_DEFAULT:
		mmap = o->threshold;   /* 0: as the environment left it */
		break;
	case MODE_TUNED:
		if (!o->threshold) {
			thread_policy(&mmap, &trim);
			if (mmap > INT_MAX || trim > INT_MAX)
				die("thread_policy() chose %" PRIu64 " and %" PRIu64 " bytes: mallopt()"
				    " takes at most %d", mmap, trim, INT_MAX);
			break;
		}
		mmap = o->threshold;     /* --threshold: trim twice it, as above */
		trim = mmap * 2 > INT_MAX ? INT_MAX : mmap * 2;
		break;
	}
	if (mmap) {
		set_or_die(M_MMAP_THRESHOLD, "M_MMAP_THRESHOLD", mmap);
		p.mmap_threshold = mmap;
		p.mmap_from = "mallopt";
		p.dynamic = 0;
		p.pinned_by = "mallopt";
	}
	if (trim) {
		set_or_die(M_TRIM_THRESHOLD, "M_TRIM_THRESHOLD", trim);
		p.trim_threshold = trim;
		p.trim_from = "mallopt";
	}
	return p;
}

/* ------------------------------------------------------------------ run */

static struct result run(const struct options *o)
{
	struct result r;
	struct worker *w = calloc(o->threads, sizeof *w);
	struct bench_usage u0, u1, u2;
	double t0, t1, t2;
	long tlb1, tlb2;

	if (!w)
		die("calloc(%u workers) failed", o->threads);
	memset(&r, 0, sizeof r);
	r.view.arenas = -1;
	r.slots = (uint64_t)(o->live / (o->weak ? 1 : o->threads) / mean_request(o) + 0.5);
	if (r.slots < 1)
		r.slots = 1;
	work_gate_init(&phase_gate, o->threads + 1);

	cli_progress(1, "starting the threads and building the live set");
	u0 = bench_usage_now();
	t0 = bench_now();
	for (unsigned i = 0; i < o->threads; i++) {
		w[i].o = o;
		w[i].index = i;
		w[i].slots = r.slots;
		work_thread_start(&w[i].tid, run_worker, &w[i]);
	}
	gate();
	cli_progress(1, "timed part");
	u1 = bench_usage_now();
	tlb1 = tlb_shootdowns();
	t1 = bench_now();
	gate();         /* every thread is started, its arena made: go together */
	gate();
	t2 = bench_now();
	u2 = bench_usage_now();
	tlb2 = tlb_shootdowns();
	if (o->stats && env_malloc_is_glibc())
		r.view = take_glibc_view();
	cli_progress(1, "freeing");
	gate();
	for (unsigned i = 0; i < o->threads; i++) {
		work_thread_join(w[i].tid);
		add_tally(&r.fill, &w[i].fill);
		add_tally(&r.churn, &w[i].churn);
		r.live_start += w[i].live_start;
		r.live_end += w[i].live_end;
	}
	cli_progress_done();
	r.fill_s = t1 - t0;
	r.churn_s = t2 - t1;
	r.fill_use = bench_usage_delta(u0, u1);
	r.churn_use = bench_usage_delta(u1, u2);
	r.tlb_ipis = tlb1 < 0 || tlb2 < 0 ? -1 : tlb2 - tlb1;
	pthread_barrier_destroy(&phase_gate);
	free(w);
	return r;
}

int main(int argc, char **argv)
{
	struct options o;
	struct policy p;
	struct result r;

	cli_start(argv[0]);
	machine_setup();
	o = parse_options(argc, argv);
	env_print_header_unless_csv(o.output == OUTPUT_CSV);
	p = apply_mode(&o);
	r = run(&o);
	if (o.output == OUTPUT_CSV)
		print_csv(&o, &p, &r);
	else
		print_report(&o, &p, &r);
	return 0;
}
