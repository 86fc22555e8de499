/*
 * tools/include/env.h - the environment check every malloc-labs program prints
 * before its numbers, and the facts its predictions depend on.
 *
 * A fault or system-call count means something only beside the things
 * that change it: which glibc the program really runs with (not what
 * `ldd` says), page size, transparent huge pages, whether this kernel maps
 * the shared zero page on a read, every allocator setting inherited from
 * the environment (read the way *this* glibc reads it: tools/include/tunables.h),
 * and how the program itself was built.  Include this file first (it sets
 * _GNU_SOURCE for dladdr) in place of tools/include/bench.h.
 *   env_read_faults_per_page()  faults for a page read, then written (probe)
 *   env_thp_probe()             what a huge page read, then written, costs (probe)
 *   env_malloc_is_glibc()       is malloc() glibc's, or a preload / ASan's?
 *   env_glibc_model_applies()   do glibc's rules (the predictions) hold?
 *   env_allocator()             its name and version: "jemalloc 5.3.0"
 *   env_read_status(), env_status_kib()  /proc/self/status without malloc
 *   env_print_header()          "# " lines, <= 80 columns, warnings last
 *   env_csv_header/fields()     the same facts as trailing CSV columns
 *   env_getopt()                cli_getopt() that also answers --env
 * From tools/include/tunables.h: env_glibc(), env_malloc_policy(), env_describe().
 * Declarations only: the code is tools/kit/env.c, built once into the
 * kit's library and linked.
 */
#ifndef MALLOC_LABS_ENV_H
#define MALLOC_LABS_ENV_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "tunables.h"
#if defined(__linux__) && defined(__GLIBC__)   /* else cli.h said why */

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/utsname.h>

/* -------------------------------------------------------------- the kernel */

#define ENV_THP_DIR "/sys/kernel/mm/transparent_hugepage/"

/* The huge page sizes this kernel offers anonymous memory, each with its
 * setting: one hugepages-<N>kB folder a size (6.8+, "mTHP"), from 4 base
 * pages up to the PMD huge page, whose size follows from the page size:
 * 2 MiB at 4 KiB pages, 32 MiB at 16 KiB, 512 MiB at 64 KiB.  Read with
 * getdents64 into the stack (opendir() would malloc).  Sorted by size;
 * returns how many.  Older kernels have no such folder: 0. */
struct env_thp_size {
	unsigned long kib;
	char setting[12];        /* always, inherit, madvise or never */
};
#define ENV_THP_SIZES_MAX 24

/*
 * What read-first memory does under THP on this kernel, probed rather
 * than read from the version (distributions backport): a read of an
 * untouched huge-page-sized region maps the huge zero page (use_zero_page)
 * or allocates a huge page; a write to the huge zero page then allocates a
 * huge page (Linux 6.13+: commit 1ced09e0331f, "mm: allocate THP on
 * hugezeropage wp-fault", do_huge_zero_wp_pmd() in mm/huge_memory.c),
 * splitting it only when that allocation fails, or splits it at once and
 * faults once a base page after (before 6.13: do_huge_pmd_wp_page() went
 * straight to its split, 6.12's mm/huge_memory.c:1830-1831).
 * The probe: one aligned MADV_HUGEPAGE huge page, its first byte read,
 * its last page read, its first byte written, its last page written,
 * counting this thread's faults at each step; thp_fault_fallback's rise
 * tells "no huge page could be had" from "this kernel splits".  Cost: one
 * mmap of two huge pages of address space and its munmap, 2 to 5 faults,
 * the kernel zeroing one huge page (2 MiB at 4 KiB pages) and two reads of
 * /proc/vmstat: 0.45 to 0.76 ms on the kit's 6.18 VM.  A PMD page over
 * 32 MiB (64 KiB base pages: 512 MiB, which no frame can hold) is not
 * probed.
 */
enum env_thp_rw {
	ENV_THP_NOT_PROBED,      /* THP never, disabled for the process, or too dear */
	ENV_THP_NO_HUGE,         /* the read mapped a base page: no huge page here */
	ENV_THP_FALLBACK,        /* no huge page could be had (thp_fault_fallback rose) */
	ENV_THP_WRITE_ALLOCATES, /* read: huge zero page; write: a huge page (6.13+) */
	ENV_THP_WRITE_SPLITS,    /* read: huge zero page; write: split, 1 a page */
	ENV_THP_READ_ALLOCATES,  /* read: a huge page (no huge zero page) */
};

struct env_thp_probe {
	enum env_thp_rw rw;
	long read_faults, write_faults;  /* the first read's and first write's */
	long fallbacks;                  /* thp_fault_fallback's rise meanwhile */
	const char *not_probed;          /* why, for ENV_THP_NOT_PROBED */
};

#define ENV_THP_PROBE_MAX (32ul << 20)

/* -------------------------------------------------------------- printing */

/* The same facts for a CSV row: call env_csv_header() at the end of the
 * header line and env_csv_fields() at the end of each row.  malloc_env
 * holds every MALLOC_* variable except the kit's own MALLOC_LABS_*;
 * optimised is 1 for -O1 and up.  New columns go at the end: readers take
 * columns by name, and an older reader's columns keep their places. */
#define ENV_CSV_COLUMNS ",glibc,thp,mthp,page_bytes,read_faults_per_page,glibc_tunables," \
	"malloc_env,ld_preload,malloc_owner,compiler,optimised,kit"

/* --------------------------------------------------------------- options */

/* The codes of the options every lab has: above every character and above
 * the codes a program numbers its own long-only options with (256 up). */
#define ENV_OPT_ENV 1000
#define ENV_OPT_CSV 1001

/* The rows every lab's longopts end with: --csv (the program's own case),
 * --env (answered by env_getopt), --help and the end mark. */
#define ENV_OPTIONS_END \
	{ "csv", no_argument, NULL, ENV_OPT_CSV }, \
	{ "env", no_argument, NULL, ENV_OPT_ENV }, \
	CLI_OPTIONS_END

/* ------------------------------------------------------------- the build */

/* How this program was built, for the "# built:" line and the CSV: the
 * compiler's own macros, read where the program is compiled (the kit's
 * library is compiled apart, and a lab built by hand at -O0 must say
 * so).  A program's own source is one translation unit, which makes the
 * definition below once; a unit of the kit's (tools/kit/) defines KIT_UNIT
 * before it includes this, and only reads it. */
struct env_build {
	const char *compiler;   /* "gcc 12.2.0" */
	int optimised;          /* __OPTIMIZE__: built at -O1 or more */
	const char *kit;        /* the kit's revision, from the Makefile */
};
extern const struct env_build env_build;
#ifndef KIT_UNIT
#ifndef KIT_REV                 /* `git describe`: only make knows it */
#define KIT_REV "unknown"
#endif
const struct env_build env_build = {
#if defined(__clang__)          /* clang defines __GNUC__ too */
	"clang " __clang_version__,
#elif defined(__GNUC__)
	"gcc " __VERSION__,
#else
	"unknown",
#endif
#ifdef __OPTIMIZE__             /* a -O0 build times code no one ships */
	1,
#else
	0,
#endif
	KIT_REV,
};
#endif

/* ------------------------------------------ defined in tools/kit/env.c */

const char *env_sysfs_choice(const char *path, char *buf, size_t len);

int env_thp_sizes(struct env_thp_size *out, int max);

unsigned long env_thp_pmd_bytes(void);

const char *env_bytes_unit(unsigned long b, char *buf, size_t len);

int env_thp_always(void);

int env_read_faults_per_page(void);

long env_vmstat(const char *name);

const struct env_thp_probe *env_thp_probe(void);

long env_thp_read_write_faults(long touched);

char *env_read_status(char *buf, size_t len);

long env_status_kib(const char *text, const char *name);

const char *env_malloc_owner(void);

int env_malloc_is_glibc(void);

int env_glibc_model_applies(void);

const char *env_allocator(char *buf, size_t len);

void env_print_header(FILE *out);

void env_print_header_unless_csv(int csv);

void env_csv_header(FILE *out);

void env_csv_fields(FILE *out);

int env_getopt(int argc, char **argv, const char *shortopts,
		      const struct option *longopts, void (*usage)(FILE *));

#endif /* Linux and glibc */
#endif /* MALLOC_LABS_ENV_H */
