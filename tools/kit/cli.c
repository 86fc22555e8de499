/*
 * tools/kit/cli.c - the command line and the ways out: errors, options,
 * numbers, CSV fields, progress (what each does: tools/include/cli.h).
 *
 * Compiled once a build flavour into DIR/kit/libkit.a (the Makefile's
 * kit_lib) and linked by every program that includes tools/include/cli.h:
 * a program compiles the declarations, not this code.
 */
#include "../include/cli.h"

/* Set by each program's main(); used to prefix every message. */
const char *cli_prog = "malloc-labs";

/* The process cli_start() ran in.  A forked child that fails leaves
 * with _exit(): exit() would run the parent's atexit check and flush a
 * copy of the parent's stdio buffers. */
static pid_t cli_pid;

/* Print "prog: WHYmessage: strerror(errno)" and exit CODE (die(): WHY
 * empty, exit 1).  For failures of the system (an allocation, a
 * syscall), not of the user's input. */
__attribute__((format(printf, 3, 0), noreturn))
void vdie(int code, const char *why, const char *fmt, va_list ap)
{
	int saved = errno;

	fprintf(stderr, "%s: %s", cli_prog, why);
	vfprintf(stderr, fmt, ap);
	if (saved)
		fprintf(stderr, ": %s", strerror(saved));
	fputc('\n', stderr);
	if (cli_pid && getpid() != cli_pid)
		_exit(code);
	exit(code);
}

__attribute__((format(printf, 1, 2), noreturn))
void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(1, "", fmt, ap);
}

/* Print "prog: reason", then the program's usage, on stderr; exit 2.
 * Bad input is the user's mistake, so it gets exit status 2, never a crash. */
__attribute__((format(printf, 2, 3), noreturn))
void bad_usage(void (*usage)(FILE *), const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage(stderr);
	exit(2);
}

/* At exit: stdout must have reached its file.  A full disk, a closed
 * descriptor or a broken pipe would otherwise end in exit status 0 with
 * the output lost (the coreutils close_stdout idea). */
static void cli_close_stdout(void)
{
	int pending, bad;

	if (getpid() != cli_pid)   /* a child: its stdout is the parent's */
		return;
	pending = __fpending(stdout) > 0;
	bad = ferror(stdout);
	if (fclose(stdout) != 0 && (pending || errno != EBADF))
		bad = 1;
	if (bad) {
		fprintf(stderr, "%s: write error: %s\n", cli_prog,
			errno ? strerror(errno) : "output lost");
		_exit(1);
	}
}

/* Every main() starts here: messages are prefixed with the program's
 * name, and a failed write to stdout makes the exit status 1. */
void cli_start(const char *argv0)
{
	cli_prog = argv0;
	cli_pid = getpid();
	if (atexit(cli_close_stdout) != 0)
		die("atexit");
}

/* Set by a program whose arguments are numbers (threads: SIZE COUNT
 * THREADS): "-5" is then called negative, not an unknown option. */
const char *cli_numbers_hint;

/* The option getopt_long (with opterr = 0 and a leading ':' in the short
 * options) stopped at, as the user typed it: "-z" from "-zt", "--bogus",
 * then the usage; exit 2.  `c` is what getopt_long returned. */
__attribute__((noreturn, unused))
static void cli_bad_option(void (*usage)(FILE *), int c, char **argv)
{
	const char *arg = argv[optind - 1];
	int is_long = arg && !strncmp(arg, "--", 2);
	char shortname[3] = { '-', (char)optopt, '\0' };

	if (c == ':')
		bad_usage(usage, "%s needs a value", is_long ? arg : shortname);
	if (is_long)
		bad_usage(usage, "unknown option '%.*s'", (int)strcspn(arg, "="), arg);
	/* A short option's letter is in optopt; argv[optind - 1] may still be
	 * the word before it ("-zt"), so only a whole "-5" is a number. */
	if (cli_numbers_hint && arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9')
		bad_usage(usage, "'%s' is negative: %s", arg, cli_numbers_hint);
	bad_usage(usage, "unknown option '%s'", optopt ? shortname : arg);
}

/*
 * getopt_long as every program uses it: the next option for the caller's
 * switch, or -1 at the end.  It answers -h/--help itself (the usage on
 * stdout, exit 0) and stops at an unknown option or a missing value with
 * one line and the usage (exit 2); `shortopts` must start with ':' so a
 * missing value can be told from an unknown option.
 */
int cli_getopt(int argc, char **argv, const char *shortopts,
			const struct option *longopts, void (*usage)(FILE *))
{
	int c;

	opterr = 0;     /* our own message, then the usage */
	c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c == 'h') {
		usage(stdout);
		exit(0);
	}
	if (c == '?' || c == ':')
		cli_bad_option(usage, c, argv);
	return c;
}

/* After the options, for a program that takes no other arguments. */
void cli_no_arguments(void (*usage)(FILE *), int argc, char **argv)
{
	if (optind < argc)
		bad_usage(usage, "unexpected argument '%s'", argv[optind]);
}

/* Which of n names `s` is (an option's value: --alloc, --mode), or -1. */
int cli_name_index(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

/* A whole decimal number in [min, max], nothing after it.  0 on success. */
int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')    /* strtoull would skip blanks, take signs */
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* A size in bytes: a decimal number with an optional K, M or G suffix
 * (binary: KiB, MiB, GiB; "KiB"/"MiB"/"GiB" spelt out are accepted too).
 * Rejects overflow, negatives, fractions and junk.  0 on success. */
int cli_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: return -1;
	}
	if (shift && (!strcmp(end, "iB") || !strcmp(end, "B")))
		end += strlen(end);
	if (*end)
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	v <<= shift;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* --seed's value: any whole number (threads, arenas). */
uint64_t cli_seed_option(void (*usage)(FILE *), const char *s)
{
	uint64_t v;

	if (cli_parse_u64(s, 0, UINT64_MAX, &v))
		bad_usage(usage, "--seed wants a whole number, not '%s'", s);
	return v;
}

/* One CSV field: as it is when it holds no comma, quote or line break,
 * otherwise in double quotes with each quote doubled (RFC 4180). */
void cli_csv_str(FILE *out, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* Progress for a person watching: on stderr, only when stderr is a
 * terminal, overwritten in place and cleared by cli_progress_done(), so
 * nothing of it stays in the output, in a pipe or in a file.  At most 4
 * updates a second (pass force=1 for the first line of a new part); a line
 * is cut to 79 columns so it never wraps on an 80-column projector.  stderr
 * is unbuffered: printing allocates nothing, so a measured loop may call
 * it.  The coarse clock is enough for a quarter second and the cheapest. */
static int cli_progress_on = -1;     /* -1: not asked yet */

static struct timespec cli_progress_last;

/* The process whose line is on the terminal now (0: none).  A pid, not a
 * flag: a forked child inherits the parent's variables, and only the one
 * that drew the line should end it.  (sig_atomic_t: the handler reads it;
 * a pid fits, both are int on Linux.) */
static volatile sig_atomic_t cli_progress_by;

/* Ctrl-C mid-line: end the line before dying, so the shell's or make's
 * message ("make: *** ... Interrupt") starts a line of its own instead of
 * gluing onto "... faults so far".  Then die of the signal as before (the
 * disposition reset on entry): callers see a SIGINT death, not an exit. */
static void cli_progress_interrupted(int sig)
{
	if (cli_progress_by == getpid()) {
		ssize_t w = write(STDERR_FILENO, "\n", 1);
		(void)w;   /* nothing to do if it fails: we are dying anyway */
	}
	raise(sig);
}

/* Hooked once, at the first line drawn, and only where SIGINT kills:
 * a run the shell started in the background ignores it, and must go on. */
static void cli_progress_hook(void)
{
	static int hooked;
	struct sigaction old, sa;

	if (hooked)
		return;
	hooked = 1;
	if (sigaction(SIGINT, NULL, &old) != 0 || old.sa_handler != SIG_DFL)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = cli_progress_interrupted;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

/* Is a progress line due now?  If so it counts as shown: a line whose
 * figures cost a system call gets them only then, and is printed with
 * force=1 (if (cli_progress_due(0)) cli_progress(1, ...)). */
int cli_progress_due(int force)
{
	struct timespec now;

	if (cli_progress_on < 0)
		cli_progress_on = isatty(STDERR_FILENO);
	if (!cli_progress_on)
		return 0;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
	if (!force && now.tv_sec - cli_progress_last.tv_sec +
	    (now.tv_nsec - cli_progress_last.tv_nsec) / 1e9 < 0.25)
		return 0;
	cli_progress_last = now;
	return 1;
}

__attribute__((format(printf, 2, 3)))
void cli_progress(int force, const char *fmt, ...)
{
	char line[80];
	int n;
	va_list ap;

	if (!cli_progress_due(force))
		return;
	n = snprintf(line, sizeof line, "%s: ", cli_prog);
	if (n < 0 || (size_t)n >= sizeof line)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	cli_progress_hook();
	fprintf(stderr, "\r\033[K%s", line);
	cli_progress_by = getpid();
}

void cli_progress_done(void)
{
	if (cli_progress_on > 0)
		fputs("\r\033[K", stderr);
	cli_progress_by = 0;
}
