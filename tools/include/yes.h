/*
 * tools/include/yes.h - Lab 5's instruments: what yes.c needs that is not
 * its lesson.  yes.c is the lesson (the writer, the reader it forks, the
 * buffers at five alignments, the exercise, the runs); what it calls here:
 *   parse_options()                 the options (struct options)
 *   pin_to_cpu(), voluntary_switches()   --cpus; how often a process blocked
 *   drain()                         read a pipe to its end, counting
 *   show_run(), run_label           the progress line: which run is going
 *   check_run(), take_medians()     every byte through; each row's median run
 *   flush_stdout(), stop_if_stdout_gone()   stop when stdout's reader has gone
 *   print_head(), print_rows(), print_summary()   the report, table and CSV
 *   read_stdin()                    --read: the reader alone, of stdin
 * and the tables: align_offset[] (enum align), sweep_sizes[].
 * Declarations only: the code is tools/kit/yes.c.
 */
#ifndef MALLOC_LABS_YES_H
#define MALLOC_LABS_YES_H

#include "env.h"

#define MAX_REPS 99

/* page+1 is there because 8 and 16 keep every 8-byte word aligned: only an
 * odd offset makes a copy that works in words meet unaligned ones. */
enum align { AL_MALLOC, AL_PAGE, AL_PAGE1, AL_PAGE8, AL_PAGE16, N_ALIGN };
extern const unsigned align_offset[N_ALIGN];   /* from a page boundary */

static const uint64_t sweep_sizes[] = {
	2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576,
};
#define N_SWEEP (sizeof sweep_sizes / sizeof sweep_sizes[0])

/* ------------------------------------------------------------- options */

enum output { OUTPUT_REPORT, OUTPUT_CSV };

struct options {
	uint64_t bytes;        /* written per run */
	uint64_t size;         /* 0: the sweep */
	int align;             /* -1: all five */
	unsigned reps;
	uint64_t read_only;    /* --read BYTES: be the reader of stdin */
	int writer_cpu, reader_cpu;   /* -1: wherever the scheduler puts them */
	enum output output;
};

struct options parse_options(int argc, char **argv);

/* One run through the pipe. */
struct run {
	uint64_t written, read;
	uint64_t writes;        /* write() calls */
	uint64_t short_writes;  /* calls that wrote less than asked */
	uint64_t writer_sleeps; /* voluntary context switches: blocked on a full pipe */
	uint64_t reader_sleeps; /* ... blocked on an empty one */
	double seconds;
};

/* One row of the table: a size and an alignment. */
struct row {
	uint64_t size;
	int align;
	unsigned addr_mod;     /* address mod the page size of the buffer written from */
	struct run runs[MAX_REPS];
	struct run median;
};

/* ----------------------------------------------------------- processes */

/* Run on this CPU only (die() if it may not). */
void pin_to_cpu(int cpu);

/* Voluntary context switches so far: each one is a time this process
 * blocked, here on a pipe that was full (writer) or empty (reader). */
uint64_t voluntary_switches(void);

/* Read fd to EOF or until `limit` bytes (0: no limit); count bytes and
 * read() calls, and (first_byte_at, if not NULL) when the first came. */
uint64_t drain(int fd, uint64_t limit, uint64_t *reads, double *first_byte_at);

/* ---------------------------------------------------------------- runs */

/* Which run is going, for the progress line (set by show_run()). */
extern char run_label[64];

/* Name run k of this size and alignment on the progress line. */
void show_run(uint64_t size, int align, unsigned k, unsigned reps);

/* die() unless the run wrote and its reader read all `total` bytes. */
void check_run(const struct row *w, const struct run *r, uint64_t total);

/* Each row's median run, by time. */
void take_medians(struct row *rows, int first, int last, unsigned reps);

/* Flush stdout; on an error (EPIPE: its reader has gone) say so, exit 1. */
void flush_stdout(void);

/* Before each run: exit 1 if the reader of a stdout pipe has gone. */
void stop_if_stdout_gone(void);

/* -------------------------------------------------------------- report */

/* Before the first row: the CSV header, or the environment check, what a
 * run is, and the table's head when the table is all five alignments. */
void print_head(const struct options *o);

/* One size's rows first..last (alignments), as the options ask. */
void print_rows(const struct options *o, const struct row *rows, int first, int last);

/* Under the whole table: size's effect beside alignment's; n sizes. */
void print_summary(const struct options *o, struct row table[][N_ALIGN], size_t n);

/* --read: the reader alone, of stdin (GNU yes, say), and its rate. */
void read_stdin(const struct options *o);

#endif /* MALLOC_LABS_YES_H */
