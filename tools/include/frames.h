/*
 * tools/include/frames.h - Lab 1's instruments: what frames.c measures
 * with, kept out of the lesson.
 *
 * frames.c is the lesson: the frame, the loop that allocates, renders,
 * checks and frees it, and the two exercises.  The instruments are the
 * rest: the options, the policy the prediction assumes, the heap measured
 * before the loop, the fault prediction from glibc's rules
 * (tools/include/model.h) and its why lines, and the report and CSV.
 * None of it calls the student's code.
 *   parse_options(), frame_size()     the options; each frame's size
 *   policy_from_environment()         glibc's defaults and the environment
 *   threshold_edge()                  --edge: Lab 4's edge on this machine
 *   watch_loop_start/frame/end()      the heap and the frames, by the loop
 *   predict_faults()                  the faults glibc's rules predict
 *   trim_heap()                       --trim: VmRSS around malloc_trim(0)
 *   print_header/report/csv()         the "# " lines, the report, the CSV
 * Declarations only: the code is tools/kit/frames.c.
 */
#ifndef MALLOC_LABS_FRAMES_H
#define MALLOC_LABS_FRAMES_H

/* env.h defines the program's own build facts (env_build) in frames.c. */
#include "env.h"
#include "model.h"

#include <malloc.h>      /* frames.c's mallopt() and malloc_stats() */
#include <sys/prctl.h>   /* frames.c's --no-thp */

#define WIDTH MODEL_FRAME_WIDTH      /* pixels per row */
#define FRAME_BYTES MODEL_FRAME_BYTES
#define SAMPLE_STRIDE MODEL_SAMPLE_STRIDE   /* check_frame() looks at every 8th pixel */
#define MAX_FRAMES MODEL_FRAMES_MAX

/* The model's kinds (tools/include/model.h: their names too), in its order. */
enum alloc_kind {
	ALLOC_CALLOC = MODEL_CALLOC, ALLOC_MALLOC = MODEL_MALLOC, ALLOC_MEMSET = MODEL_MEMSET,
	ALLOC_ONCE = MODEL_ONCE, ALLOC_FRAME = MODEL_FRAME,
};

/* ----------------------------------------------------------------- options */

enum output { OUTPUT_REPORT, OUTPUT_CSV };

struct options {
	unsigned frames;
	enum alloc_kind alloc;
	int tune;
	uint64_t size;       /* bytes per frame */
	uint64_t vary;       /* each frame's size moves by up to this much */
	enum output output;
	int no_thp;
	int stats;           /* malloc_stats() at the end */
	int trim;            /* --trim: malloc_trim(0) after the frame loop */
	int edge;            /* --edge: print Lab 4's edge and exit */
};

/* ------------------------------------------------------- watching the loop */

/* Where the kernel put the frames it mapped: each mapping's start mod the
 * PMD huge page, a few distinct values with how many frames had each.
 * Which part of a mapping a huge page can back follows from it, and ASLR
 * picks it: a run of frames reuses one hole, so runs differ, not frames. */
#define OFFSETS_MAX 8
struct map_offsets {
	uint64_t off[OFFSETS_MAX];
	unsigned frames[OFFSETS_MAX];
	int n;
	unsigned total;      /* frames recorded */
	int overflow;        /* more distinct starts than OFFSETS_MAX */
};

struct result {
	struct model_heap heap;  /* measured just before the loop */
	struct map_offsets where;  /* where the mapped frames lay */
	uint64_t pmd;            /* the PMD huge page's bytes, 0 for none */
	long thp_fallbacks;      /* thp_fault_fallback's rise over the loop, -1 unknown */
	double seconds;
	struct bench_usage use;
	uint64_t corrupt, sampled;
	unsigned mmap_frames;    /* frames whose address lay outside the brk heap */
	size_t max_bytes;
};

/* ------------------------------------------------------------- prediction */

/* The model's replay of the loop (tools/include/model.h: the faults, the
 * pages written first, the span, the frames on fresh pages and from mmap,
 * the trims, the faults a fresh page takes, the pages kept), with what
 * huge pages make of it. */
struct prediction {
	struct model_result m;   /* m.faults: with the huge pages' difference */
	int bound;               /* huge pages may back the frames: m.faults is an upper bound */
	const char *bound_why;   /* why it is a bound */
	uint64_t huge;           /* the smallest huge page that could apply (0: none) */
	uint64_t huge_pages;     /* huge pages modelled (the frames' aligned parts) */
	uint64_t huge_headers;   /* of them, those a chunk header writes first */
};

/* ------------------------------------------------------- after the loop */

/* --trim: VmRSS (KiB) before and after malloc_trim(0), called once the
 * frames are freed.  With --tune the freed frame is still the heap's top
 * chunk, resident; malloc_trim(0) gives it back (systrim, and madvise of
 * free pages: mtrim in malloc.c).  -1: not asked for. */
struct trim_result {
	long before_kib, after_kib;
	int returned;
};

/* ----------------------------------------- defined in tools/kit/frames.c */

struct options parse_options(int argc, char **argv);

size_t frame_size(const struct options *o, uint64_t *seed);

struct model_policy policy_from_environment(void);

uint64_t threshold_edge(void);

void watch_loop_start(struct result *r, const char *heap_lo);

void watch_frame(struct result *r, const void *f, const char *heap_lo);

void watch_loop_end(struct result *r);

struct prediction predict_faults(const struct options *o, const struct model_policy *pol,
				 const struct model_heap *h, const struct map_offsets *w);

struct trim_result trim_heap(int asked);

void print_header(const struct options *o);

void print_report(const struct options *o, const struct result *r,
		  const struct prediction *pr, const struct model_policy *pol,
		  const struct trim_result *t);

void print_csv(const struct options *o, const struct result *r,
	       const struct prediction *pr, const struct trim_result *t);

#endif
