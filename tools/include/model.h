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
 *   model_threshold_edge()                 the dynamic threshold's limit
 *   model_pages_*()                        mapped pages as runs
 *   model_replay()                         Lab 1's frame loop, page by page
 *   model_top_block()                      Lab 8's packer, a block at a time
 * Declarations only: the code is tools/kit/model.c, built once into the
 * kit's library and linked.
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
/* The most frames a run makes (frames --frames) and the model replays
 * (tools/grading/predict's frames= and calls=).  tools/labs/knobs, which
 * awk reads, writes it again: Lab 1's FRAMES range. */
#define MODEL_FRAMES_MAX 1000000u

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

/* ------------------------------------------------------------ the policy */

/* The settings that decide where a big block comes from and whether
 * free() gives it back. */
struct model_policy {
	uint64_t mmap_threshold, trim_threshold, top_pad, mmap_max;
	unsigned perturb;
	unsigned hugetlb;
	int dynamic;         /* the threshold still adapts (nothing was set) */
};

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

/* ------------------------------------------- a block at a time (Lab 8) */

/* The main arena as a loop sees it that frees each block before it asks
 * for the next (policies --pack): the heap is its top chunk alone. */
struct model_top {
	struct model_policy pol;   /* free() of a mapped chunk may move it */
	uint64_t top;              /* the top chunk's bytes */
	uint64_t touched;          /* heap pages written since the last trim */
};

/* ------------------------------------------------------ the page runs */

/* Pages that are mapped, as a few disjoint runs [lo, hi) of page numbers
 * counted from the page where the first top chunk starts. */
#define MODEL_RUNS_MAX 16
struct model_pages {
	uint64_t lo[MODEL_RUNS_MAX], hi[MODEL_RUNS_MAX];
	int n;
};

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

/* ------------------------------------------ defined in tools/kit/model.c */

int model_glibc_minor(struct env_glibc g);

uint64_t model_size_sz(const struct model_machine *mc);

uint64_t model_align(const struct model_machine *mc);

uint64_t model_minsize(const struct model_machine *mc);

uint64_t model_pages_of(uint64_t bytes, uint64_t page);

struct model_policy model_policy_from_env(const struct env_malloc *m);

void model_tune(struct model_policy *p);

struct model_chunk model_chunk_sizes(const struct model_machine *mc, uint64_t size);

uint64_t model_threshold_edge(const struct model_machine *mc);

uint64_t model_top_block(const struct model_machine *mc, struct model_top *h, uint64_t size);

int model_pages_map(struct model_pages *m, uint64_t a, uint64_t b);

struct model_heap model_heap_first(const struct model_machine *mc,
						 const struct model_policy *pol);

enum model_status model_replay(const struct model_machine *mc,
					     const struct model_policy *pol,
					     const struct model_heap *h,
					     const struct model_run *run, struct model_result *r);

#endif
