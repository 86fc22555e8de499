/*
 * tools/include/cli.h - the command line and the ways out, shared by every
 * malloc-labs program (the labs, tools/plots/plot, the test helpers).
 *
 * One concern: what a person types and what the program says back outside
 * its numbers.  Measuring is tools/include/bench.h, the environment check
 * tools/include/env.h; this header needs neither.  Declarations only: the
 * code is tools/kit/cli.c, built once into the kit's library and linked.
 *   cli_start()              names the program; stdout is checked at exit
 *   die(), bad_usage()       failures: exit 1 (the system), exit 2 (input)
 *   cli_getopt()             getopt_long with the kit's option rules (below)
 *   cli_parse_*()            numbers and sizes (K/M/G = KiB/MiB/GiB)
 *   cli_csv_str()            one CSV field, quoted when it must be (RFC 4180)
 *   cli_progress()           a progress line on a terminal, cleared when done
 *
 * Options: a short letter means one thing in every program that has it;
 * a program without that option lacks the letter.  Options with no meaning
 * shared by programs are long only.  Long names never differ in meaning.
 *   -h  --help          the usage on stdout, exit 0            every program
 *   -n  --frames N, --iters N, --rounds N, --reps N
 *                       how many times the measured work repeats: frames,
 *                       malloc_variance, arenas, yes (threads: COUNT)
 *   -s  --size BYTES    the block or buffer under test: frames, yes
 *                       (threads: SIZE)
 *   -t  --threads N     worker threads: malloc_variance, arenas
 *                       (threads: THREADS)
 *   -l  --live N        what stays allocated: threads (bytes), arenas
 *                       (blocks)
 *   long only           --csv, --env (every lab), --seed, --stats, --trim,
 *                       and each program's own options
 */
#ifndef MALLOC_LABS_CLI_H
#define MALLOC_LABS_CLI_H

#include <features.h>
#if !defined(__linux__) || !defined(__GLIBC__)
#error "malloc-labs measures glibc's malloc on Linux: build it on a Linux system with glibc."
#else   /* the rest of the kit: skipped elsewhere, so the #error stands alone */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* --------------------------------------------------------------- options */

/* The longopts rows of the options with a letter: the table above, in
 * code, so a letter cannot drift to a second meaning.  -n has each
 * program's own long name. */
#define CLI_OPT_COUNT(name) { name, required_argument, NULL, 'n' }
#define CLI_OPT_SIZE        { "size", required_argument, NULL, 's' }
#define CLI_OPT_THREADS     { "threads", required_argument, NULL, 't' }
#define CLI_OPT_LIVE        { "live", required_argument, NULL, 'l' }

/* The rows a longopts table ends with: --help (answered by cli_getopt)
 * and the end mark. */
#define CLI_OPTIONS_END \
	{ "help", no_argument, NULL, 'h' }, \
	{ NULL, 0, NULL, 0 }

/* ------------------------------------------ defined in tools/kit/cli.c */

extern const char *cli_prog;

__attribute__((format(printf, 3, 0), noreturn))
void vdie(int code, const char *why, const char *fmt, va_list ap);

__attribute__((format(printf, 1, 2), noreturn))
void die(const char *fmt, ...);

__attribute__((format(printf, 2, 3), noreturn))
void bad_usage(void (*usage)(FILE *), const char *fmt, ...);

void cli_start(const char *argv0);

extern const char *cli_numbers_hint;

int cli_getopt(int argc, char **argv, const char *shortopts,
			const struct option *longopts, void (*usage)(FILE *));

void cli_no_arguments(void (*usage)(FILE *), int argc, char **argv);

int cli_name_index(const char *const *names, size_t n, const char *s);

int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

int cli_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);

uint64_t cli_seed_option(void (*usage)(FILE *), const char *s);

void cli_csv_str(FILE *out, const char *s);

int cli_progress_due(int force);

__attribute__((format(printf, 2, 3)))
void cli_progress(int force, const char *fmt, ...);

void cli_progress_done(void);

#endif /* Linux and glibc */
#endif /* MALLOC_LABS_CLI_H */
