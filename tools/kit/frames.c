/*
 * tools/kit/frames.c - Lab 1's instruments: the options, the heap and the
 * frames watched around the loop, the fault prediction and its why lines,
 * the report and the CSV (what each does: tools/include/frames.h).
 *
 * Compiled once a build flavour as DIR/kit/frames.o and linked into
 * frames alone: frames.c compiles the declarations, not this code.
 * Nothing here calls the student's code.
 */
/* This unit reads the program's env_build, it does not define it. */
#define KIT_UNIT 1
#include "../include/frames.h"
#include "../include/work.h"

#define MIB (1024.0 * 1024.0)

/* The report's words for each --alloc, in enum alloc_kind's order. */
static const char *const alloc_blurbs[] = {
	"calloc() per frame (the completed program)",
	"malloc() per frame (the skeleton as shipped)",
	"malloc() + memset() per frame",
	"one malloc() for the run, memset() per frame (the floor)",
	"new_frame() per frame (the black-frame exercise)",
};

/* ------------------------------------------ options: their defaults, usage */

/* Where parse_options() starts, and what usage() calls the default. */
static const struct options defaults = {
	.frames = 100, .alloc = ALLOC_CALLOC, .size = FRAME_BYTES, .output = OUTPUT_REPORT,
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [options]\n"
		"Allocate, render, check and free one frame at a time; report time,\n"
		"page faults and corrupt pixels.\n"
		"  -n, --frames N      frames to render (default %u)\n"
		"      --alloc KIND    calloc (default, the completed program), malloc\n"
		"                      (the skeleton), memset (malloc + memset), once\n"
		"                      (allocate one frame for the run, clear it per frame),\n"
		"                      frame (new_frame(): the black-frame exercise)\n"
		"      --tune          mallopt(M_MMAP_MAX, 0) and mallopt(M_TRIM_THRESHOLD, -1)\n"
		"  -s, --size BYTES    bytes per frame (default %" PRIu64 "; K, M, G suffixes)\n"
		"      --vary BYTES    vary each frame's size by up to BYTES (fixed seed)\n"
		"      --no-thp        turn transparent huge pages off for this process\n"
		"      --csv           print a CSV header and one row instead\n"
		"      --stats         print glibc's malloc_stats() (arenas, heap vs mmap) at the end\n"
		"      --trim          call malloc_trim(0) after the last frame; print VmRSS before\n"
		"                      and after (what a tuned heap keeps, and gives back)\n"
		"      --edge          print Lab 4's edge and exit: the largest --size whose\n"
		"                      freed block raises the mmap threshold past it (the\n"
		"                      next frame from the heap) on this glibc and page size\n"
		"      --env           print the environment check and exit\n"
		"  -h, --help          this text\n",
		cli_prog, defaults.frames, defaults.size);
}

/* Frame sizes for --vary: size +/- vary, a multiple of 8, fixed seed so
 * every run (and every compiler) sees the same sequence. */
size_t frame_size(const struct options *o, uint64_t *seed)
{
	uint64_t x = *seed, span = 2 * o->vary + 1;

	if (!o->vary)
		return o->size;
	x ^= x << 13, x ^= x >> 7, x ^= x << 17;      /* xorshift64 */
	*seed = x;
	return (size_t)((o->size - o->vary + x % span) & ~(uint64_t)7);
}

/* ------------------------------------------------ the allocator policy */

/* The policy: glibc's defaults, then the environment as the running glibc
 * reads it (tools/include/env.h), then --tune (tools/include/model.h).
 * Used to predict the fault count from first principles. */
struct model_policy policy_from_environment(void)
{
	return model_policy_from_env(env_malloc_policy());
}

/* The machine the model describes: this process's. */
static struct model_machine this_machine(void)
{
	struct model_machine mc = { (uint64_t)sysconf(_SC_PAGESIZE), env_read_faults_per_page(),
				    model_glibc_minor(env_glibc()), (int)sizeof(size_t) * 8 };

	return mc;
}

/* ----------------------------------------------------------- prediction */

/* The smallest huge page that could back the frames' memory, in bytes, 0
 * for none.  Under THP "always" a size set to "inherit" applies to every
 * large mapping, under "madvise" only when glibc.malloc.hugetlb=1 madvises
 * malloc's memory; a size set to "always" applies either way, "madvise"
 * only to madvised memory.  Kernels before 6.8 have the PMD size only.
 * --no-thp turns all of them off for this process. */
static uint64_t smallest_huge_page(const struct options *o, const struct model_policy *pol)
{
	struct env_thp_size sz[ENV_THP_SIZES_MAX];
	char e[32];
	int n = env_thp_sizes(sz, ENV_THP_SIZES_MAX);
	const int madvised = pol->hugetlb == 1;
	int inherit;

	if (o->no_thp)
		return 0;
	env_sysfs_choice(ENV_THP_DIR "enabled", e, sizeof e);
	inherit = !strcmp(e, "always") || (madvised && !strcmp(e, "madvise"));
	if (n == 0)
		return inherit ? env_thp_pmd_bytes() : 0;
	for (int i = 0; i < n; i++)
		if (!strcmp(sz[i].setting, "always") || (inherit && !strcmp(sz[i].setting, "inherit")) ||
		    (madvised && !strcmp(sz[i].setting, "madvise")))
			return (uint64_t)sz[i].kib << 10;
	return 0;
}

/*
 * The heap as the frame loop finds it.  What ran before the loop (stdio's
 * buffer, glibc's tcache, the environment check) decides where the first
 * frame starts and how much of the heap's free top is already mapped, and
 * no rule says what that is, so it is measured just before the loop:
 * mallinfo's keepcost is the size of the top chunk, which ends at the
 * break, and mincore() says which of its pages are mapped.  Nothing here
 * allocates (the page vector is static).
 */
/* (struct model_heap, tools/include/model.h: the top chunk's offset into
 * its page, its size, its pages mapped, the heap below it.) */
#define HEAP_PROBE_PAGES 4096u   /* a larger top is counted as unmapped past this */

/* mallinfo's keepcost: the size of the main arena's top chunk. */
static uint64_t heap_top_bytes(void)
{
#if __GLIBC_PREREQ(2, 33)
	return mallinfo2().keepcost;
#else
	return (unsigned)mallinfo().keepcost;   /* mallinfo2() is 2.33+ */
#endif
}

/* The first allocation of a process sets the heap up (glibc's per-thread
 * cache is its first block).  Where nothing has allocated yet (--csv prints
 * nothing first), do that now, outside the measured loop, with a block too
 * big for the per-thread cache: free() merges it straight back into the top,
 * so the heap is as the first frame would have found it.  Half a page:
 * the next chunk's header, which malloc writes, stays on the first page. */
static void make_sure_heap_exists(void)
{
	void *p;

	if (heap_top_bytes() != 0)
		return;
	p = malloc((size_t)sysconf(_SC_PAGESIZE) / 2);
	if (!p)
		die("cannot allocate the heap's first block");
	work_sink(p);
	free(p);
}

static struct model_heap measure_heap_start(const char *heap_lo)
{
	static unsigned char vec[HEAP_PROBE_PAGES];
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	const uintptr_t brk_end = (uintptr_t)sbrk(0);
	struct model_heap h = { 0 };
	uintptr_t top, first;
	size_t n;

	h.top_bytes = heap_top_bytes();
	if (h.top_bytes == 0 || h.top_bytes > brk_end)
		return h;
	top = brk_end - h.top_bytes;
	first = top & ~(page - 1);
	h.top_offset = top - first;
	h.below_top = first > (uintptr_t)heap_lo ? first - (uintptr_t)heap_lo : 0;
	n = (brk_end - first) / page;
	if (n > HEAP_PROBE_PAGES)
		n = HEAP_PROBE_PAGES;
	if (mincore((void *)first, n * page, vec) != 0)
		die("mincore of the heap's top");
	for (size_t i = 0; i < n; i++)
		if (vec[i] & 1)
			if (model_pages_map(&h.mapped, i, i + 1) < 0)
				die("the fault model ran out of page runs (more than %d)", MODEL_RUNS_MAX);
	return h;
}

static void record_offset(struct map_offsets *w, uint64_t off)
{
	int i;

	w->total++;
	for (i = 0; i < w->n && w->off[i] != off; i++)
		;
	if (i == OFFSETS_MAX) {
		w->overflow = 1;
		return;
	}
	if (i == w->n)
		w->off[w->n++] = off;
	w->frames[i]++;
}

/* The model's thresholds for this process (tools/include/model.h). */
uint64_t threshold_edge(void)
{
	const struct model_machine mc = this_machine();

	return model_threshold_edge(&mc);
}

/*
 * A mapped frame's huge pages, against the base-page count predict_faults()
 * made for it (1 for the header's page, per_page for each other one): a
 * huge page backs each PMD-aligned run of `huge` bytes that lies wholly in
 * the mapping, which starts `off` bytes past a PMD boundary; its unaligned
 * head and tail keep base pages.  A huge page whose first touch is a write
 * (the chunk header, a fill) costs 1 fault; one read first costs what the
 * start-up probe measured (tools/include/env.h, env_thp_probe): 2 where
 * the write allocates the huge page (6.13+), 1 + a fault a page where it
 * splits the huge zero page, 1 where the read allocates it.  Adds the
 * difference to pr->m.faults, and counts the huge pages.
 */
static void add_huge_pages(struct prediction *pr, uint64_t off, unsigned frames,
			   const struct model_chunk *c, uint64_t touched, int write_first)
{
	const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), huge = env_thp_pmd_bytes();

	for (uint64_t b = (huge - off % huge) % huge; b + huge <= c->mapped; b += huge) {
		uint64_t lo = b / page, hi = (b + huge) / page, n, base, cost;

		if (hi > touched)
			hi = touched;
		if (lo >= hi)
			break;
		n = hi - lo;
		base = lo == 0 ? 1 + (uint64_t)pr->m.per_page * (n - 1) : (uint64_t)pr->m.per_page * n;
		cost = lo == 0 || write_first ? 1 : (uint64_t)env_thp_read_write_faults((long)n);
		pr->m.faults = pr->m.faults + frames * cost - frames * base;
		pr->huge_pages += frames;
		if (lo == 0) {            /* the header's page is no base page now */
			pr->huge_headers += frames;
			pr->m.written_first -= pr->m.per_page > 1 ? frames : 0;
		}
	}
}

/* Can the huge pages be modelled exactly?  NULL if so, else why not: the
 * model follows PMD huge pages in mapped frames only, where the probe
 * found what a fault does. */
static const char *huge_pages_unmodelled(const struct prediction *pr, unsigned allocs,
					 const struct map_offsets *w)
{
	if (pr->huge != env_thp_pmd_bytes())
		return "smaller huge pages (mTHP) apply";
	if (pr->m.mmap_frames < allocs)
		return "huge pages in the heap are not modelled";
	if (w->overflow || w->total != pr->m.mmap_frames)
		return "the frames' addresses were not all seen";
	if (env_thp_read_write_faults(1) < 0)
		return "the THP probe found no huge page";
	return NULL;
}

struct prediction predict_faults(const struct options *o, const struct model_policy *pol,
				 const struct model_heap *h, const struct map_offsets *w)
{
	const struct model_machine mc = this_machine();
	const uint64_t page = mc.page;
	const uint64_t size = o->size + (o->alloc == ALLOC_ONCE ? o->vary : 0);
	const struct model_chunk c = model_chunk_sizes(&mc, size);
	const int write_first = o->alloc == ALLOC_MEMSET || o->alloc == ALLOC_ONCE || pol->perturb;
	const unsigned allocs = o->alloc == ALLOC_ONCE ? 1 : o->frames;
	const struct model_run run = { size, (enum model_alloc)o->alloc, o->frames, 0, 0 };
	struct prediction pr = { 0 };

	switch (model_replay(&mc, pol, h, &run, &pr.m)) {
	case MODEL_OK:
		break;
	case MODEL_TOO_MANY_RUNS:
		die("the fault model ran out of page runs (more than %d)", MODEL_RUNS_MAX);
	case MODEL_TOO_LARGE:
		die("the fault model cannot add up a frame of %" PRIu64 " bytes", size);
	}
	/* A huge page of H bytes needs an H-aligned run of H bytes inside one
	 * mapping.  Where H is more than twice the largest mapping a frame
	 * lies in (room for a neighbour merged into it), none fits: 512 MiB
	 * pages never back a 63 MiB frame, and the count stays exact. */
	pr.huge = smallest_huge_page(o, pol);
	pr.bound = pr.huge && pr.huge <= 2 * pr.m.span;
	if (pr.bound && !(pr.bound_why = huge_pages_unmodelled(&pr, allocs, w))) {
		pr.bound = 0;
		for (int i = 0; i < w->n; i++)
			add_huge_pages(&pr, w->off[i], w->frames[i], &c,
				       (16 + size + page - 1) / page, write_first);
	}
	return pr;
}

/* What writes a fresh page of the frame before anything reads it, if
 * anything does: then each page faults once on every kernel. */
static const char *first_writer(const struct options *o, const struct model_policy *pol)
{
	if (pol->perturb)
		return "perturb's fill";
	if (o->alloc == ALLOC_MEMSET || o->alloc == ALLOC_ONCE)
		return "memset";
	return NULL;
}

/* What a huge page read first costs, as the start-up probe found it. */
static const char *huge_read_write_why(void)
{
	switch (env_thp_probe()->rw) {
	case ENV_THP_WRITE_ALLOCATES:
		return "2 each: a read maps the huge zero page, a write a huge page";
	case ENV_THP_WRITE_SPLITS:
		return "1 each, then 1 a page: the write splits the huge zero page";
	default:
		return "1 each: the read allocates the huge page";
	}
}

/* Why the prediction is what it is, in short clauses that fit 80 columns
 * beside the report's labels.  Each names the faults a fresh page takes
 * ("N a page"), which tests/why.sh holds against the measured count.
 * Returns how many lines it filled. */
static int explain_prediction(char lines[][96], const struct prediction *pr, unsigned frames,
			      const struct options *o, const struct model_policy *pol)
{
	const char *writer = first_writer(o, pol);
	const char *ends = pr->huge_pages ? "ends, " : "";
	char size[24], span[24];
	int n = 0;

	snprintf(lines[n++], 96, "%lu of %u frames on fresh pages, %lu from mmap",
		 pr->m.fresh_frames, frames, pr->m.mmap_frames);
	if (pr->bound) {
		snprintf(lines[n++], 96, "a bound: a huge page maps %s in one fault;",
			 env_bytes_unit(pr->huge, size, sizeof size));
		snprintf(lines[n++], 96, "%s", pr->bound_why);
		return n;
	}
	if (pr->huge_pages) {
		snprintf(lines[n++], 96, "%" PRIu64 " huge pages of %s (the mappings' aligned parts)",
			 pr->huge_pages, env_bytes_unit(pr->huge, size, sizeof size));
		if (writer)
			snprintf(lines[n++], 96, "1 each: %s writes it first, a huge page", writer);
		else
			snprintf(lines[n++], 96, "%s", huge_read_write_why());
		if (pr->huge_headers && !writer)
			snprintf(lines[n++], 96, "%" PRIu64 " of them a chunk header writes first: 1 each",
				 pr->huge_headers);
	} else if (pr->huge)
		snprintf(lines[n++], 96, "no %s huge page fits in a %s mapping",
			 env_bytes_unit(pr->huge, size, sizeof size),
			 env_bytes_unit((pr->m.span + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1),
					span, sizeof span));
	if (writer)
		snprintf(lines[n++], 96, "%s1 a page: %s writes each page before a read",
			 ends, writer);
	else if (pr->m.per_page == 2)
		snprintf(lines[n++], 96, "%s2 a page: a read maps the zero page, the write a copy",
			 ends);
	else
		snprintf(lines[n++], 96, "%s1 a page: a read allocates here (no zero page)", ends);
	if (pr->m.written_first)
		snprintf(lines[n++], 96, "%" PRIu64 " page%s written first (%s): 1 each",
			 pr->m.written_first, pr->m.written_first == 1 ? "" : "s",
			 o->alloc == ALLOC_CALLOC && pr->m.mmap_frames < frames   /* mmap: no clear */
			 ? "calloc's clear, headers" : "chunk headers");
	if (pr->m.trims)
		snprintf(lines[n++], 96, "free() trimmed the heap %lu time%s, %" PRIu64 " pages kept",
			 pr->m.trims, pr->m.trims == 1 ? "" : "s", pr->m.kept);
	return n;
}

/* ------------------------------------------------ watching the loop */

/* Is p outside the brk heap, i.e. from mmap?  sbrk(0) only reads glibc's
 * cached break (no system call), so this does not disturb the run. */
static int from_mmap(const void *p, const char *heap_lo)
{
	const char *c = p;

	return !(c >= heap_lo && c < (const char *)sbrk(0));
}

/*
 * Before the loop: the heap as the first frame will find it (what ran
 * before decides it, so it is measured, not assumed) and the kernel's
 * count of huge pages it could not find.  The PMD size is read first and
 * once: the loop itself reads nothing (Lab 1's strace -c counts it).
 */
void watch_loop_start(struct result *r, const char *heap_lo)
{
	r->pmd = env_thp_pmd_bytes();
	make_sure_heap_exists();
	r->heap = measure_heap_start(heap_lo);
	r->thp_fallbacks = r->pmd ? env_vmstat("thp_fault_fallback") : -1;
}

/* Each frame: from mmap or the heap, and, for the huge page model, where
 * its mapping starts (a mapped block starts 16 bytes into it). */
void watch_frame(struct result *r, const void *f, const char *heap_lo)
{
	if (!from_mmap(f, heap_lo))
		return;
	r->mmap_frames++;
	if (r->pmd)
		record_offset(&r->where, ((uintptr_t)f - 16) % r->pmd);
}

/* After the loop: how many huge pages were not to be had meanwhile. */
void watch_loop_end(struct result *r)
{
	if (r->thp_fallbacks >= 0)
		r->thp_fallbacks = env_vmstat("thp_fault_fallback") - r->thp_fallbacks;
}

/* ------------------------------------- after the loop: trim, report, CSV */

/* VmRSS, read without malloc (tools/include/env.h). */
static long vm_rss_kib(void)
{
	char text[4096];
	long kib = env_status_kib(env_read_status(text, sizeof text), "VmRSS");

	if (kib < 0)
		die("no VmRSS line in /proc/self/status");
	return kib;
}

struct trim_result trim_heap(int asked)
{
	struct trim_result t = { -1, -1, 0 };

	if (!asked)
		return t;
	t.before_kib = vm_rss_kib();
	t.returned = malloc_trim(0);
	t.after_kib = vm_rss_kib();
	return t;
}

/* "63 MiB", "1.5 MiB", "4 KiB": whole units for big sizes, as in the lab text. */
static const char *human_size(uint64_t b, char *buf, size_t len)
{
	if (b >= (10u << 20))
		snprintf(buf, len, "%.0f MiB", b / MIB);
	else if (b >= (1u << 20))
		snprintf(buf, len, "%.3g MiB", b / MIB);
	else
		snprintf(buf, len, "%.3g KiB", b / 1024.0);
	return buf;
}

/* The prediction is glibc's (malloc.c's rules): none under another
 * allocator, nor for sizes that vary, nor for new_frame(), whose calls the
 * model cannot know. */
static int predicted(const struct options *o)
{
	return !o->vary && o->alloc != ALLOC_FRAME && env_glibc_model_applies();
}

static const char *prediction_kind(const struct options *o, const struct prediction *pr)
{
	return !predicted(o) ? "none" : pr->bound ? "bound" : "exact";
}

void print_report(const struct options *o, const struct result *r,
		  const struct prediction *pr, const struct model_policy *pol,
		  const struct trim_result *t)
{
	char a[32], b[32], why[8][96];

	if (o->vary)
		printf("%u frames of %s (varying by up to %s)\n", o->frames,
		       human_size(o->size, a, sizeof a), human_size(o->vary, b, sizeof b));
	else
		printf("%u frames of %s\n", o->frames, human_size(o->size, a, sizeof a));
	printf("  time:            %.3f s\n", r->seconds);
	printf("  minor faults:    %ld\n", r->use.minflt);
	printf("  max RSS:         %.0f MiB\n", r->use.maxrss_kib / 1024.0);
	printf("  corrupt pixels:  %" PRIu64 "\n", r->corrupt);
	printf("  sampled pixels:  %" PRIu64 "\n", r->sampled);
	printf("  faults/frame:    %.1f\n", (double)r->use.minflt / o->frames);
	if (!env_glibc_model_applies()) {
		printf("  predicted:       n/a (glibc's model does not apply: malloc is %s)\n",
		       env_allocator(a, sizeof a));
	} else if (o->vary) {
		printf("  predicted:       n/a (the model covers fixed sizes only)\n");
	} else if (o->alloc == ALLOC_FRAME) {
		printf("  predicted:       n/a (the model cannot know what new_frame() calls)\n");
	} else {
		int n = explain_prediction(why, pr, o->frames, o, pol);

		if (pr->bound)
			printf("  predicted:       %" PRIu64 " (upper bound)\n", pr->m.faults);
		else
			printf("  predicted:       %" PRIu64 " (exact within %d: the grader's tolerance)\n",
			       pr->m.faults, MODEL_FAULT_TOLERANCE);
		for (int i = 0; i < n; i++)
			printf("  %-17s%s\n", i ? "" : "why:", why[i]);
	}
	/* A huge page the kernel could not find costs base-page faults the
	 * prediction did not count (system-wide: another process's count too). */
	if (pr->huge && r->thp_fallbacks >= 0)
		printf("  thp fallbacks:   %ld (thp_fault_fallback: huge pages not to be had)\n",
		       r->thp_fallbacks);
	if (env_glibc_model_applies())
		printf("  from mmap:       %u of %u frames\n", r->mmap_frames,
		       o->alloc == ALLOC_ONCE ? 1 : o->frames);
	printf("  user time:       %.3f s\n", r->use.user_s);
	printf("  sys time:        %.3f s\n", r->use.sys_s);
	printf("  alloc:           %s\n", alloc_blurbs[o->alloc]);
	if (!env_glibc_model_applies())
		printf("  policy:          %s's own, set by its environment variables%s\n",
		       env_allocator(a, sizeof a), o->tune ? " (--tune's mallopt() is glibc's)" : "");
	else
		printf("  policy:          %s\n",
		       o->tune ? "--tune: tune_allocator(); predicted: the tuned policy"
		       : "glibc's defaults plus the environment (see the # lines)");
	if (t->before_kib >= 0) {
		printf("  rss before trim: %ld KiB (VmRSS, every frame freed)\n", t->before_kib);
		printf("  rss after trim:  %ld KiB (malloc_trim(0) returned %d)\n", t->after_kib,
		       t->returned);
	}
}

/* The heap's mapped pages as the CSV carries them: "0-0;2-3", page numbers
 * from the top chunk's first page, both ends included; empty for none. */
static void print_page_runs(const struct model_pages *m)
{
	for (int i = 0; i < m->n; i++)
		printf("%s%" PRIu64 "-%" PRIu64, i ? ";" : "", m->lo[i], m->hi[i] - 1);
}

void print_csv(const struct options *o, const struct result *r,
	       const struct prediction *pr, const struct trim_result *t)
{
	printf("alloc,tuned,frames,size,vary,time_s,minor_faults,faults_per_frame,"
	       "predicted_faults,prediction,max_rss_mib,corrupt_pixels,sampled_pixels,"
	       "mmap_frames,user_s,sys_s,rss_before_trim_kib,rss_after_trim_kib,"
	       "heap_top_offset,heap_top_bytes,heap_top_mapped");
	env_csv_header(stdout);
	printf("\n%s,%d,%u,%" PRIu64 ",%" PRIu64 ",%.3f,%ld,%.1f,", model_alloc_names[o->alloc],
	       o->tune, o->frames, o->size, o->vary, r->seconds, r->use.minflt,
	       (double)r->use.minflt / o->frames);
	if (predicted(o))
		printf("%" PRIu64, pr->m.faults);
	printf(",%s,%.0f,%" PRIu64 ",%" PRIu64 ",%u,%.3f,%.3f", prediction_kind(o, pr),
	       r->use.maxrss_kib / 1024.0, r->corrupt, r->sampled, r->mmap_frames,
	       r->use.user_s, r->use.sys_s);
	if (t->before_kib >= 0)
		printf(",%ld,%ld", t->before_kib, t->after_kib);
	else
		printf(",,");
	printf(",%" PRIu64 ",%" PRIu64 ",", r->heap.top_offset, r->heap.top_bytes);
	print_page_runs(&r->heap.mapped);
	env_csv_fields(stdout);
	putchar('\n');
}

/* The report's header: the environment check (tools/include/env.h), and
 * --no-thp's line. */
void print_header(const struct options *o)
{
	env_print_header(stdout);
	if (o->no_thp)
		printf("# transparent huge pages disabled for this process (--no-thp)\n");
}

/* -------------------------------------------------------------- options */

struct options parse_options(int argc, char **argv)
{
	enum { OPT_ALLOC = 256, OPT_TUNE, OPT_VARY, OPT_NO_THP, OPT_STATS, OPT_TRIM, OPT_EDGE };
	static const struct option longopts[] = {
		CLI_OPT_COUNT("frames"),
		{ "alloc", required_argument, NULL, OPT_ALLOC },
		{ "tune", no_argument, NULL, OPT_TUNE },
		CLI_OPT_SIZE,
		{ "vary", required_argument, NULL, OPT_VARY },
		{ "no-thp", no_argument, NULL, OPT_NO_THP },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "trim", no_argument, NULL, OPT_TRIM },
		{ "edge", no_argument, NULL, OPT_EDGE },
		ENV_OPTIONS_END,
	};
	struct options o = defaults;
	uint64_t v;
	int c, k;

	while ((c = env_getopt(argc, argv, ":n:s:h", longopts, usage)) != -1) {
		switch (c) {
		case 'n':
			if (cli_parse_u64(optarg, 1, MAX_FRAMES, &v))
				bad_usage(usage, "--frames wants a whole number from 1 to %u, not '%s'",
					  MAX_FRAMES, optarg);
			o.frames = (unsigned)v;
			break;
		case OPT_ALLOC:
			k = cli_name_index(model_alloc_names, MODEL_ALLOCS, optarg);
			if (k < 0)
				bad_usage(usage, "--alloc wants calloc, malloc, memset, once or frame, not '%s'", optarg);
			o.alloc = (enum alloc_kind)k;
			break;
		case OPT_TUNE: o.tune = 1; break;
		case 's':
			if (cli_parse_size(optarg, WIDTH * sizeof(uint64_t), 1ull << 36, &o.size))
				bad_usage(usage, "--size wants bytes from 30720 (one row) to 64G, e.g. 63M, not '%s'", optarg);
			break;
		case OPT_VARY:
			if (cli_parse_size(optarg, 0, 1ull << 36, &o.vary))
				bad_usage(usage, "--vary wants bytes, e.g. 1536K, not '%s'", optarg);
			break;
		case OPT_NO_THP: o.no_thp = 1; break;
		case ENV_OPT_CSV: o.output = OUTPUT_CSV; break;
		case OPT_STATS: o.stats = 1; break;
		case OPT_TRIM: o.trim = 1; break;
		case OPT_EDGE: o.edge = 1; break;
		}
	}
	cli_no_arguments(usage, argc, argv);
	o.size &= ~(uint64_t)7;   /* whole pixels */
	/* A 32-bit build cannot address a 3 GiB frame: say so rather than
	 * let size_t wrap and render a 0-byte frame. */
	if (o.size + o.vary > SIZE_MAX / 2)
		bad_usage(usage, "--size + --vary is %" PRIu64 " bytes; this %zu-bit build can allocate at most %zu",
			  o.size + o.vary, 8 * sizeof(size_t), SIZE_MAX / 2);
	if (o.vary && o.vary + WIDTH * sizeof(uint64_t) > o.size)
		bad_usage(usage, "--vary must leave at least one row: it is larger than --size");
	return o;
}
