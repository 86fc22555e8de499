/*
 * tools/kit/yes.c - Lab 5's instruments: the options, pinning and counting
 * sleeps, the reader's loop, the checks between runs, and the report,
 * table and CSV (what each does: tools/include/yes.h).
 *
 * Compiled once a build flavour as DIR/kit/yes.o and linked into yes
 * alone.
 */
/* This unit reads the program's env_build, it does not define it. */
#define KIT_UNIT 1
#include "../include/yes.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>

#define READ_BUF (128u * 1024)   /* above the pipe's 64 KiB: never the limit */
#define GIB ((double)(1u << 30))

/* In enum align's order. */
static const char *const align_names[] = {
	"malloc", "page", "page+1", "page+8", "page+16",
};
const unsigned align_offset[N_ALIGN] = { 0, 0, 1, 8, 16 };

/* ------------------------- options: their defaults, usage, the parser */

/* Where parse_options() starts, and what usage() calls the default. */
static const struct options defaults = {
	.bytes = 256u << 20, .size = 0, .align = -1, .reps = 3,
	.writer_cpu = -1, .reader_cpu = -1, .output = OUTPUT_REPORT,
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [options]\n"
		"Write \"y\\n\" from a buffer into a pipe that a child process drains;\n"
		"report GiB/s for buffer sizes 2K..1M at five alignments.\n"
		"      --bytes BYTES   bytes through the pipe per run (default %" PRIu64 "M)\n"
		"  -s, --size BYTES    one buffer size instead of the sweep (16 to 64M)\n"
		"      --align A       one alignment: malloc (as malloc returned it),\n"
		"                      page, page+1, page+8 or page+16 (default: all five)\n"
		"  -n, --reps N        runs per row, the median is shown (default %u)\n"
		"      --cpus W,R      pin the writer to CPU W and the reader to CPU R\n"
		"                      (0,0: one CPU; 0,1: two; default: not pinned)\n"
		"      --read BYTES    only read BYTES from stdin and report the rate,\n"
		"                      e.g.  yes | %s --read 1G\n"
		"      --csv           a CSV header and one row per run instead\n"
		"      --env           print the environment check and exit\n"
		"  -h, --help          this text\n"
		"BYTES take K, M or G (KiB, MiB, GiB).\n",
		cli_prog, defaults.bytes >> 20, defaults.reps, cli_prog);
}

/* "W,R": two CPUs this process may run on. */
static void parse_cpus(const char *s, struct options *o)
{
	cpu_set_t allowed;
	uint64_t w, r;
	char first[16];
	const char *comma = strchr(s, ',');

	if (!comma || (size_t)(comma - s) >= sizeof first)
		bad_usage(usage, "--cpus wants two CPU numbers W,R, e.g. 0,1, not '%s'", s);
	memcpy(first, s, (size_t)(comma - s));
	first[comma - s] = '\0';
	if (cli_parse_u64(first, 0, CPU_SETSIZE - 1, &w) ||
	    cli_parse_u64(comma + 1, 0, CPU_SETSIZE - 1, &r))
		bad_usage(usage, "--cpus wants two CPU numbers W,R, e.g. 0,1, not '%s'", s);
	if (sched_getaffinity(0, sizeof allowed, &allowed))
		die("sched_getaffinity");
	if (!CPU_ISSET(w, &allowed) || !CPU_ISSET(r, &allowed))
		bad_usage(usage, "--cpus %s: this process may not run on CPU %" PRIu64
			  " (see nproc, taskset -p $$)", s, CPU_ISSET(w, &allowed) ? r : w);
	o->writer_cpu = (int)w;
	o->reader_cpu = (int)r;
}

struct options parse_options(int argc, char **argv)
{
	enum { OPT_BYTES = 256, OPT_ALIGN, OPT_CPUS, OPT_READ };
	static const struct option longopts[] = {
		{ "bytes", required_argument, NULL, OPT_BYTES },
		CLI_OPT_SIZE,
		{ "align", required_argument, NULL, OPT_ALIGN },
		CLI_OPT_COUNT("reps"),
		{ "cpus", required_argument, NULL, OPT_CPUS },
		{ "read", required_argument, NULL, OPT_READ },
		ENV_OPTIONS_END,
	};
	struct options o = defaults;
	uint64_t v;
	int c;

	while ((c = env_getopt(argc, argv, ":s:n:h", longopts, usage)) != -1) {
		switch (c) {
		case OPT_BYTES:
			if (cli_parse_size(optarg, 1, 1ull << 40, &o.bytes))
				bad_usage(usage, "--bytes wants bytes from 1 to 1T, e.g. 256M, not '%s'", optarg);
			break;
		case 's':
			if (cli_parse_size(optarg, 16, 64u << 20, &o.size))
				bad_usage(usage, "--size wants bytes from 16 to 64M, e.g. 16K, not '%s'", optarg);
			break;
		case OPT_ALIGN:
			o.align = cli_name_index(align_names, N_ALIGN, optarg);
			if (o.align < 0)
				bad_usage(usage, "--align wants malloc, page, page+1, page+8 or page+16,"
				  " not '%s'", optarg);
			break;
		case 'n':
			if (cli_parse_u64(optarg, 1, MAX_REPS, &v))
				bad_usage(usage, "--reps wants a whole number from 1 to %d, not '%s'", MAX_REPS, optarg);
			o.reps = (unsigned)v;
			break;
		case OPT_CPUS: parse_cpus(optarg, &o); break;
		case OPT_READ:
			if (cli_parse_size(optarg, 1, 1ull << 40, &o.read_only))
				bad_usage(usage, "--read wants bytes from 1 to 1T, e.g. 1G, not '%s'", optarg);
			break;
		case ENV_OPT_CSV: o.output = OUTPUT_CSV; break;
		}
	}
	cli_no_arguments(usage, argc, argv);
	if (o.read_only && (o.size || o.align >= 0 || o.writer_cpu >= 0))
		bad_usage(usage, "--read only reads stdin: it takes no --size, --align or --cpus");
	return o;
}

/* ------------------------------------------------------------ processes */

void pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set))
		die("sched_setaffinity(CPU %d)", cpu);
}

/* Voluntary context switches so far: each one is a time this process
 * blocked, here on a pipe that was full (writer) or empty (reader). */
uint64_t voluntary_switches(void)
{
	return (uint64_t)bench_usage_now().nvcsw;
}

/* ------------------------------------------------------------- reading */

/* Read fd to EOF or until `limit` bytes (0: no limit); count bytes and
 * read() calls.  The bytes are never looked at: like `> /dev/null`. */
uint64_t drain(int fd, uint64_t limit, uint64_t *reads, double *first_byte_at)
{
	static char buf[READ_BUF];
	uint64_t got = 0;

	for (;;) {
		size_t want = sizeof buf;
		ssize_t n;

		if (limit && limit - got < want)
			want = (size_t)(limit - got);
		if (limit && want == 0)
			break;
		n = read(fd, buf, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("read from the pipe");
		if (n == 0)
			break;
		if (got == 0 && first_byte_at)
			*first_byte_at = bench_now();
		got += (uint64_t)n;
		(*reads)++;
		if (limit && (*reads & 0xfff) == 0)   /* --read: the only process */
			cli_progress(0, "read %" PRIu64 " MiB of %" PRIu64, got >> 20, limit >> 20);
	}
	return got;
}

/* ---------------------------------------------------------------- runs */

/* Which run is going, for the progress line (set by show_run()). */
char run_label[64];

/* Name run k of this size and alignment on the progress line. */
void show_run(uint64_t size, int align, unsigned k, unsigned reps)
{
	snprintf(run_label, sizeof run_label, "%" PRIu64 " B writes, %s, run %u of %u",
		 size, align_names[align], k + 1, reps);
	cli_progress(1, "%s", run_label);
}

static int cmp_seconds(const void *a, const void *b)
{
	double x = ((const struct run *)a)->seconds, y = ((const struct run *)b)->seconds;

	return (x > y) - (x < y);
}

static double gib_per_s(const struct run *r)
{
	return r->seconds > 0 ? (double)r->read / GIB / r->seconds : 0.0;
}

void check_run(const struct row *w, const struct run *r, uint64_t total)
{
	if (r->written != total || r->read != total)
		die("size %" PRIu64 " %s: wrote %" PRIu64 ", the reader got %" PRIu64
		    ", wanted %" PRIu64, w->size, align_names[w->align], r->written, r->read, total);
}

/* Each row's median run, by time. */
void take_medians(struct row *rows, int first, int last, unsigned reps)
{
	struct run sorted[MAX_REPS];

	for (int a = first; a <= last; a++) {
		memcpy(sorted, rows[a].runs, reps * sizeof sorted[0]);
		qsort(sorted, reps, sizeof sorted[0], cmp_seconds);
		rows[a].median = sorted[reps / 2];
	}
}

/* ------------------------------------------------------------- stdout */

/* `./yes | head -1` must stop when head has gone, as GNU yes does, not
 * after the whole sweep.  SIGPIPE is ignored (see main()), so a write to
 * a pipe nobody reads fails with EPIPE, like one to a full disk: say so
 * and exit 1 now.  Called after each row. */
void flush_stdout(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return;
	fprintf(stderr, "%s: write error: %s\n", cli_prog, strerror(errno ? errno : EIO));
	_exit(1);
}

/* Before each run: has the reader of a stdout pipe already gone?
 * poll() reports POLLERR on a pipe's write end once its read end is
 * closed, so the sweep stops without measuring rows nobody will see. */
void stop_if_stdout_gone(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = 0 };

	if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR)) {
		fprintf(stderr, "%s: write error: %s\n", cli_prog, strerror(EPIPE));
		_exit(1);
	}
}

/* --------------------------------------------------------------- report */

static long pipe_capacity(void)
{
	int p[2];
	long cap;

	if (pipe(p))
		die("pipe");
	cap = fcntl(p[0], F_GETPIPE_SZ);
	close(p[0]);
	close(p[1]);
	return cap;
}

/* The string-copy features /proc/cpuinfo lists for this CPU: erms
 * (enhanced REP MOVSB/STOSB) and fsrm (fast short REP MOV).  Whether an
 * odd source costs anything is up to the CPU and the kernel's copy
 * routine; the page+1 column measures it, and this line names the kind
 * of CPU that column measured, so two tables can be compared. */
static const char *describe_copy_flags(char *buf, size_t len)
{
	/* read(), not stdio: fopen() would malloc a FILE and its buffer and
	 * move where the malloc column's buffers land in the heap. */
	static char text[1 << 16];
	int fd = open("/proc/cpuinfo", O_RDONLY), erms = 0, fsrm = 0, seen = 0;
	size_t got = 0;
	ssize_t n;
	char *line, *save, *tok, *tsave;

	while (fd >= 0 && got < sizeof text - 1 &&
	       (n = read(fd, text + got, sizeof text - 1 - got)) > 0)
		got += (size_t)n;
	if (fd >= 0)
		close(fd);
	text[got] = '\0';
	for (line = strtok_r(text, "\n", &save); line && !seen;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "flags", 5))
			continue;
		seen = 1;
		for (tok = strtok_r(line, " \t", &tsave); tok;
		     tok = strtok_r(NULL, " \t", &tsave)) {
			erms |= !strcmp(tok, "erms");
			fsrm |= !strcmp(tok, "fsrm");
		}
	}
	if (!seen)
		snprintf(buf, len, "n/a (no x86 flags line in /proc/cpuinfo)");
	else if (!erms && !fsrm)
		snprintf(buf, len, "neither erms nor fsrm (/proc/cpuinfo)");
	else
		snprintf(buf, len, "%s%s%s (/proc/cpuinfo)", erms ? "erms" : "",
			 erms && fsrm ? " " : "", fsrm ? "fsrm" : "");
	return buf;
}

static const char *describe_cpus(const struct options *o, char *buf, size_t len)
{
	if (o->writer_cpu < 0)
		snprintf(buf, len, "writer and reader not pinned (--cpus W,R pins them)");
	else
		snprintf(buf, len, "writer on CPU %d, reader on CPU %d", o->writer_cpu, o->reader_cpu);
	return buf;
}

static void print_csv_header(void)
{
	printf("size,align,addr_mod_page,rep,bytes_written,bytes_read,writes,short_writes,"
	       "writer_sleeps,reader_sleeps,seconds,gib_per_s,writer_cpu,reader_cpu");
	env_csv_header(stdout);   /* glibc, THP, page, tunables, MALLOC_*, preload */
	putchar('\n');
}

static void print_csv_rows(const struct options *o, const struct row *w)
{
	for (unsigned k = 0; k < o->reps; k++) {
		const struct run *r = &w->runs[k];

		printf("%" PRIu64 ",", w->size);
		cli_csv_str(stdout, align_names[w->align]);   /* RFC 4180 */
		printf(",%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		       ",%" PRIu64 ",%" PRIu64 ",%.6f,%.3f,%d,%d",
		       w->addr_mod, k + 1, r->written, r->read,
		       r->writes, r->short_writes, r->writer_sleeps, r->reader_sleeps,
		       r->seconds, gib_per_s(r), o->writer_cpu, o->reader_cpu);
		env_csv_fields(stdout);
		putchar('\n');
	}
}

static void print_one(const struct options *o, const struct row *w)
{
	const struct run *r = &w->median;

	printf("  size:            %" PRIu64 " B\n", w->size);
	printf("  alignment:       %s\n", align_names[w->align]);
	printf("  address %% page:  %u\n", w->addr_mod);
	printf("  bytes written:   %" PRIu64 "\n", r->written);
	printf("  bytes read:      %" PRIu64 "\n", r->read);
	printf("  writes:          %" PRIu64 "\n", r->writes);
	printf("  short writes:    %" PRIu64 "\n", r->short_writes);
	printf("  writer sleeps:   %" PRIu64 "\n", r->writer_sleeps);
	printf("  reader sleeps:   %" PRIu64 "\n", r->reader_sleeps);
	printf("  time:            %.3f s (median of %u)\n", r->seconds, o->reps);
	printf("  throughput:      %.2f GiB/s\n", gib_per_s(r));
}

/* 79 columns: the five GiB/s columns hold up to 9999.99 (a machine a
 * thousand times faster than today's), sleeps/GiB up to 10 digits; the
 * malloc buffer's offset in its page is headed on two lines to fit. */
#define YES_TABLE_COLS "%9s %10s %7s %7s %7s %7s %7s %7s %10s\n"

static void print_table_head(void)
{
	printf("%-9s %10s %7s %s\n", "", "", "malloc", "GiB/s at each alignment:");
	printf(YES_TABLE_COLS, "size (B)", "writes/GiB", "%page", "malloc", "page", "page+1",
	       "page+8", "page+16", "sleeps/GiB");
}

/* Sleeps of writer and reader together, per GiB, in the page-aligned row. */
static void print_table_line(const struct row *rows)
{
	const struct run *p = &rows[AL_PAGE].median;

	printf("%9" PRIu64 " %10.0f %7u", rows[0].size, GIB / (double)rows[0].size,
	       rows[AL_MALLOC].addr_mod);
	for (int a = 0; a < N_ALIGN; a++)
		printf(" %7.2f", gib_per_s(&rows[a].median));
	printf(" %10.0f\n", (double)(p->writer_sleeps + p->reader_sleeps) * GIB / (double)p->read);
}

/* What the table says, in numbers from this run: the effect of size (the
 * 4 KiB and 16 KiB rows, page-aligned) next to the effect of alignment
 * (the widest spread across one row).  Only under the whole table. */
void print_summary(const struct options *o, struct row table[][N_ALIGN], size_t n)
{
	double worst = 0;
	uint64_t worst_size = 0;
	const struct run *r4 = NULL, *r16 = NULL;

	if (o->output != OUTPUT_REPORT || o->size || o->align >= 0)
		return;
	for (size_t i = 0; i < n; i++) {
		double lo = 1e300, hi = 0;

		for (int a = 0; a < N_ALIGN; a++) {
			double g = gib_per_s(&table[i][a].median);

			lo = g < lo ? g : lo;
			hi = g > hi ? g : hi;
		}
		if (lo > 0 && hi / lo - 1 > worst) {
			worst = hi / lo - 1;
			worst_size = table[i][0].size;
		}
		if (table[i][0].size == 4096)
			r4 = &table[i][AL_PAGE].median;
		if (table[i][0].size == 16384)
			r16 = &table[i][AL_PAGE].median;
	}
	if (r4 && r16 && gib_per_s(r4) > 0)
		printf("  16K / 4K:        %.2fx (page-aligned both)\n",
		       gib_per_s(r16) / gib_per_s(r4));
	printf("  widest spread:   %.1f%% between the fastest and slowest alignment\n"
	       "                   of one size (at %" PRIu64 " B)\n", worst * 100, worst_size);
	printf("  (a wide spread with sleeps/GiB far apart between runs is the scheduler,\n"
	       "  not the alignment: --csv shows each run's sleeps)\n");
}

/* Before the first row: the CSV header, or the environment check, what a
 * run is, and the table's head when the table is all five alignments. */
void print_head(const struct options *o)
{
	char cpus[96], flags[64];

	if (o->output == OUTPUT_CSV) {
		print_csv_header();
	} else {
		env_print_header(stdout);
		printf("# %" PRIu64 " bytes a run, median of %u; pipe capacity %ld B;\n"
		       "# the reader reads up to %u B a call\n# %s\n", o->bytes, o->reps, pipe_capacity(),
		       READ_BUF, describe_cpus(o, cpus, sizeof cpus));
		printf("# cpu copy:  %s\n", describe_copy_flags(flags, sizeof flags));
		if (o->align < 0)
			print_table_head();
	}
}

/* One size's rows: CSV lines, label: value lines (--size and --align),
 * a table line (all five alignments) or one alignment's line. */
void print_rows(const struct options *o, const struct row *rows, int first, int last)
{
	int single = o->size && o->align >= 0, full = o->align < 0;

	if (o->output == OUTPUT_CSV)
		for (int a = first; a <= last; a++)
			print_csv_rows(o, &rows[a]);
	else if (single)
		print_one(o, &rows[first]);
	else if (full)
		print_table_line(rows);
	else
		printf("%9" PRIu64 " %s: %.2f GiB/s (address %% page = %u)\n", rows[first].size,
		       align_names[first], gib_per_s(&rows[first].median),
		       rows[first].addr_mod);
}

/* ---------------------------------------------------------------- --read */

/* --read: the reader alone, of stdin (GNU yes, say), and its rate. */
void read_stdin(const struct options *o)
{
	uint64_t reads = 0, got, sleeps0 = voluntary_switches(), sleeps;
	double t0 = 0, t1, rate;

	got = drain(STDIN_FILENO, o->read_only, &reads, &t0);
	t1 = bench_now();
	cli_progress_done();
	sleeps = voluntary_switches() - sleeps0;
	if (got < o->read_only)
		die("stdin ended after %" PRIu64 " of %" PRIu64 " bytes", got, o->read_only);
	rate = (double)got / GIB / (t1 - t0);
	if (o->output == OUTPUT_CSV) {
		printf("bytes_read,reads,reader_sleeps,seconds,gib_per_s\n");
		printf("%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f,%.3f\n", got, reads, sleeps,
		       t1 - t0, rate);
		return;
	}
	env_print_header(stdout);
	printf("  bytes read:      %" PRIu64 "\n", got);
	printf("  reads:           %" PRIu64 "\n", reads);
	printf("  reader sleeps:   %" PRIu64 "\n", sleeps);
	printf("  time:            %.3f s (first byte to last)\n", t1 - t0);
	printf("  throughput:      %.2f GiB/s\n", rate);
}
