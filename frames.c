/*
 * frames.c - Lab 1: 63 MiB a frame.
 *
 * A video pipeline allocates one 3840x2160 frame of 64-bit pixels
 * (66,355,200 bytes), renders into it, checks it and frees it, 100 times.
 * By default glibc serves every such block with a fresh mmap() and returns
 * it with munmap(), so every page of every frame faults: twice on most
 * kernels, where the renderer's read of a fresh page maps the shared zero
 * page and its write then faults again for a private copy; once on kernels
 * that allocate on the read (the header says which).  --tune keeps the
 * memory between frames with two mallopt() calls; the faults vanish, the
 * program runs several times faster, and a bug appears: malloc() never
 * promised a black frame, and a reused frame still holds the last one.
 *
 * Build: make frames                (or: make CC=clang OPT=-O0 frames)
 * Run:   ./frames --alloc malloc    the skeleton as shipped
 *        ./frames --tune --alloc malloc        faster, and corrupt
 *        ./frames --tune                       calloc: fast and correct
 *        make run                              the whole walkthrough
 * Look at: minor faults (and faults/frame against the prediction), time,
 *        corrupt pixels, and which frames came from mmap.
 * Read on: the frame and its renderer, new_frame() (an exercise), the loop,
 * tune_allocator() (an exercise), main().  What measures and reports is
 * the kit's: tools/kit/frames.c, declared in tools/include/frames.h.
 */
#include "tools/include/bench.h"    /* the clock, getrusage */
#include "tools/include/work.h"     /* the sink: the work is not optimised away */
#include "tools/include/frames.h"   /* the kit: options, prediction, report */

/* ------------------------------------------------------------ the work */

/* A pixel is four 16-bit channels: alpha (always opaque, so no pixel is
 * 0), a blue that changes per frame, a green gradient down and a red one
 * across.  The top three channels are the same along a row. */
static inline uint64_t row_colour(size_t y, unsigned frame)
{
	return (0xffffull << 48) | ((uint64_t)(frame * 601u & 0xffff) << 32) |
	       ((uint64_t)(y * 30u & 0xffff) << 16);
}

static inline uint64_t pixel(uint64_t row, size_t x)
{
	return row | ((x * 17u) & 0xffff);
}

/*
 * Composite this frame's picture onto the buffer, row by row.  Like a real
 * compositor it first looks at what it draws over: a blank row takes the
 * fast path (plain stores), anything else is blended (added).  On a black
 * frame both give the same picture.  The look is a separate pass on
 * purpose: a read-modify-write instruction faults once, as a write, while
 * a read that comes first faults on its own and maps the zero page; this
 * way every compiler and -O level makes the same faults.
 */
static void render_frame(uint64_t *f, size_t npix, unsigned frame)
{
	for (size_t start = 0, y = 0; start < npix; start += WIDTH, y++) {
		size_t w = npix - start < WIDTH ? npix - start : WIDTH;
		uint64_t *row = f + start, seen = 0, c = row_colour(y, frame);

		for (size_t x = 0; x < w; x++)
			seen |= row[x];
		if (seen == 0)
			for (size_t x = 0; x < w; x++)
				row[x] = pixel(c, x);
		else
			for (size_t x = 0; x < w; x++)
				row[x] += pixel(c, x);
	}
}

/* Count sampled pixels that differ from the picture drawn on black.
 * *sampled gets how many were looked at. */
static uint64_t check_frame(const uint64_t *f, size_t npix, unsigned frame, uint64_t *sampled)
{
	uint64_t bad = 0, n = 0;

	/* WIDTH is a multiple of SAMPLE_STRIDE, so every row starts on a sample. */
	for (size_t start = 0, y = 0; start < npix; start += WIDTH, y++) {
		size_t w = npix - start < WIDTH ? npix - start : WIDTH;
		uint64_t c = row_colour(y, frame);

		for (size_t x = 0; x < w; x += SAMPLE_STRIDE, n++)
			bad += f[start + x] != pixel(c, x);
	}
	*sampled += n;
	return bad;
}

/* Exercise: a frame for the renderer, which draws on black: every byte of
 * the block new_frame() returns must be 0, also when free() kept the last
 * frame's memory (--tune).  --alloc frame runs it; corrupt pixels count
 * what was not black.
 * Its region may use libc's names (tools/exercises/libc.uses) and those
 * of lab1.new_frame.uses; make check names any rule it breaks. */
/* BEGIN EXERCISE lab1.new_frame */
static uint64_t *new_frame(size_t bytes)
{
	return calloc(1, bytes);
}
/* END EXERCISE lab1.new_frame */

/* The per-frame allocation, as each variant of the program writes it.
 * work_sink() stops the compiler from turning malloc + reads into calloc
 * (which would hide the bug) or deleting the memset. */
static uint64_t *alloc_frame(enum alloc_kind kind, size_t bytes)
{
	void *p = kind == ALLOC_FRAME ? new_frame(bytes) :
		  kind == ALLOC_CALLOC ? calloc(1, bytes) : malloc(bytes);

	if (!p)
		die("cannot allocate a frame of %zu bytes", bytes);
	work_sink(p);
	if (kind == ALLOC_MEMSET)
		memset(p, 0, bytes);
	work_sink(p);
	return p;
}

/* ------------------------------------------------------------- the loop */

/*
 * The lab: allocate, render, check and free a frame, again and again,
 * timed and with the process's page faults counted around the loop.  The
 * kit's watch_*() calls (tools/kit/frames.c) note where the heap
 * starts and which frames came from mmap, for the prediction.  Nothing in
 * this loop prints: a stdio buffer allocated here could land above the
 * frame and pin the heap top.
 */
static struct result run_frames(const struct options *o, const char *heap_lo)
{
	struct result r = { 0 };
	struct bench_usage u0;
	uint64_t seed = 0x9e3779b97f4a7c15ull, *once = NULL;
	double t0;

	watch_loop_start(&r, heap_lo);
	u0 = bench_usage_now();
	t0 = bench_now();
	if (o->alloc == ALLOC_ONCE) {
		once = alloc_frame(ALLOC_MALLOC, o->size + o->vary);
		watch_frame(&r, once, heap_lo);
	}
	for (unsigned i = 0; i < o->frames; i++) {
		size_t bytes = frame_size(o, &seed);
		uint64_t *f;

		if (once) {
			f = once;
			memset(f, 0, bytes);
		} else {
			f = alloc_frame(o->alloc, bytes);
			watch_frame(&r, f, heap_lo);
		}
		render_frame(f, bytes / sizeof *f, i);
		r.corrupt += check_frame(f, bytes / sizeof *f, i, &r.sampled);
		if (bytes > r.max_bytes)
			r.max_bytes = bytes;
		work_sink(f);
		if (!once)
			free(f);
		/* After free(), between frames; --csv too (stdout is the CSV,
		 * stderr still the person watching). */
		if (cli_progress_due(i == 0))
			cli_progress(1, "frame %u/%u, %ld faults so far", i + 1, o->frames,
				     bench_usage_now().minflt - u0.minflt);
	}
	cli_progress_done();
	if (once) {
		work_sink(once);
		free(once);
	}
	r.seconds = bench_now() - t0;
	r.use = bench_usage_delta(u0, bench_usage_now());
	watch_loop_end(&r);
	return r;
}

/* Exercise: make free() keep a frame's memory for the next frame, so
 * that only the first frame faults.  --tune calls this before the first
 * frame; the prediction --tune prints is the tuned policy's (big blocks
 * from the heap, the heap never trimmed), so a tune_allocator() that does
 * not set it shows as faults far over the prediction.  mallopt() returns 1
 * for almost anything, so a 0 is worth stopping for; a 1 proves little.
 * Its region may use libc's names (tools/exercises/libc.uses) and those
 * of lab1.tune_allocator.uses; make check names any rule it breaks. */
/* BEGIN EXERCISE lab1.tune_allocator */
static void tune_allocator(int verbose)
{
	errno = 0;      /* mallopt() sets no errno: don't let die() blame a stale one */
	if (mallopt(M_MMAP_MAX, 0) != 1)
		die("mallopt(M_MMAP_MAX, 0) refused");
	if (mallopt(M_TRIM_THRESHOLD, -1) != 1)
		die("mallopt(M_TRIM_THRESHOLD, -1) refused");
	if (verbose)
		printf("tune: mallopt(M_MMAP_MAX, 0) = 1: big blocks come from the heap, not mmap\n"
		       "tune: mallopt(M_TRIM_THRESHOLD, -1) = 1: free() never shrinks the heap,\n"
		       "      so a frame's pages stay mapped for the next frame\n");
}
/* END EXERCISE lab1.tune_allocator */

/* --tune: the student's tune_allocator(), then the policy it is meant to
 * set, for the prediction (the model cannot see what mallopt() did). */
static void tune(struct model_policy *p, int verbose)
{
	tune_allocator(verbose);
	model_tune(p);
}

/* ----------------------------------------------------------------- main */

int main(int argc, char **argv)
{
	struct options o;
	struct model_policy pol;
	struct prediction pr;
	struct result r;
	struct trim_result t;
	const char *heap_lo;

	cli_start(argv[0]);
	o = parse_options(argc, argv);
	if (o.edge) {
		printf("%" PRIu64 "\n", threshold_edge());
		return 0;
	}
	heap_lo = sbrk(0);       /* where the brk heap starts */
	if (o.no_thp && prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0)
		die("prctl(PR_SET_THP_DISABLE)");
	pol = policy_from_environment();
	/* Print the header now: stdout's buffer is allocated on first use,
	 * and it should sit below the frames, not above them. */
	if (o.output == OUTPUT_REPORT)
		print_header(&o);
	if (o.tune)
		tune(&pol, o.output == OUTPUT_REPORT);
	fflush(stdout);

	r = run_frames(&o, heap_lo);
	t = trim_heap(o.trim);
	pr = predict_faults(&o, &pol, &r.heap, &r.where);
	if (o.output == OUTPUT_CSV)
		print_csv(&o, &r, &pr, &t);
	else
		print_report(&o, &r, &pr, &pol, &t);
	if (o.stats) {
		/* glibc's own view, on stderr: "system bytes" is the brk heap an
		 * arena holds, "mmap" the blocks mapped on their own. */
		fflush(stdout);
		malloc_stats();
	}
	return 0;
}
