/*
 * tools/grading/regioncheck.c - is one exercise region (the text between
 * its markers, tools/lib/exercise.awk) plain C that can only be what it
 * says?  The grader re-runs a student's code by splicing each region into
 * the kit's own program (tools/grading/region.sh); before that, this
 * reads the region as the compiler's first phases would and refuses what
 * could reach past it:
 *   - a preprocessor line (# or %: first on a line): a #define of the
 *     harness's calls, an #include of another file, a #line
 *   - a line that continues (backslash-newline): it could join the END
 *     marker's line, or hide a # behind a splice
 *   - a trigraph or a digraph: other spellings of #, { and }
 *   - asm, _Pragma, __attribute__ (a constructor, a section), and the
 *     __builtin_ functions (the caller's frame, raw traps)
 *   - braces, brackets or parentheses out of balance: closing the
 *     region's function early to write code at file scope
 *   - an unterminated comment, string or character, a NUL, a byte that is
 *     not ASCII outside a comment or a string
 * What it passes, region.sh then compiles alone and reads the symbols of.
 *   regioncheck FILE           exit 0: plain; 1: "line N: why" on stdout
 *   regioncheck --idents FILE  the identifiers, one a line (then as above)
 * Exit 2: bad usage or an unreadable file.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BYTES (64 * 1024)   /* a region is a function or four */
#define MAX_DEPTH 256

static const char *prog = "regioncheck";

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [--idents] FILE\n", prog);
}

static void bad_usage(const char *why)
{
	fprintf(stderr, "%s: %s\n", prog, why);
	usage(stderr);
	exit(2);
}

/* The first reason found, with its line; the check stops there. */
static int refused(long line, const char *why, const char *what)
{
	printf("line %ld: %s%s%s\n", line, why, what ? ": " : "", what ? what : "");
	return 1;
}

static int banned_name(const char *id)
{
	static const char *const names[] = {
		"asm", "__asm", "__asm__", "_Pragma", "__attribute", "__attribute__", NULL
	};
	for (int i = 0; names[i]; i++)
		if (strcmp(id, names[i]) == 0)
			return 1;
	return strncmp(id, "__builtin_", 10) == 0;
}

static int is_digraph(const char *p)
{
	return (p[0] == '<' && (p[1] == ':' || p[1] == '%')) ||
	       (p[0] == ':' && p[1] == '>') ||
	       (p[0] == '%' && (p[1] == '>' || p[1] == ':'));
}

/* A string or character literal from p (at its quote): the byte after it,
 * or NULL when the line ends first. */
static const char *skip_literal(const char *p)
{
	char q = *p++;

	for (; *p && *p != '\n'; p++) {
		if (*p == '\\' && p[1] && p[1] != '\n')
			p++;
		else if (*p == q)
			return p + 1;
	}
	return NULL;
}

static int check(const char *text, size_t n, int idents)
{
	static const char open[] = "({[", close[] = ")}]";
	char stack[MAX_DEPTH];
	int depth = 0, line_start = 1;
	long line = 1;
	const char *p = text, *end = text + n;

	if (memchr(text, '\0', n))
		return refused(1, "a NUL byte", NULL);
	for (const char *q = text; (q = strchr(q, '\\')); q++)
		if (q[1] == '\n' || (q[1] == '\r' && q[2] == '\n')) {
			long l = 1;
			for (const char *r = text; r < q; r++)
				l += *r == '\n';
			return refused(l, "a line that continues (a backslash at its end)", NULL);
		}
	while (p < end) {
		if (*p == '\n') {
			line++, line_start = 1, p++;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			if (!e)
				return refused(line, "a comment never closed", NULL);
			for (; p < e; p++)
				line += *p == '\n';
			p = e + 2;
			continue;
		}
		if (p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		if (line_start && (*p == '#' || (p[0] == '%' && p[1] == ':')))
			return refused(line, "a preprocessor line", NULL);
		line_start = 0;
		if (*p == '"' || *p == '\'') {
			const char *e = skip_literal(p);
			if (!e)
				return refused(line, *p == '"' ? "a string never closed" : "a character never closed", NULL);
			p = e;
			continue;
		}
		if (p[0] == '?' && p[1] == '?' && p[2] && strchr("=/'()!<>-", p[2]))
			return refused(line, "a trigraph", NULL);
		if (is_digraph(p))
			return refused(line, "a digraph (another spelling of #, {, } or [ ])", NULL);
		if (isalpha((unsigned char)*p) || *p == '_') {
			char id[128];
			size_t k = 0;
			while (p < end && (isalnum((unsigned char)*p) || *p == '_')) {
				if (k < sizeof id - 1)
					id[k++] = *p;
				p++;
			}
			id[k] = '\0';
			if (banned_name(id))
				return refused(line, "a name no region may use", id);
			if (idents)
				puts(id);
			continue;
		}
		if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
			/* a pp-number: digits, letters, dots, and a sign after e or p */
			for (p++; p < end && (isalnum((unsigned char)*p) || *p == '.' || *p == '_' ||
					      ((*p == '+' || *p == '-') && strchr("eEpP", p[-1]))); p++)
				;
			continue;
		}
		if ((unsigned char)*p >= 0x80 || *p == '\\' || *p == '@' || *p == '`' || *p == '$')
			return refused(line, "a character C does not use outside strings", NULL);
		if (strchr(open, *p)) {
			if (depth == MAX_DEPTH)
				return refused(line, "nested too deep", NULL);
			stack[depth++] = *p;
		} else if (strchr(close, *p)) {
			if (depth == 0)
				return refused(line, "a closing bracket with nothing open: code outside the region's functions", NULL);
			if (stack[--depth] != open[strchr(close, *p) - close])
				return refused(line, "brackets that do not pair", NULL);
		}
		p++;
	}
	if (depth)
		return refused(line, "a bracket never closed", NULL);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "idents", no_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int idents = 0, c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'i')
			idents = 1;
		else if (c == 'h') {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1)
		bad_usage(optind == argc ? "no FILE" : "one FILE only");

	FILE *f = fopen(argv[optind], "rb");
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[optind], strerror(errno));
		return 2;
	}
	static char text[MAX_BYTES + 2];
	size_t n = fread(text, 1, MAX_BYTES + 1, f);
	int err = ferror(f);
	fclose(f);
	if (err) {
		fprintf(stderr, "%s: %s: cannot be read\n", prog, argv[optind]);
		return 2;
	}
	if (n > MAX_BYTES)
		return refused(1, "over 64 KiB", NULL);
	text[n] = '\0';
	int rc = check(text, n, idents);
	if (fflush(stdout) != 0)
		return 2;
	return rc;
}
