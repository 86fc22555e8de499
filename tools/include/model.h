/*
 * tools/include/model.h - glibc malloc's policy as the kit models it, from
 * first principles (malloc/malloc.c), in one place: frames.c predicts its
 * own faults with it, and tools/grading/predict answers the grader with it.
 * Nothing here reads the running process: the machine (page size, what a
 * read fault costs, glibc's version, the word size) and the policy are
 * parameters, filled from the running process by a lab and from a
 * submission's header by the grader.
 *   struct model_machine, model_policy     what the model is told
 *   model_policy_from_env(), model_tune()  the policy: the environment, --tune
 *   model_chunk_sizes()                    a block as malloc sizes it
 *   model_threshold_cap(), _edge()         the dynamic threshold's limit
 *   model_pages_*()                        mapped pages as runs
 *   model_replay()                         Lab 1's frame loop, page by page
 *   model_top_block()                      Lab 8's packer, a block at a time
 */
#ifndef MALLOC_LABS_MODEL_H
#define MALLOC_LABS_MODEL_H

#include "tunables.h"

/* Lab 1's frame: 3840 x 2160 pixels of 8 bytes (66,355,200 bytes). */
#define MODEL_FRAME_WIDTH 3840u
#define MODEL_FRAME_HEIGHT 2160u
#define MODEL_PIXEL_BYTES 8u
#define MODEL_FRAME_BYTES ((uint64_t)MODEL_FRAME_WIDTH * MODEL_FRAME_HEIGHT * MODEL_PIXEL_BYTES)
/* The frame check samples every 8th pixel: one pixel every 64 bytes. */
#define MODEL_SAMPLE_STRIDE 8u

/* DEFAULT_MMAP_THRESHOLD_MIN (malloc.c): the threshold a process starts
 * with, and the one Lab 3's pre25 mode pins. */
#define MODEL_MMAP_THRESHOLD ((uint64_t)128 << 10)
/* Lab 3's largest request, as the kit's steps run threads (its SIZE). */
#define MODEL_LAB3_SIZE 1280000u
/* Lab 6's largest ("medium") block: arenas.c draws 513 B to this. */
#define MODEL_LAB6_MEDIUM_MAX 16384u

/* The facts below are read by the grader and the kit's scripts too
 * (tools/grading/steps.awk's c_define()): plain decimal numbers, one a line.
 *
 * How far a measured fault count may stray from the model's, in faults.
 * The model replays every page the frame loop touches; what is left is the
 * process's own first touches inside the loop (a page of code or stack):
 * none measured here on glibc 2.36, Linux 6.18; at most 3 in make kernels'
 * guests (6.1 and 6.12 under qemu, 4 frames, THP always); 4 leaves room for
 * a libc that touches more. */
#define MODEL_FAULT_TOLERANCE 4
/* The pinned thresholds, in bytes: Lab 4's fix and Lab 8's "pin".  The
 * mmap threshold is over every frame and block a lab holds, so the heap
 * serves them all; the trim threshold keeps free() from giving the heap's
 * top back.  Written out: glibc 2.36 reads "256M" as 256, 2.39 rejects it. */
#define MODEL_PIN_MMAP_THRESHOLD 268435456
#define MODEL_PIN_TRIM_THRESHOLD 536870912

/* The machine a model describes. */
struct model_machine {
	uint64_t page;              /* bytes */
	int read_faults_per_page;   /* 2: a read maps the zero page, the write copies; 1 */
	int glibc_minor;            /* 2.<minor>; a glibc 3.x counts as 99 */
	int bits;                   /* 32 (i386) or 64 */
};

static inline int model_glibc_minor(struct env_glibc g)
{
	return g.major > 2 ? 99 : g.major == 2 ? g.minor : 0;
}

/* SIZE_SZ, MALLOC_ALIGNMENT and MINSIZE (malloc.c).  MALLOC_ALIGNMENT is
 * 16 on x86-64 and aarch64 (2 x SIZE_SZ) and on i386 too
 * (sysdeps/i386/malloc-alignment.h: 16, not 2 x SIZE_SZ = 8). */
static inline uint64_t model_size_sz(const struct model_machine *mc)
{
	return mc->bits == 32 ? 4 : 8;
}

static inline uint64_t model_align(const struct model_machine *mc)
{
	(void)mc;
	return 16;
}

static inline uint64_t model_minsize(const struct model_machine *mc)
{
	const uint64_t a = model_align(mc);

	return (4 * model_size_sz(mc) + a - 1) & ~(a - 1);
}

static inline uint64_t model_pages_of(uint64_t bytes, uint64_t page)
{
	return (bytes + page - 1) / page;
}

/* ------------------------------------------------------------ the policy */

/* The settings that decide where a big block comes from and whether
 * free() gives it back. */
struct model_policy {
	uint64_t mmap_threshold, trim_threshold, top_pad, mmap_max;
	unsigned perturb;
	unsigned hugetlb;
	int dynamic;         /* the threshold still adapts (nothing was set) */
};

static inline struct model_policy model_policy_from_env(const struct env_malloc *m)
{
	struct model_policy p = { m->mmap_threshold, m->trim_threshold, m->top_pad, m->mmap_max,
				  m->perturb, m->hugetlb, m->dynamic };

	return p;
}

/* What frames --tune sets (tune_allocator(): mallopt(M_MMAP_MAX, 0) and
 * mallopt(M_TRIM_THRESHOLD, -1)); any mallopt of these freezes the
 * dynamic threshold. */
static inline void model_tune(struct model_policy *p)
{
	p->mmap_max = 0;
	p->trim_threshold = UINT64_MAX;
	p->dynamic = 0;
}

/* ------------------------------------------------------ a block's sizes */

/*
 * A block of `size` bytes as malloc sizes it: the chunk (request2size),
 * and on sysmalloc's mmap path its mapping, the size its header records
 * and where the user bytes start in it.  Up to 2.42 the mapping is the
 * chunk plus its size field, rounded up to pages (plus MALLOC_ALIGN_MASK
 * where MALLOC_ALIGNMENT is more than 2 x SIZE_SZ, i386, whose chunk then
 * starts `correction` bytes in and records the mapping less that:
 * glibc-2.36 malloc/malloc.c:2426-2474); 2.43 maps chunk + 16 and records
 * mapping - 16.  The block starts 16 bytes in either way.
 */
struct model_chunk {
	uint64_t nb, mapped, mchunk, offset;
	uint64_t usable;     /* malloc_usable_size() of the mapped block (musable():
			      * chunk - CHUNK_HDR_SZ; 2.43: mapping - 16 - SIZE_SZ) */
};

static inline struct model_chunk model_chunk_sizes(const struct model_machine *mc, uint64_t size)
{
	const uint64_t page = mc->page, sz = model_size_sz(mc), al = model_align(mc);
	const uint64_t minsize = model_minsize(mc);
	const uint64_t req = (size + sz + al - 1) & ~(al - 1);
	struct model_chunk c;

	c.nb = req < minsize ? minsize : req;
	if (mc->glibc_minor >= 43) {
		c.mapped = (c.nb + 16 + page - 1) & ~(page - 1);
		c.mchunk = c.mapped - 16;
		c.offset = 16;
		c.usable = c.mchunk - sz;
	} else if (al == 2 * sz) {
		c.mapped = (c.nb + sz + page - 1) & ~(page - 1);
		c.mchunk = c.mapped;
		c.offset = 2 * sz;
		c.usable = c.mchunk - 2 * sz;
	} else {
		const uint64_t correction = al - 2 * sz % al;

		c.mapped = (c.nb + sz + al - 1 + page - 1) & ~(page - 1);
		c.mchunk = c.mapped - correction;
		c.offset = correction + 2 * sz;
		c.usable = c.mchunk - 2 * sz;
	}
	return c;
}

/* DEFAULT_MMAP_THRESHOLD_MAX: freeing a mapped chunk raises the threshold
 * to the chunk's size only if that size is above the threshold and at most
 * this cap, compared with the IS_MMAPPED bit (2) still in it (__libc_free:
 * chunksize_nomask, glibc-2.36 malloc/malloc.c:3366-3368, 2.39:3379-3381),
 * so a chunk of exactly 32 MiB does not count.  512 KiB on 32-bit. */
static inline uint64_t model_threshold_cap(const struct model_machine *mc)
{
	return env_mmap_threshold_max(mc->bits);
}

/* Lab 4's edge: the largest frame size (whole pixels) whose first frame,
 * mapped and freed, raises the threshold past the frame, so that the next
 * one comes from the heap.  Up to 2.42 that is the largest frame whose
 * mapping is under 32 MiB: 32 MiB - page - 24 bytes.  On 2.43 the chunk
 * is the mapping less 16 and may equal the request (nb); the threshold
 * then equals the next frame's nb, and sysmalloc maps a request at the
 * threshold (nb >= mmap_threshold) again.  It depends on the page size
 * and the glibc, so it is worked out here, by the model's own sizes: the
 * one place README, make lab4, the plots and the grader's tests take it. */
static inline uint64_t model_threshold_edge(const struct model_machine *mc)
{
	const uint64_t cap = model_threshold_cap(mc);
	uint64_t s = cap;
	struct model_chunk c = model_chunk_sizes(mc, s);

	while (s > 8 && ((c.mchunk | 2) > cap || c.mchunk <= c.nb))
		c = model_chunk_sizes(mc, s -= 8);
	return s;
}

/* ------------------------------------------- a block at a time (Lab 8) */

/* The main arena as a loop sees it that frees each block before it asks
 * for the next (policies --pack): the heap is its top chunk alone. */
struct model_top {
	struct model_policy pol;   /* free() of a mapped chunk may move it */
	uint64_t top;              /* the top chunk's bytes */
	uint64_t touched;          /* heap pages written since the last trim */
};

/* A chunk of nb bytes carved from the top at the heap's start, written
 * and freed: the pages it and the new top's header write that were not
 * written before fault.  sysmalloc grows the top by the shortfall plus
 * top_pad and MINSIZE, in pages; free() merges the chunk back, and
 * systrim, once the top reaches the trim threshold, gives back all but
 * top_pad (whole pages). */
static inline uint64_t model_top_carve(const struct model_machine *mc, struct model_top *h, uint64_t nb)
{
	const uint64_t page = mc->page, minsize = model_minsize(mc), pad = h->pol.top_pad;
	const uint64_t need = model_pages_of(nb + 2 * model_size_sz(mc), page);
	uint64_t faults = 0;

	if (h->top < nb + minsize)
		h->top += model_pages_of(nb + pad + minsize - h->top, page) * page;
	if (need > h->touched) {
		faults = need - h->touched;
		h->touched = need;
	}
	if (h->top >= h->pol.trim_threshold && h->top - minsize - 1 > pad) {
		h->top -= (h->top - minsize - 1 - pad) / page * page;
		if (h->touched > h->top / page)
			h->touched = h->top / page;
	}
	return faults;
}

/* The faults of one block of `size` bytes, written and freed: from the top
 * when it has room; else its own mapping at or above the mmap threshold
 * (while mmap_max allows one), every page faulting; else the heap grows.
 * Freeing a mapped chunk above the threshold and within the cap moves
 * the threshold to its size and the trim threshold to twice that, while
 * the threshold is dynamic (__libc_free; the IS_MMAPPED bit, 2, is part
 * of the size compared). */
static inline uint64_t model_top_block(const struct model_machine *mc, struct model_top *h, uint64_t size)
{
	const struct model_chunk c = model_chunk_sizes(mc, size);

	if (h->top >= c.nb + model_minsize(mc) || c.nb < h->pol.mmap_threshold || h->pol.mmap_max == 0)
		return model_top_carve(mc, h, c.nb);
	if (h->pol.dynamic && (c.mchunk | 2) > h->pol.mmap_threshold &&
	    (c.mchunk | 2) <= model_threshold_cap(mc)) {
		h->pol.mmap_threshold = c.mchunk;
		h->pol.trim_threshold = 2 * c.mchunk;
	}
	return c.mapped / mc->page;
}

/* ------------------------------------------------------ the page runs */

/* Pages that are mapped, as a few disjoint runs [lo, hi) of page numbers
 * counted from the page where the first top chunk starts. */
#define MODEL_RUNS_MAX 16
struct model_pages {
	uint64_t lo[MODEL_RUNS_MAX], hi[MODEL_RUNS_MAX];
	int n;
};

/* How many pages of [a, b) are not mapped yet. */
static inline uint64_t model_pages_unmapped(const struct model_pages *m, uint64_t a, uint64_t b)
{
	uint64_t missing = b - a;

	for (int i = 0; i < m->n; i++) {
		uint64_t lo = m->lo[i] > a ? m->lo[i] : a, hi = m->hi[i] < b ? m->hi[i] : b;

		if (lo < hi)
			missing -= hi - lo;
	}
	return missing;
}

/* Map [a, b).  -1 (nothing changed) when it would take more runs than
 * MODEL_RUNS_MAX. */
static inline int model_pages_map(struct model_pages *m, uint64_t a, uint64_t b)
{
	int i = 0, j;

	while (i < m->n && m->hi[i] < a)               /* runs wholly before [a, b) */
		i++;
	for (j = i; j < m->n && m->lo[j] <= b; j++) {  /* runs that touch it merge in */
		a = m->lo[j] < a ? m->lo[j] : a;
		b = m->hi[j] > b ? m->hi[j] : b;
	}
	if (j == i && m->n == MODEL_RUNS_MAX)
		return -1;
	memmove(&m->lo[i + 1], &m->lo[j], (size_t)(m->n - j) * sizeof m->lo[0]);
	memmove(&m->hi[i + 1], &m->hi[j], (size_t)(m->n - j) * sizeof m->hi[0]);
	m->n += 1 - (j - i);
	m->lo[i] = a, m->hi[i] = b;
	return 0;
}

/* sbrk(-n): every page from `from` on is gone. */
static inline void model_pages_unmap_from(struct model_pages *m, uint64_t from)
{
	while (m->n > 0 && m->lo[m->n - 1] >= from)
		m->n--;
	if (m->n > 0 && m->hi[m->n - 1] > from)
		m->hi[m->n - 1] = from;
}

/* The first page at or after page p that is not mapped. */
static inline uint64_t model_pages_mapped_end(const struct model_pages *m, uint64_t p)
{
	for (int i = 0; i < m->n; i++)
		if (m->lo[i] <= p && p < m->hi[i])
			return m->hi[i];
	return p;
}

/* ------------------------------------------------------ the replay */

/* How a frame is allocated, and its name: frames --alloc NAME, and the
 * alloc column of frames' CSV that the grader reads. */
enum model_alloc { MODEL_CALLOC, MODEL_MALLOC, MODEL_MEMSET, MODEL_ONCE, MODEL_FRAME };
__attribute__((unused))
static const char *const model_alloc_names[] = { "calloc", "malloc", "memset", "once", "frame" };
#define MODEL_ALLOCS (sizeof model_alloc_names / sizeof model_alloc_names[0])

/* The main arena's top as the frame loop finds it: its offset into its
 * first page, its size, which of its pages are mapped (counted from that
 * first page), and the heap below that page (for the span only). */
struct model_heap {
	uint64_t below_top, top_offset, top_bytes;
	struct model_pages mapped;
};

/* The heap a process's first malloc makes, where nothing was measured (a
 * submission of format 1): glibc's tcache struct (2.26 on: uint16_t counts
 * from 2.30, char before, then as many pointers: tcache_perthread_struct),
 * then the top, ending on the page after top_pad + MINSIZE. */
static inline struct model_heap model_heap_first(const struct model_machine *mc,
						 const struct model_policy *pol)
{
	const uint64_t bins = 64, ptr = model_size_sz(mc), al = model_align(mc);
	const uint64_t tcache = bins * (mc->glibc_minor >= 30 ? 2 : 1) + bins * ptr;
	const uint64_t o = mc->glibc_minor < 26 ? 0 : (tcache + model_size_sz(mc) + al - 1) & ~(al - 1);
	struct model_heap h = { 0 };

	h.top_offset = o;
	h.top_bytes = model_pages_of(o + pol->top_pad + model_minsize(mc), mc->page) * mc->page - o;
	return h;
}

struct model_run {
	uint64_t size;           /* bytes a frame (the largest, under --vary) */
	enum model_alloc alloc;
	unsigned long frames;
	unsigned long calls_lo, calls_hi;   /* the frames whose system calls count */
};

struct model_result {
	uint64_t faults;
	uint64_t written_first;  /* pages written first though the frame is read first
				  * (calloc's clear, chunk headers): 1 fault, not per_page */
	uint64_t span;           /* the largest mapping a frame lies in: its own, or the heap */
	uint64_t kept;           /* heap pages still mapped after the last trim */
	unsigned long fresh_frames;  /* frames that ran mostly on pages never touched before */
	unsigned long mmap_frames;
	unsigned long trims;     /* times free() gave the heap's top back (sbrk(-n)) */
	int per_page;            /* faults a fresh page of the frame takes: 1 when a fill
				  * writes it first (memset, once, perturb), else what the
				  * kernel charges a read, then a write: 2 or 1 */
	uint64_t corrupt;        /* sampled pixels not as drawn on black */
	unsigned long brk, mmap, munmap;    /* calls in frames calls_lo..calls_hi */
};

enum model_status { MODEL_OK, MODEL_TOO_MANY_RUNS, MODEL_TOO_LARGE };

/* Bytes past which the replay's sums could overflow: every size, offset
 * and setting it adds up stays under this (2^56: 64 PiB). */
#define MODEL_BYTES_MAX ((uint64_t)1 << 56)

struct model_arena {
	const struct model_machine *mc;
	uint64_t minsize;
	uint64_t top, top_size;  /* the top chunk, in bytes from the first page */
	struct model_pages mapped;
	struct model_result *r;
	int full;                /* a touch needed more page runs than there are */
};

/* The process touches bytes [a, b): a page not mapped yet faults once when
 * the touch writes first, `per_read` times when it reads first.  Returns
 * how many pages it found unmapped. */
static inline uint64_t model_touch(struct model_arena *m, uint64_t a, uint64_t b, int read_first)
{
	const uint64_t page = m->mc->page;
	uint64_t lo = a / page, hi = (b + page - 1) / page;
	uint64_t n = model_pages_unmapped(&m->mapped, lo, hi);
	const int per_read = m->r->per_page;

	m->r->faults += n * (uint64_t)(read_first ? per_read : 1);
	if (!read_first && per_read > 1)
		m->r->written_first += n;
	if (model_pages_map(&m->mapped, lo, hi) < 0)
		m->full = 1;
	return n;
}

/* _int_free of the frame: it merges into the top, and a top of at least
 * trim_threshold goes back to the system down to top_pad (systrim).
 * Returns 1 when it trimmed (an sbrk(-n): a brk call). */
static inline int model_free_into_top(struct model_arena *m, uint64_t p, uint64_t nb,
				      const struct model_policy *pol, uint64_t trim)
{
	const uint64_t page = m->mc->page;
	uint64_t area, extra;

	m->top = p, m->top_size += nb;
	if (m->top_size < trim || m->top_size <= m->minsize + 1)
		return 0;
	area = m->top_size - m->minsize - 1;
	if (area <= pol->top_pad)
		return 0;
	extra = (area - pol->top_pad) / page * page;
	if (extra == 0)
		return 0;
	m->top_size -= extra;
	model_pages_unmap_from(&m->mapped, (m->top + m->top_size) / page);
	m->r->trims++;
	m->r->kept = (m->top + m->top_size) / page - m->top / page;
	return 1;
}

/* Sampled pixels of a frame at `mem` that still hold the last frame's
 * picture (which ended at dirty_end, 0 for none): the part of this frame
 * under it that is still mapped (a page given back comes back zero). */
static inline uint64_t model_stale_samples(const struct model_arena *m, uint64_t mem,
					   uint64_t size, uint64_t dirty_end)
{
	const uint64_t stride = MODEL_SAMPLE_STRIDE * MODEL_PIXEL_BYTES, page = m->mc->page;
	uint64_t end = dirty_end, mapped = model_pages_mapped_end(&m->mapped, mem / page) * page;

	if (dirty_end <= mem)
		return 0;
	if (mapped < end)
		end = mapped > mem ? mapped : mem;
	if (mem + size < end)
		end = mem + size;
	return (end - mem + stride - 1) / stride;
}

/*
 * Replay the frame loop through glibc's policy (malloc.c: _int_malloc,
 * sysmalloc, __libc_calloc, _int_free, systrim, __libc_free) page by page,
 * from the heap h, and count the faults each touch must take:
 *  - a frame comes from mmap when the top chunk is too small, the chunk is
 *    at least the mmap threshold and mmap_max allows it: all its pages are
 *    new, and the first is faulted by malloc writing the chunk header.
 *    Freeing an mmapped chunk above the threshold and under 32 MiB raises
 *    the threshold to its size and the trim threshold to twice that (the
 *    dynamic threshold; model_threshold_cap() says why "under").
 *  - otherwise the top grows by the request plus top_pad plus MINSIZE, less
 *    what it held, in whole pages; malloc writes the chunk's header and the
 *    new top's header (the page after the frame: a write comes first);
 *  - calloc clears only the part of a chunk that was the old top: Linux
 *    builds malloc.c with MORECORE_CLEARS=2, trusting every page sbrk
 *    hands out to be zero; the cleared pages are written first;
 *  - perturb fills, memset and once write first: 1 fault a page; else the
 *    renderer reads a row before it writes it: 2 faults a page where the
 *    read maps the zero page, 1 where it allocates;
 *  - free() merges the frame into the top; a top of trim_threshold or more
 *    is cut back to top_pad + MINSIZE and up to the page's end (those pages
 *    stay mapped for the next frame).
 * Corrupt pixels (the frame check samples one 8-byte pixel every 64 bytes
 * from the frame's start): under --alloc malloc, a sample still holding
 * the last frame's picture (the same place reused, not cleared, still
 * mapped) is corrupt; perturb's fill (malloc fills a frame with it, a
 * frame is never a tcache block) spoils every sample of every frame.
 * System calls, in frames calls_lo..calls_hi: an mmap and a munmap a
 * mapped frame, a brk a growth of the heap and a brk a trim.
 * Not modelled: sizes that vary, thread arenas, huge pages (Lab 1's
 * instruments, tools/include/frames.h, add those on top).
 */
static inline enum model_status model_replay(const struct model_machine *mc,
					     const struct model_policy *pol,
					     const struct model_heap *h,
					     const struct model_run *run, struct model_result *r)
{
	const uint64_t page = mc->page, sz = model_size_sz(mc), minsize = model_minsize(mc);
	const uint64_t size = run->size, stride = MODEL_SAMPLE_STRIDE * MODEL_PIXEL_BYTES;
	const struct model_chunk c = model_chunk_sizes(mc, size);
	const uint64_t nb = c.nb, cap = model_threshold_cap(mc);
	const int write_first = run->alloc == MODEL_MEMSET || run->alloc == MODEL_ONCE || pol->perturb;
	const unsigned long allocs = run->alloc == MODEL_ONCE ? 1 : run->frames;
	const uint64_t pad = pol->top_pad < MODEL_BYTES_MAX ? pol->top_pad : MODEL_BYTES_MAX;
	uint64_t thr = pol->mmap_threshold, trim = pol->trim_threshold, dirty_end = 0;
	struct model_arena m = { mc, minsize, h->top_offset, h->top_bytes, h->mapped, r, 0 };

	memset(r, 0, sizeof *r);
	if (size > MODEL_BYTES_MAX || h->top_offset > MODEL_BYTES_MAX ||
	    h->top_bytes > MODEL_BYTES_MAX || h->below_top > MODEL_BYTES_MAX)
		return MODEL_TOO_LARGE;
	r->per_page = write_first ? 1 : mc->read_faults_per_page;
	for (unsigned long i = 0; i < allocs && !m.full; i++) {
		const uint64_t old_top = m.top, old_top_size = m.top_size;
		const int counted = i + 1 >= run->calls_lo && i + 1 <= run->calls_hi;
		uint64_t fresh = 0, p, mem;

		if (pol->perturb && run->alloc == MODEL_MALLOC)
			r->corrupt += (size + stride - 1) / stride;
		if (m.top_size < nb + minsize && nb >= thr && pol->mmap_max > 0) {
			/* header write, then the rest read first (or written) */
			r->faults += 1 + (uint64_t)r->per_page * (model_pages_of(16 + size, page) - 1);
			r->written_first += r->per_page > 1;      /* the header's page */
			r->fresh_frames++, r->mmap_frames++;
			r->mmap += counted, r->munmap += counted;
			if (c.mapped > r->span)
				r->span = c.mapped;
			if (pol->dynamic && c.mchunk > thr && (c.mchunk | 2) <= cap)
				thr = c.mchunk, trim = 2 * c.mchunk;
			dirty_end = 0;
			continue;
		}
		if (m.top_size < nb + minsize) {        /* sysmalloc grows the heap */
			m.top_size += (nb + pad + minsize - m.top_size + page - 1) & ~(page - 1);
			r->brk += counted;
		}
		if (m.top > MODEL_BYTES_MAX || m.top_size > MODEL_BYTES_MAX)
			return MODEL_TOO_LARGE;
		if (h->below_top + m.top + m.top_size > r->span)
			r->span = h->below_top + m.top + m.top_size;
		p = m.top, mem = p + 2 * sz;
		m.top += nb, m.top_size -= nb;
		if (run->alloc == MODEL_MALLOC && !pol->perturb)
			r->corrupt += model_stale_samples(&m, mem, size, dirty_end);
		fresh += model_touch(&m, p + sz, p + 2 * sz, 0);           /* set_head(p) */
		fresh += model_touch(&m, m.top + sz, m.top + 2 * sz, 0);   /* set_head(top) */
		if (run->alloc == MODEL_CALLOC)
			fresh += model_touch(&m, mem, p + sz + (!pol->perturb && p == old_top &&
								nb > old_top_size ? old_top_size : nb), 0);
		fresh += model_touch(&m, mem, mem + size, !write_first);  /* fill, memset, render */
		r->fresh_frames += fresh > (size / page) / 2;
		if (run->alloc == MODEL_ONCE)
			break;
		dirty_end = mem + size;
		if (model_free_into_top(&m, p, nb, pol, trim))
			r->brk += counted;
	}
	return m.full ? MODEL_TOO_MANY_RUNS : MODEL_OK;
}

#endif
