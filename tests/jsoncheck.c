/*
 * tests/jsoncheck.c - is a file one valid JSON value (RFC 8259), in valid
 * UTF-8?  Gradescope rejects a results.json that is not, and gives the
 * student nothing; the kit writes it with awk (tools/grading/gradescope.awk),
 * so its tests check the output with this small checker rather than a
 * JSON package (python is not a prerequisite).
 *
 * Build and run: make tests/bin/jsoncheck; tests/bin/jsoncheck FILE
 * Look at: exit 0 and one line per member, "PATH TYPE" (PATH with every
 * array index written [], so `sort -u` lists the shape: "tests[].visibility
 * string"), when the file is valid; else exit 1 and "FILE:LINE: reason"
 * for the first problem.
 *
 * It rejects what a strict parser would: bytes that are not UTF-8 (overlong
 * forms, surrogates, above U+10FFFF), control characters inside strings,
 * unknown escapes, \u escapes that pair surrogates wrongly, numbers with
 * leading zeros or a bare '.', trailing commas, and anything after the value.
 */
#include "tools/include/bench.h"
#include "tests/checkfile.h"

#include <ctype.h>

#define MAX_DEPTH 64

static const char *p, *end;

static void usage(FILE *f)
{
	fprintf(f, "usage: jsoncheck FILE\n"
		"Exit 0 and list each member as PATH TYPE when FILE is one valid JSON\n"
		"value in UTF-8; else print the first problem as FILE:LINE: reason, exit 1.\n");
}

static void blanks(void)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		if (*p++ == '\n')
			line++;
}

/* One UTF-8 sequence of two to four bytes at p (its lead byte >= 0x80). */
static void utf8(void)
{
	const unsigned char *u = (const unsigned char *)p;
	int need;
	unsigned lo = 0x80, hi = 0xbf;

	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		need = 1;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		need = 2, lo = u[0] == 0xe0 ? 0xa0 : 0x80, hi = u[0] == 0xed ? 0x9f : 0xbf;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		need = 3, lo = u[0] == 0xf0 ? 0x90 : 0x80, hi = u[0] == 0xf4 ? 0x8f : 0xbf;
	else
		bad("byte 0x%02x is not UTF-8", u[0]);
	if (end - p <= need)
		bad("a UTF-8 sequence cut short");
	if (u[1] < lo || u[1] > hi)
		bad("byte 0x%02x after 0x%02x is not UTF-8", u[1], u[0]);
	for (int i = 2; i <= need; i++)
		if (u[i] < 0x80 || u[i] > 0xbf)
			bad("byte 0x%02x is not a UTF-8 continuation", u[i]);
	p += need + 1;
}

static unsigned hex4(void)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++, p++) {
		if (p >= end || !isxdigit((unsigned char)*p))
			bad("\\u wants four hex digits");
		v = v * 16 + (unsigned)(isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10);
	}
	return v;
}

/* A string at p (p on its opening quote); its bytes are not kept. */
static void string(void)
{
	p++;
	for (;;) {
		if (p >= end)
			bad("a string never ends");
		if (*p == '"') {
			p++;
			return;
		}
		if ((unsigned char)*p < 0x20)
			bad("control byte 0x%02x inside a string", (unsigned char)*p);
		if ((unsigned char)*p >= 0x80) {
			utf8();
			continue;
		}
		if (*p++ != '\\')
			continue;
		if (p >= end)
			bad("a string never ends");
		if (strchr("\"\\/bfnrt", *p) && *p) {
			p++;
			continue;
		}
		if (*p++ != 'u')
			bad("unknown escape \\%c", p[-1]);
		unsigned v = hex4();
		if (v >= 0xdc00 && v <= 0xdfff)
			bad("a low surrogate with no high one");
		if (v >= 0xd800 && v <= 0xdbff) {
			if (end - p < 6 || p[0] != '\\' || p[1] != 'u')
				bad("a high surrogate with no low one");
			p += 2;
			v = hex4();
			if (v < 0xdc00 || v > 0xdfff)
				bad("a high surrogate with no low one");
		}
	}
}

static void number(void)
{
	if (*p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if (p < end && isdigit((unsigned char)*p))
		while (p < end && isdigit((unsigned char)*p))
			p++;
	else
		bad("a number wants a digit");
	if (p < end && *p == '.') {
		if (++p >= end || !isdigit((unsigned char)*p))
			bad("a digit must follow '.'");
		while (p < end && isdigit((unsigned char)*p))
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p >= end || !isdigit((unsigned char)*p))
			bad("an exponent wants a digit");
		while (p < end && isdigit((unsigned char)*p))
			p++;
	}
}

static void value(char *path, size_t plen, int depth);

/* The member list of an object or the elements of an array. */
static void members(char *path, size_t plen, int depth, int object)
{
	const char close = object ? '}' : ']';

	p++;
	blanks();
	if (p < end && *p == close) {
		p++;
		return;
	}
	for (;;) {
		size_t n = plen;

		blanks();
		if (object) {
			const char *k;

			if (p >= end || *p != '"')
				bad("a member name (a string) expected");
			k = p;
			string();
			n += (size_t)snprintf(path + plen, 512 - plen, "%s%.*s", plen ? "." : "",
					      (int)(p - k - 2), k + 1);
			blanks();
			if (p >= end || *p++ != ':')
				bad("':' expected after a member name");
		} else {
			n += (size_t)snprintf(path + plen, 512 - plen, "[]");
		}
		if (n >= 512)
			bad("names nested too deep");
		value(path, n, depth + 1);
		path[plen] = '\0';
		blanks();
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		if (p < end && *p == close) {
			p++;
			return;
		}
		bad("',' or '%c' expected", close);
	}
}

/* A value at p; prints "PATH TYPE" for each one inside a container. */
static void value(char *path, size_t plen, int depth)
{
	const char *type;

	if (depth > MAX_DEPTH)
		bad("nested deeper than %d", MAX_DEPTH);
	blanks();
	if (p >= end)
		bad("a value expected, the file ended");
	switch (*p) {
	case '{': type = "object"; break;
	case '[': type = "array"; break;
	case '"': type = "string"; break;
	case 't': case 'f': case 'n': type = *p == 'n' ? "null" : "boolean"; break;
	default: type = "number"; break;
	}
	if (plen)
		printf("%s %s\n", path, type);
	if (*p == '{' || *p == '[')
		members(path, plen, depth, *p == '{');
	else if (*p == '"')
		string();
	else if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		p += 4;
	else if (!strncmp(p, "false", 5))
		p += 5;
	else if (*p == '-' || isdigit((unsigned char)*p))
		number();
	else
		bad("no JSON value starts with '%c'", isprint((unsigned char)*p) ? *p : '?');
}

int main(int argc, char **argv)
{
	char *buf, path[512] = "";
	size_t len;

	file = checkfile_arg(argc, argv, "jsoncheck", usage);
	buf = checkfile_read(file, &len);
	p = buf;
	end = buf + len;
	value(path, 0, 0);
	blanks();
	if (p != end)
		bad("more after the value");
	return 0;
}
