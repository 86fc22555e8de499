/*
 * tests/checkfile.h - what the kit's small file checkers (tests/xmlcheck.c,
 * tests/jsoncheck.c) share: their one argument, the file read whole, and
 * bad(), the first problem as FILE:LINE: reason, exit 1.  Include it after
 * tools/include/cli.h.
 */
#ifndef MALLOC_LABS_CHECKFILE_H
#define MALLOC_LABS_CHECKFILE_H

static const char *file;     /* the file being checked, for bad() */
static size_t line = 1;      /* the line the checker has reached */

__attribute__((format(printf, 1, 2), noreturn))
static void bad(const char *fmt, ...)
{
	va_list ap;

	printf("%s:%zu: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	exit(1);
}

/* The checker's FILE argument: --help answered (usage on stdout, exit 0),
 * anything but one argument a usage error (exit 2).  Sets cli_prog. */
static const char *checkfile_arg(int argc, char **argv, const char *name, void (*usage)(FILE *))
{
	cli_prog = name;
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		exit(0);
	}
	if (argc != 2)
		bad_usage(usage, "one file to check");
	return argv[1];
}

/* The whole of FILE, NUL-terminated (a NUL inside is the caller's to
 * find: *len is the byte count); dies when it cannot be read. */
static char *checkfile_read(const char *file, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, got;
	FILE *f = fopen(file, "r");

	if (!f)
		die("%s", file);
	*len = 0;
	do {
		if (cap - *len < 4096) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap + 1);
			if (!buf)
				die("out of memory");
		}
		got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
	} while (got);
	if (ferror(f))
		die("reading %s", file);
	fclose(f);
	buf[*len] = '\0';
	return buf;
}

#endif
