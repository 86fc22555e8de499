/*
 * tools/kit/model.c - the kit's one model of glibc malloc's policy and
 * faults (what each does: tools/include/model.h).
 *
 * Compiled once a build flavour into DIR/kit/libkit.a (the Makefile's
 * kit_lib) and linked by every program that includes tools/include/model.h:
 * a program compiles the declarations, not this code.
 */
#include "../include/model.h"

int model_glibc_minor(struct env_glibc g)
{
	return g.major > 2 ? 99 : g.major == 2 ? g.minor : 0;
}

/* SIZE_SZ, MALLOC_ALIGNMENT and MINSIZE (malloc.c).  MALLOC_ALIGNMENT is
 * 16 on x86-64 and aarch64 (2 x SIZE_SZ) and on i386 too
 * (sysdeps/i386/malloc-alignment.h: 16, not 2 x SIZE_SZ = 8). */
uint64_t model_size_sz(const struct model_machine *mc)
{
	return mc->bits == 32 ? 4 : 8;
}

uint64_t model_align(const struct model_machine *mc)
{
	(void)mc;
	return 16;
}

uint64_t model_minsize(const struct model_machine *mc)
{
	const uint64_t a = model_align(mc);

	return (4 * model_size_sz(mc) + a - 1) & ~(a - 1);
}

uint64_t model_pages_of(uint64_t bytes, uint64_t page)
{
	return (bytes + page - 1) / page;
}

struct model_policy model_policy_from_env(const struct env_malloc *m)
{
	struct model_policy p = { m->mmap_threshold, m->trim_threshold, m->top_pad, m->mmap_max,
				  m->perturb, m->hugetlb, m->dynamic };

	return p;
}

/* What frames --tune sets (tune_allocator(): mallopt(M_MMAP_MAX, 0) and
 * mallopt(M_TRIM_THRESHOLD, -1)); any mallopt of these freezes the
 * dynamic threshold. */
void model_tune(struct model_policy *p)
{
	p->mmap_max = 0;
	p->trim_threshold = UINT64_MAX;
	p->dynamic = 0;
}

struct model_chunk model_chunk_sizes(const struct model_machine *mc, uint64_t size)
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
static uint64_t model_threshold_cap(const struct model_machine *mc)
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
uint64_t model_threshold_edge(const struct model_machine *mc)
{
	const uint64_t cap = model_threshold_cap(mc);
	uint64_t s = cap;
	struct model_chunk c = model_chunk_sizes(mc, s);

	while (s > 8 && ((c.mchunk | 2) > cap || c.mchunk <= c.nb))
		c = model_chunk_sizes(mc, s -= 8);
	return s;
}

/* A chunk of nb bytes carved from the top at the heap's start, written
 * and freed: the pages it and the new top's header write that were not
 * written before fault.  sysmalloc grows the top by the shortfall plus
 * top_pad and MINSIZE, in pages; free() merges the chunk back, and
 * systrim, once the top reaches the trim threshold, gives back all but
 * top_pad (whole pages). */
static uint64_t model_top_carve(const struct model_machine *mc, struct model_top *h, uint64_t nb)
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
uint64_t model_top_block(const struct model_machine *mc, struct model_top *h, uint64_t size)
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

/* How many pages of [a, b) are not mapped yet. */
static uint64_t model_pages_unmapped(const struct model_pages *m, uint64_t a, uint64_t b)
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
int model_pages_map(struct model_pages *m, uint64_t a, uint64_t b)
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
static void model_pages_unmap_from(struct model_pages *m, uint64_t from)
{
	while (m->n > 0 && m->lo[m->n - 1] >= from)
		m->n--;
	if (m->n > 0 && m->hi[m->n - 1] > from)
		m->hi[m->n - 1] = from;
}

/* The first page at or after page p that is not mapped. */
static uint64_t model_pages_mapped_end(const struct model_pages *m, uint64_t p)
{
	for (int i = 0; i < m->n; i++)
		if (m->lo[i] <= p && p < m->hi[i])
			return m->hi[i];
	return p;
}

/* The heap a process's first malloc makes, where nothing was measured (a
 * submission of format 1): glibc's tcache struct (2.26 on: uint16_t counts
 * from 2.30, char before, then as many pointers: tcache_perthread_struct),
 * then the top, ending on the page after top_pad + MINSIZE. */
struct model_heap model_heap_first(const struct model_machine *mc,
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

/* The process touches bytes [a, b): a page not mapped yet faults once when
 * the touch writes first, `per_read` times when it reads first.  Returns
 * how many pages it found unmapped. */
static uint64_t model_touch(struct model_arena *m, uint64_t a, uint64_t b, int read_first)
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
static int model_free_into_top(struct model_arena *m, uint64_t p, uint64_t nb,
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
static uint64_t model_stale_samples(const struct model_arena *m, uint64_t mem,
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
 * instruments, tools/kit/frames.c, add those on top).
 */
enum model_status model_replay(const struct model_machine *mc,
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
