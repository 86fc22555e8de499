/*
 * yes.c - Lab 5: buffer size and alignment vs write() throughput.
 *
 * A yes(1)-like writer fills a malloc'd buffer with "y\n" and write()s it
 * into a pipe, a fixed number of bytes, while a child process reads and
 * discards them.  The report behind this lab saw 16 KiB buffers beat 4 KiB
 * ones and blamed alignment: "malloc returns page-aligned memory only above
 * some cutoff".  This program separates the two causes: every buffer size
 * from 2 KiB to 1 MiB is tried at five alignments - as malloc() returned it
 * (its address mod the page size is printed), page-aligned, and a page
 * boundary + 1 (odd: no word of the buffer is aligned), + 8 and + 16 bytes -
 * so size (write() calls per byte) and alignment vary apart.  The header
 * names the CPU's string-copy features (erms, fsrm), so a table says which
 * kind of CPU its page+1 column measured.
 * Where the reader runs turns out to matter more than both: --cpus pins it.
 *
 * Build: make yes
 * Run:   ./yes --cpus 0,0              the table, writer and reader on one CPU
 *        ./yes --cpus 0,1              the same on two CPUs
 *        ./yes --size 16K --align page+8     one row, label: value lines
 *        yes | ./yes --read 1G         GNU yes through the same kind of pipe
 *        make yes-table                all of these, side by side
 * Look at: how GiB/s changes down a column (size) against across a row
 *        (alignment), "malloc %page" (where malloc's buffers really start),
 *        and "sleeps": how often writer and reader blocked on the pipe.
 */
#include "tools/include/bench.h"   /* the clock */
#include "tools/include/yes.h"     /* options, tables, --read, reports, CSV */

#include <malloc.h>      /* memalign(), valloc(): what page_buffer() may call */
#include <signal.h>
#include <sys/wait.h>

/* The page size, from sysconf in main(): 4 KiB on x86-64, 16 or 64 KiB on
 * some arm64 and ppc64 kernels. */
static uintptr_t page_bytes;

/* --------------------------------------------------------------- reader */

/* The child: drain the pipe, send back the byte count and how often it
 * blocked, exit. */
static void reader_child(int data_fd, int result_fd, int cpu)
{
	uint64_t reads = 0, report[2], sleeps0;

	if (cpu >= 0)
		pin_to_cpu(cpu);
	sleeps0 = voluntary_switches();
	report[0] = drain(data_fd, 0, &reads, NULL);
	report[1] = voluntary_switches() - sleeps0;
	if (write(result_fd, report, sizeof report) != (ssize_t)sizeof report)
		_exit(1);
	_exit(0);
}

/* --------------------------------------------------------------- writer */

/* Write `total` bytes from buf, `size` at a time (the last write may be
 * shorter when size does not divide total). */
static void write_all(int fd, const char *buf, uint64_t size, uint64_t total, struct run *r)
{
	while (r->written < total) {
		uint64_t want = total - r->written < size ? total - r->written : size;
		ssize_t n = write(fd, buf, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("write to the pipe");
		r->writes++;
		/* A slow run (small writes, a busy machine, strace) lasts
		 * seconds: show how far, between two writes (the clock is read
		 * once in 1024 writes, each of which is a system call). */
		if ((r->writes & 0x3ff) == 0)
			cli_progress(0, "%s: %" PRIu64 " MiB of %" PRIu64, run_label,
				     r->written >> 20, total >> 20);
		if ((uint64_t)n < want)
			r->short_writes++;
		r->written += (uint64_t)n;
	}
}

static struct run one_run(const struct options *o, const char *buf, uint64_t size)
{
	int data[2], result[2];
	struct run r;
	uint64_t report[2], sleeps0;
	double t0;
	pid_t pid;
	int status;

	memset(&r, 0, sizeof r);
	if (pipe(data) || pipe(result))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(data[1]);
		close(result[0]);
		reader_child(data[0], result[1], o->reader_cpu);
	}
	close(data[0]);
	close(result[1]);

	sleeps0 = voluntary_switches();
	t0 = bench_now();
	write_all(data[1], buf, size, o->bytes, &r);
	close(data[1]);                /* EOF for the reader */
	r.writer_sleeps = voluntary_switches() - sleeps0;
	if (read(result[0], report, sizeof report) != (ssize_t)sizeof report)
		die("no byte count from the reader");
	r.seconds = bench_now() - t0;  /* every byte written and read */
	r.read = report[0];
	r.reader_sleeps = report[1];

	close(result[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die("the reader failed");
	return r;
}

/* ------------------------------------------------------------- buffers */

/* "y\n" over and over, as yes(1) writes; filling also touches every page
 * before any run is timed. */
static void fill_yes(char *p, uint64_t size)
{
	for (uint64_t i = 0; i < size; i++)
		p[i] = (i & 1) ? '\n' : 'y';
}

/* Exercise: a buffer of size bytes that starts on a page boundary (page
 * bytes: the page size), for --align page; NULL when it cannot be had.
 * The kit gives it to free() when the size is done, so it comes from
 * malloc's family.
 * Its region may use libc's names (tools/exercises/libc.uses) and those
 * of lab5.page_buffer.uses; make check names any rule it breaks. */
/* BEGIN EXERCISE lab5.page_buffer */
static char *page_buffer(uint64_t size, uintptr_t page)
{
	void *p;

	return posix_memalign(&p, page, size) ? NULL : p;
}
/* END EXERCISE lab5.page_buffer */

/* The buffers for one size: `plain` exactly as malloc() returned it,
 * `page` from page_buffer(), and `spare`, big enough to start a buffer at
 * a page boundary + 1, + 8 or + 16. */
struct buffers {
	char *plain, *page, *spare;
};

static char *buffer_for(const struct buffers *b, int align)
{
	uintptr_t page = ((uintptr_t)b->spare + page_bytes - 1) & ~(page_bytes - 1);

	return align == AL_MALLOC ? b->plain : align == AL_PAGE ? b->page
	       : (char *)(page + align_offset[align]);
}

static struct buffers get_buffers(uint64_t size)
{
	struct buffers b;

	b.plain = malloc(size);
	b.spare = malloc(size + 2 * page_bytes);
	if (!b.plain || !b.spare)
		die("malloc(%" PRIu64 ") failed", size + 2 * page_bytes);
	b.page = page_buffer(size, page_bytes);
	if (!b.page)
		die("page_buffer(%" PRIu64 ") returned NULL", size);
	for (int a = 0; a < N_ALIGN; a++)
		fill_yes(buffer_for(&b, a), size);
	return b;
}

/* ----------------------------------------------------------------- rows */

/* Every row of one size, its reps interleaved across the alignments so a
 * slow patch of a shared machine does not land on one alignment only. */
static void measure_size(const struct options *o, uint64_t size, struct row *rows,
			 int first, int last)
{
	struct buffers b = get_buffers(size);

	for (int a = first; a <= last; a++) {
		rows[a].size = size;
		rows[a].align = a;
		rows[a].addr_mod = (unsigned)((uintptr_t)buffer_for(&b, a) % page_bytes);
	}
	for (unsigned k = 0; k < o->reps; k++)
		for (int a = first; a <= last; a++) {
			stop_if_stdout_gone();   /* a syscall between runs, never in one */
			show_run(size, a, k, o->reps);
			rows[a].runs[k] = one_run(o, buffer_for(&b, a), size);
			check_run(&rows[a], &rows[a].runs[k], o->bytes);
		}
	take_medians(rows, first, last, o->reps);
	free(b.plain);
	free(b.page);
	free(b.spare);
}

/* Every size, at the alignments asked for; each size's rows printed as
 * soon as they are measured. */
static void run_rows(const struct options *o)
{
	static struct row table[N_SWEEP][N_ALIGN];
	const uint64_t *sizes = o->size ? &o->size : sweep_sizes;
	size_t n = o->size ? 1 : N_SWEEP;
	int first = o->align < 0 ? 0 : o->align, last = o->align < 0 ? N_ALIGN - 1 : o->align;

	print_head(o);
	flush_stdout();   /* before fork(): a child must not inherit unflushed output */
	for (size_t i = 0; i < n; i++) {
		measure_size(o, sizes[i], table[i], first, last);
		cli_progress_done();
		print_rows(o, table[i], first, last);
		flush_stdout();
	}
	print_summary(o, table, n);
}

int main(int argc, char **argv)
{
	struct options o;

	cli_start(argv[0]);
	o = parse_options(argc, argv);
	if (sysconf(_SC_PAGESIZE) <= 0)
		die("sysconf(_SC_PAGESIZE)");
	page_bytes = (uintptr_t)sysconf(_SC_PAGESIZE);
	/* A reader that dies must not kill the writer silently: write() then
	 * fails with EPIPE and die() says so; on stdout, flush_stdout() does. */
	signal(SIGPIPE, SIG_IGN);
	if (o.writer_cpu >= 0)
		pin_to_cpu(o.writer_cpu);
	if (o.read_only)
		read_stdin(&o);
	else
		run_rows(&o);
	return 0;
}
