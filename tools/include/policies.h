/*
 * tools/include/policies.h - Lab 8's instruments: what policies.c runs a
 * command, times it and reports with, kept out of the lesson.
 *
 * policies.c is the lesson: the policies, the worked example (--pack),
 * each policy's row, the runs, and the rule that makes their numbers
 * advice.  What it calls here:
 *   parse_options(), usage()        the command line, and its help
 *   packer_options()                the packer's own, when the command is
 *                                   this program's --pack
 *   find_command(), read_program()  the command's file (PATH, as execvp
 *                                   finds it); what the rows can change for
 *                                   it (its ELF, a #! interpreter, set-ID)
 *   find_library()                  an allocator's installed file
 *   read_input()                    stdin, read once, replayed to every run
 *   keep_file(), run_once(), run_ok()   --keep's files; one run, measured;
 *                                   did it exit 0
 *   trace_rows()                    one more run a row under strace: its calls
 *   pack_size()                     the packer's blocks (their faults are
 *                                   predicted here too, from glibc's rules)
 *   summarise_rows(), defaults_agree(), same_output(), ratio()
 *                                   medians and ranges; outputs compared
 *   print_preamble(), report()      the lines before the runs; the table, the
 *                                   CSV and what follows them, up to the advice
 *   print_command()                 a command as lines a student can paste
 * What the kit reads of the lesson: advice_min_runs (usage() names it).
 * Declarations only: the code is tools/kit/policies.c.
 */
#ifndef MALLOC_LABS_POLICIES_H
#define MALLOC_LABS_POLICIES_H

/* env.h defines the program's own build facts (env_build) in policies.c. */
#include "env.h"

#include <limits.h>

/* ------------------------------------------------------------- policies */

struct policy {
	const char *name;       /* the row's name */
	const char *tunables;   /* GLIBC_TUNABLES, or NULL */
	const char *alias;      /* the same as MALLOC_* variables, or NULL */
	const char *soname;     /* the library LD_PRELOAD loads, or NULL */
	const char *package;    /* the Debian package that installs it */
	const char *rebuild;    /* the same policy compiled in */
};

/* ------------------------------------------------------------- options */

#define MAX_RUNS 99u
#define MAX_TIMEOUT 86400u
#define MAX_BLOCKS 100000u
/* --pack: its blocks' sizes */
#define PACK_MIN_BYTES (256u << 10)  /* the smallest block's octave */
#define PACK_OCTAVES 8u              /* 256 KiB, 512 KiB ... 32 MiB, each
					up to twice its base: at most 64 MiB */

/* The rule's fewest runs a policy (policies.c's), which usage() names. */
extern const unsigned advice_min_runs;

enum output { OUTPUT_REPORT, OUTPUT_CSV };

struct options {
	unsigned runs;          /* runs a policy, interleaved */
	unsigned timeout;       /* seconds a run may take */
	int strace;             /* one more run a policy under strace */
	const char *keep;       /* a directory for each run's stdout, or NULL */
	int pack;               /* be the worked example, not run one */
	unsigned blocks;        /* --pack: blocks packed */
	uint64_t seed;          /* --pack: their sizes */
	enum output output;
};

/* The options before COMMAND; the command's own are never read. */
struct options parse_options(int argc, char **argv);

/* The options' text, for bad_usage(). */
void usage(FILE *out);

/* ------------------------------------------------------ the command's file */

enum program_kind {
	PROG_GLIBC,             /* dynamic, libc.so.6: every row applies */
	PROG_STATIC,            /* static glibc: tunables yes, LD_PRELOAD no */
	PROG_NO_GLIBC,          /* another malloc: no row changes it */
	PROG_SECURE,            /* setuid/setgid: AT_SECURE drops the settings */
	PROG_UNKNOWN,           /* not this machine's ELF: rows run, unchecked */
};

struct program {
	enum program_kind kind;
	char file[PATH_MAX];    /* the file read (an interpreter for #!) */
	char what[160];         /* why it is that kind, one line */
};

/* The command's file as execvp finds it, into out: 0 found. */
int find_command(const char *name, char *out, size_t len);

/* What the rows can change for the file at path (depth: 0). */
void read_program(const char *path, struct program *p, int depth);

/* An allocator's installed file, into out: 0 found. */
int find_library(const char *soname, char *out, size_t len);

/* ------------------------------------------------------------- the runs */

struct run {
	double wall_s, user_s, sys_s;
	long faults, rss_kib;
	int status;             /* wait status */
	int timed_out;
	uint64_t sum;           /* FNV-1a of stdout */
	char err[72];           /* stderr's last line, printable */
};

struct row {
	const struct policy *p;
	char setting[PATH_MAX + 64];    /* NAME=value in the child's environment */
	char skip[160];                 /* why it does not run, or "" */
	struct run runs[MAX_RUNS];
	unsigned failed;                /* runs that did not exit 0 */
	long calls[4];                  /* brk mmap munmap madvise */
	int traced;
};

/* What every run shares: the command, its input, where its stderr goes. */
struct job {
	char *const *argv;      /* the command's words, as given */
	char path[PATH_MAX];    /* argv[0] found */
	int stdin_fd;           /* the input replayed, or /dev/null */
	int err_fd;             /* a memfd for each run's stderr */
	char **env;             /* the environment without allocator settings */
	size_t n_env;
};

/* When the command is this program's --pack: its options (parsed as the
 * child will parse them), so its faults can be predicted; else NULL. */
const struct options *packer_options(const struct job *j, struct options *out);

/* The input, read once: a descriptor every run reads from its start;
 * -1 in *bytes when stdin is a terminal (then /dev/null). */
int read_input(off_t *bytes);

/* DIR/POLICY.RUN.out for --keep, or -1. */
int keep_file(const struct options *o, const struct row *w, unsigned run);

/* One run of path/argv with env: the measurement into r. */
void run_once(const struct job *j, const char *path, char *const *argv, char **env,
	      unsigned timeout, int keep_fd, struct run *r);

/* Did it exit 0 in time? */
int run_ok(const struct run *r);

/* One more run of each row under strace: rows[].calls, or why none in why. */
void trace_rows(struct job *j, const struct options *o, struct row *rows, size_t n,
		char *why, size_t wlen);

/* Block i's size: an octave, then a point inside it, both from the seed. */
size_t pack_size(uint64_t *state);

/* ------------------------------------------------------------ statistics */

struct summary {
	double wall, wall_lo, wall_hi, user, sys, faults, faults_lo, faults_hi, rss_kib;
};

/* Each row that ran without a failure, its runs' medians and ranges. */
void summarise_rows(const struct row *rows, size_t n, unsigned runs, struct summary *s);

/* Do the defaults' own runs print the same?  Only then may another row's
 * output be said to differ. */
int defaults_agree(const struct row *base, unsigned runs);

/* Does every run of w print what the defaults' first run printed? */
int same_output(const struct row *w, const struct row *base, unsigned runs);

/* a / b, 0 when b is not above 0. */
double ratio(double a, double b);

/* ---------------------------------------------------------------- report */

/* The lines before the runs: what runs, on what input, and how. */
void print_preamble(const struct job *j, const struct program *prog,
		    const struct options *o, off_t input, const struct row *rows, size_t n);

/* The report up to the advice, or the CSV; 1 when a run failed. */
int report(struct job *j, const struct options *o, const struct row *rows, size_t n,
	   const struct summary *s, int base_same, const struct options *packer,
	   const char *trace_why);

/* "  SETTING... COMMAND ARGS", folded to 80 columns: a line to paste. */
void print_command(const char *settings, char *const *argv);

#endif /* MALLOC_LABS_POLICIES_H */
