/*
 * tests/xmlcheck.c - is a file well-formed XML with one <svg> root?  The
 * kit draws its plots itself (tools/plots/plot), so its tests check the output
 * with this small checker rather than an XML package.
 *
 * Build and run: make tests/bin/xmlcheck; tests/bin/xmlcheck FILE.svg
 * Look at: exit 0 and "ok: N elements" when the file is well-formed; else
 * exit 1 and "FILE:LINE: reason" for the first problem.
 *
 * It checks what a browser's XML parser would reject: tags that do not
 * nest or close, attributes without quotes or given twice, '<' or a bare
 * '&' in text or attribute values, unknown entities, anything but
 * comments and white space outside the one root element, and a root that
 * is not <svg>.  It does not read a DTD or validate against SVG's schema.
 */
#include "tools/include/cli.h"
#include "tests/checkfile.h"

#include <ctype.h>

#define MAX_DEPTH 256
#define MAX_ATTRS 64


static void usage(FILE *f)
{
	fprintf(f, "usage: xmlcheck FILE\n"
		"Exit 0 when FILE is well-formed XML whose root element is <svg>;\n"
		"else print the first problem as FILE:LINE: reason and exit 1.\n");
}

static int name_start(int c) { return isalpha(c) || c == '_' || c == ':'; }
static int name_char(int c) { return isalnum(c) || c == '_' || c == ':' || c == '-' || c == '.'; }

/* Advances *p past a name; returns its length (0: none there). */
static size_t name(const char **p)
{
	const char *s = *p, *start = *p;

	if (!name_start((unsigned char)*s))
		return 0;
	while (name_char((unsigned char)*s))
		s++;
	*p = s;
	return (size_t)(s - start);
}

/* An entity or character reference at p ("&..."); returns its length. */
static size_t entity(const char *p)
{
	static const char *known[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	const char *s = p + 1;

	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (!strncmp(p, known[i], strlen(known[i])))
			return strlen(known[i]);
	if (*s == '#') {
		s++;
		if (*s == 'x') {
			s++;
			if (!isxdigit((unsigned char)*s))
				bad("a bad character reference");
			while (isxdigit((unsigned char)*s))
				s++;
		} else {
			if (!isdigit((unsigned char)*s))
				bad("a bad character reference");
			while (isdigit((unsigned char)*s))
				s++;
		}
		if (*s == ';')
			return (size_t)(s - p + 1);
	}
	bad("a bare '&' or an unknown entity (only amp, lt, gt, quot, apos)");
}

static void skip_space(const char **p)
{
	while (isspace((unsigned char)**p)) {
		if (**p == '\n')
			line++;
		(*p)++;
	}
}

int main(int argc, char **argv)
{
	const char *stack[MAX_DEPTH];
	size_t stack_len[MAX_DEPTH], depth = 0, elements = 0;
	int roots = 0;
	char *buf;
	size_t len;
	const char *p;

	file = checkfile_arg(argc, argv, "xmlcheck", usage);
	buf = checkfile_read(file, &len);
	if (strlen(buf) != len)
		bad("a NUL byte");

	p = buf;
	if (!strncmp(p, "<?xml", 5)) {
		p = strstr(p, "?>");
		if (!p)
			bad("the XML declaration never ends");
		p += 2;
	}
	while (*p) {
		if (*p != '<') {
			/* Text: only white space outside the root. */
			if (!depth && !isspace((unsigned char)*p))
				bad("text outside the root element");
			if (*p == '&')
				p += entity(p);
			else if (*p == '>')
				bad("a '>' in text (write &gt;)");
			else {
				if (*p == '\n')
					line++;
				p++;
			}
			continue;
		}
		if (!strncmp(p, "<!--", 4)) {
			const char *e = strstr(p + 4, "--");

			if (!e || e[2] != '>')
				bad("a comment that never ends, or '--' inside one");
			for (; p < e + 3; p++)
				line += *p == '\n';
			continue;
		}
		if (!strncmp(p, "<![CDATA[", 9)) {
			const char *e = strstr(p, "]]>");

			if (!depth)
				bad("CDATA outside the root element");
			if (!e)
				bad("CDATA that never ends");
			for (; p < e + 3; p++)
				line += *p == '\n';
			continue;
		}
		if (p[1] == '/') {
			const char *n = p + 2;
			size_t l = name(&n);

			if (!l)
				bad("an end tag without a name");
			if (!depth)
				bad("an end tag </%.*s> with nothing open", (int)l, p + 2);
			depth--;
			if (l != stack_len[depth] || strncmp(p + 2, stack[depth], l))
				bad("</%.*s> closes <%.*s>", (int)l, p + 2, (int)stack_len[depth],
				    stack[depth]);
			p = n;
			skip_space(&p);
			if (*p != '>')
				bad("junk in an end tag");
			p++;
			continue;
		}
		{
			const char *tag = p + 1, *n = p + 1, *attr[MAX_ATTRS];
			size_t l = name(&n), al[MAX_ATTRS], na = 0;

			if (!l)
				bad("a '<' that starts no tag (write &lt;)");
			if (!depth && roots++)
				bad("a second root element <%.*s>", (int)l, tag);
			if (!depth && (l != 3 || strncmp(tag, "svg", 3)))
				bad("the root element is <%.*s>, not <svg>", (int)l, tag);
			elements++;
			p = n;
			for (;;) {
				const char *a;
				size_t k;
				char q;

				if (!isspace((unsigned char)*p) && *p != '>' && *p != '/')
					bad("no space before an attribute of <%.*s>", (int)l, tag);
				skip_space(&p);
				if (*p == '>' || (p[0] == '/' && p[1] == '>'))
					break;
				a = p;
				k = name(&p);
				if (!k)
					bad("a bad attribute name in <%.*s>", (int)l, tag);
				for (size_t i = 0; i < na; i++)
					if (al[i] == k && !strncmp(attr[i], a, k))
						bad("attribute %.*s given twice", (int)k, a);
				if (na < MAX_ATTRS) {
					attr[na] = a;
					al[na++] = k;
				}
				skip_space(&p);
				if (*p != '=')
					bad("attribute %.*s has no value", (int)k, a);
				p++;
				skip_space(&p);
				q = *p;
				if (q != '"' && q != '\'')
					bad("attribute %.*s: the value is not quoted", (int)k, a);
				for (p++; *p != q; ) {
					if (!*p)
						bad("attribute %.*s: the value never ends", (int)k, a);
					if (*p == '<')
						bad("attribute %.*s: a '<' in the value", (int)k, a);
					if (*p == '&')
						p += entity(p);
					else {
						line += *p == '\n';
						p++;
					}
				}
				p++;
			}
			if (*p == '/') {
				p += 2;
				continue;
			}
			p++;
			if (depth == MAX_DEPTH)
				bad("elements nested deeper than %d", MAX_DEPTH);
			stack[depth] = tag;
			stack_len[depth++] = l;
		}
	}
	if (depth)
		bad("<%.*s> is never closed", (int)stack_len[depth - 1], stack[depth - 1]);
	if (!roots)
		bad("no root element");
	printf("ok: %zu elements\n", elements);
	return 0;
}
