/*
 * tools/grading/predict.c - the grader's expectations, from the kit's own
 * model of glibc malloc (tools/include/model.h) and its reading of the
 * malloc settings (tools/include/tunables.h), for a submission's machine
 * as its header describes it rather than for this one.
 *
 * A filter: one request a line on standard input, one answer a line on
 * standard output, in order.  A request is words KEY=VALUE separated by
 * single spaces, `id=N` first (1-9 digits), `kind=K` second; a key other
 * than env at most once.  The answer is `N ok KEY=VALUE ...` or
 * `N error REASON` (`0 error ...` when the id cannot be read).  The
 * numbers come from students' files: anything malformed is an error line
 * for that request, and the filter carries on.
 *
 * Machine keys (every kind): page=BYTES (a power of two, 1 KiB..1 GiB),
 * glibc=MAJOR.MINOR, bits=32|64 (default 64); rf=1|2 (frames, vary).
 *   frames  size= alloc= frames= tune= env=... top_offset= top_bytes=
 *           top_mapped= calls=A-B -> faults mmap_frames corrupt_pixels
 *           brk mmap munmap frame_pages
 *   vary    size= vary= frames= -> min_faults max_faults min_mmap_frames
 *           max_mmap_frames
 *   pre25   blocks= -> min_pages max_pages
 *   trim    live_blocks= arenas= start_kib= [after_kib=] -> max_kib
 *   block   size= [env=...] -> mapped page_offset align
 * Exit: 0 at the end of the input, every line answered; 2 bad usage or a
 * read or write error.
 */
#define _GNU_SOURCE
#include "../include/model.h"

#define LINE_MAX_BYTES 4096      /* a longer request is an error line */
#define WORDS_MAX 64
#define ENV_WORDS_MAX 32
#define COUNT_MAX 1000000000000ull   /* blocks, arenas, KiB: 10^12 at most */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s < REQUESTS\n"
		"Answers the grader's requests, one a line, from the kit's model of glibc\n"
		"malloc: `id=N kind=K KEY=VALUE ...` -> `N ok KEY=VALUE ...` or `N error WHY`.\n"
		"Kinds: frames, vary, pre25, trim, block (see the comment at the top of\n"
		"tools/grading/predict.c for their keys).\n", cli_prog);
}

/* ------------------------------------------------------------ a request */

struct request {
	const char *key[WORDS_MAX], *val[WORDS_MAX];
	int used[WORDS_MAX];
	int n;
	const char *env[ENV_WORDS_MAX];
	int n_env;
	struct model_machine mc;
	struct env_glibc glibc;
	char why[96];        /* the error, once there is one */
};

static int fail(struct request *q, const char *fmt, const char *arg)
{
	if (!q->why[0])
		snprintf(q->why, sizeof q->why, fmt, arg);
	return -1;
}

/* The value of key, or NULL; marks it read. */
static const char *get(struct request *q, const char *key)
{
	for (int i = 0; i < q->n; i++)
		if (!strcmp(q->key[i], key)) {
			q->used[i] = 1;
			return q->val[i];
		}
	return NULL;
}

/* Decimal digits only (no sign, no blanks), at most max. */
static int number(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		const uint64_t d = (uint64_t)(*s - '0');

		if (*s < '0' || *s > '9' || v > (UINT64_MAX - d) / 10 || (v = v * 10 + d) > max)
			return -1;
	}
	*out = v;
	return 0;
}

/* A required number key in [min, max]. */
static int need(struct request *q, const char *key, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *v = get(q, key);

	if (!v)
		return fail(q, "missing %s", key);
	if (number(v, max, out) || *out < min)
		return fail(q, "bad %s", key);
	return 0;
}

/* An optional one: dflt when absent. */
static int maybe(struct request *q, const char *key, uint64_t min, uint64_t max, uint64_t dflt,
		 uint64_t *out)
{
	if (!get(q, key)) {
		*out = dflt;
		return 0;
	}
	return need(q, key, min, max, out);
}

/* page, glibc, bits, and rf where the kind takes it. */
static int machine(struct request *q, int with_rf, int rf_required)
{
	const char *g = get(q, "glibc");
	uint64_t page, bits, rf = 2, major, minor;
	char *dot;

	if (need(q, "page", 1024, 1u << 30, &page) || (page & (page - 1)))
		return fail(q, "bad page", "");
	if (!g)
		return fail(q, "missing glibc", "");
	dot = strchr(g, '.');
	if (!dot || dot - g > 3) 
		return fail(q, "bad glibc", "");
	{
		char maj[4];

		snprintf(maj, sizeof maj, "%.*s", (int)(dot - g), g);
		if (number(maj, 99, &major) || number(dot + 1, 999, &minor) || major < 2)
			return fail(q, "bad glibc", "");
	}
	if (maybe(q, "bits", 32, 64, 64, &bits) || (bits != 32 && bits != 64))
		return fail(q, "bad bits", "");
	if (with_rf && (rf_required ? need(q, "rf", 1, 2, &rf) : maybe(q, "rf", 1, 2, 2, &rf)))
		return -1;
	q->glibc.major = (int)major, q->glibc.minor = (int)minor;
	q->mc.page = page, q->mc.bits = (int)bits, q->mc.read_faults_per_page = (int)rf;
	q->mc.glibc_minor = model_glibc_minor(q->glibc);
	return 0;
}

/* The malloc policy the request's env words make under its glibc. */
static struct model_policy policy(const struct request *q)
{
	static struct env_malloc m;

	env_malloc_policy_of(&m, q->env, q->n_env, q->glibc, q->mc.bits);
	return model_policy_from_env(&m);
}

/* A size as frames --size takes it (digits, K/M/G), within frames' bounds. */
static int frame_size(struct request *q, const char *key, uint64_t min, uint64_t *out)
{
	const char *v = get(q, key);

	if (!v)
		return fail(q, "missing %s", key);
	if (cli_parse_size(v, min, 1ull << 36, out))
		return fail(q, "bad %s", key);
	return 0;
}

/* ------------------------------------------------------------ the kinds */

/*
 * The heap a file says its run found before the loop (frames' heap_top_*
 * columns) is the student's word, and it moves what the model expects: a
 * top already mapped costs no faults.  So it is held to what frames'
 * start-up can make (make_sure_heap_exists(), tools/kit/frames.c):
 * one sbrk, of the first block (the per-thread cache, or frames' own half
 * page) plus top_pad, which the first heap (start) is, give or take that
 * half page; and of the top's pages only the first two written (the
 * headers malloc writes at either end of that block).  A forged heap is an
 * error line: its checks fail, never pass.
 */
static int heap_forged(struct request *q, const struct model_heap *h, const struct model_heap *start)
{
	const uint64_t page = q->mc.page;

	if (h->top_offset + h->top_bytes > start->top_offset + start->top_bytes + page)
		return fail(q, "a heap larger than frames' start-up makes", "");
	for (int i = 0; i < h->mapped.n; i++)
		if (h->mapped.hi[i] > 2)
			return fail(q, "top pages mapped that frames' start-up never writes", "");
	return 0;
}

/* Lab 1 and Lab 4: one frames run replayed (model_replay()). */
static int kind_frames(struct request *q, char *out, size_t len)
{
	const char *a, *off = get(q, "top_offset"), *bytes = get(q, "top_bytes");
	const char *runs = get(q, "top_mapped"), *calls = get(q, "calls");
	uint64_t size, frames, tune, lo = 3, hi = 4;
	struct model_policy pol;
	struct model_heap h, start;
	struct model_run run;
	struct model_result r;
	int alloc = MODEL_CALLOC;      /* frames' default */

	if (machine(q, 1, 1))
		return -1;
	if (!get(q, "size"))
		size = MODEL_FRAME_BYTES;
	else if (frame_size(q, "size", MODEL_FRAME_WIDTH * MODEL_PIXEL_BYTES, &size))
		return -1;
	size &= ~(uint64_t)(MODEL_PIXEL_BYTES - 1);     /* whole pixels, as frames does */
	if ((a = get(q, "alloc"))) {
		for (alloc = 0; alloc < (int)MODEL_ALLOCS && strcmp(a, model_alloc_names[alloc]); alloc++)
			;
		if (alloc == (int)MODEL_ALLOCS)
			return fail(q, "bad alloc", "");
	}
	if (need(q, "frames", 1, MODEL_FRAMES_MAX, &frames) || maybe(q, "tune", 0, 1, 0, &tune))
		return -1;
	if (calls) {
		char *dash = strchr(calls, '-');
		char first[16];

		if (!dash || dash - calls >= (long)sizeof first)
			return fail(q, "bad calls", "");
		snprintf(first, sizeof first, "%.*s", (int)(dash - calls), calls);
		if (number(first, MODEL_FRAMES_MAX, &lo) || number(dash + 1, MODEL_FRAMES_MAX, &hi) ||
		    lo < 1 || lo > hi)
			return fail(q, "bad calls", "");
	}
	pol = policy(q);
	start = model_heap_first(&q->mc, &pol);    /* before --tune: its mallopt comes later */
	if (tune)
		model_tune(&pol);
	if (!off && !bytes && !runs) {
		h = model_heap_first(&q->mc, &pol);
	} else if (!off || !bytes || !runs) {
		return fail(q, "top_offset, top_bytes, top_mapped: all or none", "");
	} else {
		memset(&h, 0, sizeof h);
		if (number(off, q->mc.page - 1, &h.top_offset))
			return fail(q, "bad top_offset", "");
		if (number(bytes, MODEL_BYTES_MAX, &h.top_bytes))
			return fail(q, "bad top_bytes", "");
		for (const char *s = runs; *s; ) {
			char piece[48], *dash;
			size_t n = strcspn(s, ";");
			uint64_t rlo, rhi;

			if (n == 0 || n >= sizeof piece)
				return fail(q, "bad top_mapped", "");
			snprintf(piece, sizeof piece, "%.*s", (int)n, s);
			dash = strchr(piece, '-');
			if (!dash)
				return fail(q, "bad top_mapped", "");
			*dash = '\0';
			if (number(piece, MODEL_BYTES_MAX, &rlo) || number(dash + 1, MODEL_BYTES_MAX, &rhi) ||
			    rlo > rhi)
				return fail(q, "bad top_mapped", "");
			if (model_pages_map(&h.mapped, rlo, rhi + 1) < 0)
				return fail(q, "more page runs than the model holds", "");
			s += n + (s[n] == ';');
			if (s[-1] == ';' && !*s)
				return fail(q, "bad top_mapped", "");
		}
		if (heap_forged(q, &h, &start))
			return -1;
	}
	run.size = size, run.alloc = (enum model_alloc)alloc, run.frames = (unsigned long)frames;
	run.calls_lo = (unsigned long)lo, run.calls_hi = (unsigned long)hi;
	switch (model_replay(&q->mc, &pol, &h, &run, &r)) {
	case MODEL_OK:
		break;
	case MODEL_TOO_MANY_RUNS:
		return fail(q, "more page runs than the model holds", "");
	case MODEL_TOO_LARGE:
		return fail(q, "numbers too large to model", "");
	}
	snprintf(out, len, "faults=%" PRIu64 " mmap_frames=%lu corrupt_pixels=%" PRIu64
		 " brk=%lu mmap=%lu munmap=%lu frame_pages=%" PRIu64,
		 r.faults, r.mmap_frames, r.corrupt, r.brk, r.mmap, r.munmap,
		 model_pages_of(model_chunk_sizes(&q->mc, size).offset + size, q->mc.page));
	return 0;
}

/*
 * Lab 4's 8 MiB +- 1.5 MiB (frames --vary): the threshold rises only to
 * the largest block freed so far, so a larger one maps again, and which
 * frames map depends on the order the sizes come in.  Bounds only: at
 * least one mapped frame, and the pages of min(N, 2) of the smallest
 * blocks (the first frame is mapped, the second at least grows the heap
 * by one); at most N of the largest, every frame mapped.  A mapped frame
 * spans the block plus where it starts in its mapping.  Give or take 2
 * pages a frame, the grader's allowance for the pages the chunk headers
 * land on (tools/grading/grade.awk, check_vary, added to the step's own
 * tolerance there).
 */
static int kind_vary(struct request *q, char *out, size_t len)
{
	uint64_t size, vary, n, off, pmin, pmax;

	if (machine(q, 1, 0) || frame_size(q, "size", MODEL_FRAME_WIDTH * MODEL_PIXEL_BYTES, &size) ||
	    frame_size(q, "vary", 0, &vary) || need(q, "frames", 1, MODEL_FRAMES_MAX, &n))
		return -1;
	size &= ~(uint64_t)(MODEL_PIXEL_BYTES - 1);
	if (vary > size)
		return fail(q, "vary is more than size", "");
	off = model_chunk_sizes(&q->mc, size).offset;
	pmin = model_pages_of(size - vary + off, q->mc.page);
	pmax = model_pages_of(size + vary + off, q->mc.page);
	snprintf(out, len, "min_faults=%" PRId64 " max_faults=%" PRIu64
		 " min_mmap_frames=1 max_mmap_frames=%" PRIu64,
		 (int64_t)((n < 2 ? n : 2) * pmin) - (int64_t)(2 * n), n * pmax + 2 * n, n);
	return 0;
}

/*
 * Lab 3's pre25 run pins the threshold at 128 KiB: every request whose
 * chunk reaches it is a mapping of its own, each page written once.  The
 * smallest such block is a chunk of exactly the threshold (request
 * threshold - SIZE_SZ: request2size adds SIZE_SZ and rounds up to
 * MALLOC_ALIGNMENT); the largest is the run's largest request.  Each spans
 * the pages of its mapping (model_chunk_sizes: the chunk plus its size
 * field, malloc.c sysmalloc_mmap; 131,080 and 1,280,024 bytes on 64-bit
 * up to 2.42).
 */
static int kind_pre25(struct request *q, char *out, size_t len)
{
	uint64_t blocks, lo, hi;

	if (machine(q, 0, 0) || need(q, "blocks", 0, COUNT_MAX, &blocks))
		return -1;
	lo = model_chunk_sizes(&q->mc, MODEL_MMAP_THRESHOLD - model_size_sz(&q->mc)).mapped / q->mc.page;
	hi = model_chunk_sizes(&q->mc, MODEL_LAB3_SIZE).mapped / q->mc.page;
	snprintf(out, len, "min_pages=%" PRIu64 " max_pages=%" PRIu64, blocks * lo, blocks * hi);
	return 0;
}

/*
 * Lab 6's malloc_trim(0) hands back every whole page inside a free chunk;
 * it keeps the pages a live block touches (a chunk of the largest medium
 * block, 16 KiB + 16 B on 64-bit, spans ceil(chunk / page) + 1 pages),
 * the page a free chunk's header sits on (one a live block) and an
 * arena's own header pages (2 each).  So after the trim RssAnon is at most
 * what the process had before its burst plus that many pages, and never
 * more than before the trim (after_kib).
 */
static int kind_trim(struct request *q, char *out, size_t len)
{
	uint64_t live, arenas, start, after, span, pages, kib;

	if (machine(q, 0, 0) || need(q, "live_blocks", 0, COUNT_MAX, &live) ||
	    need(q, "arenas", 0, COUNT_MAX, &arenas) || need(q, "start_kib", 0, COUNT_MAX, &start) ||
	    maybe(q, "after_kib", 0, COUNT_MAX, UINT64_MAX, &after))
		return -1;
	span = model_pages_of(model_chunk_sizes(&q->mc, MODEL_LAB6_MEDIUM_MAX).nb, q->mc.page) + 2;
	if (__builtin_mul_overflow(live, span, &pages) ||
	    __builtin_add_overflow(pages, 2 * arenas, &pages) ||
	    __builtin_mul_overflow(pages, q->mc.page / 1024, &kib) ||
	    __builtin_add_overflow(kib, start, &kib))
		return fail(q, "numbers too large to model", "");
	snprintf(out, len, "max_kib=%" PRIu64, kib < after ? kib : after);
	return 0;
}

/*
 * Lab 5: does malloc(size) in a fresh process come from mmap?  Where the
 * heap its first malloc made (model_heap_first) cannot hold the chunk, a
 * chunk of at least the threshold is mapped (sysmalloc) if mmap_max
 * allows.  A mapped block's user bytes start page_offset bytes into their
 * page (model_chunk_sizes: 16 on x86-64 and on i386, whose
 * MALLOC_ALIGNMENT 16 puts the chunk 8 bytes in); a heap block is aligned
 * to MALLOC_ALIGNMENT (align), and so is a mapped one.
 */
static int kind_block(struct request *q, char *out, size_t len)
{
	uint64_t size;
	struct model_policy pol;
	struct model_heap h;
	struct model_chunk c;
	int mapped;

	if (machine(q, 0, 0) || need(q, "size", 0, MODEL_BYTES_MAX, &size))
		return -1;
	pol = policy(q);
	h = model_heap_first(&q->mc, &pol);
	c = model_chunk_sizes(&q->mc, size);
	mapped = h.top_bytes < c.nb + model_minsize(&q->mc) && c.nb >= pol.mmap_threshold &&
		 pol.mmap_max > 0;
	snprintf(out, len, "mapped=%d page_offset=%" PRIu64 " align=%" PRIu64, mapped,
		 mapped ? c.offset : 0, model_align(&q->mc));
	return 0;
}

struct kind {
	const char *name;
	int (*answer)(struct request *q, char *out, size_t len);
};

static const struct kind kinds[] = {
	{ "frames", kind_frames }, { "vary", kind_vary }, { "pre25", kind_pre25 },
	{ "trim", kind_trim }, { "block", kind_block },
};

/* ------------------------------------------------------------ a line */

/* Splits the line into words (in place) and answers it into out. */
static unsigned long answer(char *line, char *out, size_t len)
{
	static struct request q;
	const struct kind *k = NULL;
	unsigned long id = 0;
	uint64_t v;
	char *w = line;

	memset(&q, 0, sizeof q);
	for (;;) {
		char *sp = strchr(w, ' '), *eq;

		if (sp)
			*sp = '\0';
		eq = strchr(w, '=');
		if (q.n == 0) {
			if (!eq || strncmp(w, "id=", 3) || strlen(eq + 1) > 9 || number(eq + 1, 999999999, &v) || v == 0)
				return snprintf(out, len, "0 error bad id"), 0;
			id = (unsigned long)v;
		}
		if (!eq || eq == w) {
			fail(&q, "malformed word", "");
			break;
		}
		*eq = '\0';
		if (!strcmp(w, "env")) {
			if (q.n_env == ENV_WORDS_MAX || !strchr(eq + 1, '=')) {
				fail(&q, q.n_env == ENV_WORDS_MAX ? "too many env words" : "bad env", "");
				break;
			}
			q.env[q.n_env++] = eq + 1;
		} else {
			if (q.n == WORDS_MAX) {
				fail(&q, "too many words", "");
				break;
			}
			for (int i = 0; i < q.n; i++)
				if (!strcmp(q.key[i], w))
					fail(&q, "a key given twice", "");
			q.key[q.n] = w, q.val[q.n] = eq + 1, q.n++;
		}
		if (!sp)
			break;
		w = sp + 1;
	}
	if (!q.why[0] && (q.n < 2 || strcmp(q.key[1], "kind")))
		fail(&q, "kind must come second", "");
	for (size_t i = 0; !q.why[0] && i < sizeof kinds / sizeof kinds[0]; i++)
		if (!strcmp(q.val[1], kinds[i].name))
			k = &kinds[i];
	if (!q.why[0] && !k)
		fail(&q, "unknown kind", "");
	get(&q, "id"), get(&q, "kind");
	if (!q.why[0]) {
		char body[256];

		if (k->answer(&q, body, sizeof body) == 0) {
			for (int i = 0; i < q.n; i++)
				if (!q.used[i])
					return snprintf(out, len, "%lu error unknown key %.32s", id, q.key[i]), id;
			return snprintf(out, len, "%lu ok %s", id, body), id;
		}
	}
	snprintf(out, len, "%lu error %s", id, q.why);
	return id;
}

/* One line into buf; 1 when it fit, 0 when it was longer (the rest read
 * and dropped), -1 at the end of the input. */
static int read_line(char *buf, size_t len)
{
	size_t n;
	int c;

	if (!fgets(buf, (int)len, stdin))
		return -1;
	n = strlen(buf);
	if (n > 0 && buf[n - 1] == '\n') {
		buf[n - 1] = '\0';
		return 1;
	}
	if (feof(stdin))
		return 1;
	while ((c = getchar()) != EOF && c != '\n')
		;
	return 0;
}

int main(int argc, char **argv)
{
	static char line[LINE_MAX_BYTES + 2];
	char out[512];
	int r;

	cli_prog = "predict";
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		usage(stdout);
		return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2;
	}
	if (argc > 1) {
		fprintf(stderr, "%s: takes no arguments\n", cli_prog);
		usage(stderr);
		return 2;
	}
	while ((r = read_line(line, sizeof line)) >= 0) {
		if (r == 0) {
			/* too long to trust; say which id if it starts as one */
			char *sp = strchr(line, ' ');
			uint64_t id;

			if (sp)
				*sp = '\0';
			if (strncmp(line, "id=", 3) || strlen(line + 3) > 9 || number(line + 3, 999999999, &id) || !id)
				id = 0;
			snprintf(out, sizeof out, "%" PRIu64 " error line too long", id);
		} else {
			answer(line, out, sizeof out);
		}
		if (printf("%s\n", out) < 0 || fflush(stdout) != 0) {
			fprintf(stderr, "%s: write error: %s\n", cli_prog, strerror(errno));
			return 2;
		}
	}
	if (ferror(stdin)) {
		fprintf(stderr, "%s: read error: %s\n", cli_prog, strerror(errno));
		return 2;
	}
	return 0;
}
