/*
 * tools/plots/plot.c - draw the kit's CSV as an SVG picture, with no package
 * beyond the C library: the lab programs print CSV, this turns it into a
 * chart a class can read from the back of the room.
 *
 * Build and run:   make tools/plots/plot          (make plots runs the labs and
 *                                            draws every picture)
 *                  ./frames --csv | tools/plots/plot --x alloc --y time_s --kind bars
 *                  tools/plots/plot --help
 *
 * What it does: reads RFC 4180 CSV (quoted fields may hold commas, quotes
 * and newlines; CRLF line ends are accepted; lines starting with '#' are
 * skipped, and the "# " lines before the header, the kit's environment
 * header, become the SVG's <title> and a footer), picks the columns BY HEADER NAME, and
 * writes the SVG to stdout.  It never invents a point: a missing column,
 * a cell that is not a number, or an empty table stops it with the reason.
 * A point that a log axis cannot show (zero or negative) is left out, and
 * the picture says how many were.
 *
 * Look at: the data-* attributes of <g class="plot-area">: the range of
 * the data drawn, the range and scale of the axes, so a test can check
 * that the axes hold every point and end close to it; and data-x0/x1 on
 * the title, where it is estimated to start and end.  Each series is one <g class="series">.
 */
#include "../include/cli.h"

#include <getopt.h>
#include <math.h>

/* ============================================================ constants */

#define MAX_VLINES 16
#define MAX_MARKS 8
#define MAX_TICKS 64
#define FONT 16                 /* px: tick labels, legend, axis titles */
#define FONT_SMALL 14           /* px: footer and value labels; still readable projected */
#define FONT_TITLE 22
#define FONT_TITLE_MIN 14       /* a long title shrinks to fit, down to this */
#define CHAR_W 0.56             /* average glyph width of sans-serif, in em */
#define CHAR_W_BOLD 0.64        /* the same in bold, rounded up: a title must fit */

/* Okabe and Ito's colour-blind-safe palette, darkest first; the sky blue
 * comes after black (next to the blue, two blues read as one), the yellow
 * last because it is faint on white.  Shapes and dashes repeat the
 * distinction for print in grey. */
static const char *palette[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7",
	"#E69F00", "#000000", "#56B4E9", "#F0E442",
};
#define NPALETTE (sizeof palette / sizeof palette[0])
static const char *dashes[] = { "", "8 5", "2 4", "12 4 2 4" };
#define NDASHES (sizeof dashes / sizeof dashes[0])

enum kind { K_LINE, K_POINTS, K_BARS, K_CDF };

/* =============================================================== types */

/* The CSV as read: every cell a string, rows in input order. */
struct table {
	char **head;            /* column names */
	size_t ncols;
	char **cell;            /* nrows * ncols cells, row-major */
	size_t *line;           /* input line where each row starts */
	size_t nrows, cap;
	char *env;              /* the "# " lines before the header, or NULL */
	const char *name;       /* the file name, for messages */
};

/* One line (or marker set, or bar colour) of the picture. */
struct series {
	const char *name;       /* value of --series, or the y column's name */
	const char *style;      /* value of --style, or NULL */
	int colour, dash;       /* indexes into palette and dashes */
	double *x, *y;          /* bars: x is the category's index */
	double *ref, *flag;     /* --ref and --flag values per point (bars) */
	size_t n, cap;
};

struct vline {
	double x;
	const char *label;
};

/* One axis: the transform, its range in transformed units, its ticks. */
enum scale { A_LIN, A_LOG10, A_LOG2, A_TAIL, A_CAT };
static const char *const scale_names[] = { "lin", "log10", "log2", "tail", "cat" };
struct axis {
	enum scale type;
	int bytes;              /* tick labels as KiB/MiB/GiB */
	int percent;            /* tick labels as percentages (CDF fraction) */
	double lo, hi;          /* transformed range */
	double dmin, dmax;      /* data drawn, untransformed */
	int have_data;
	double top_finite;      /* tail axis: the largest transformed value below 100% */
	double tick[MAX_TICKS];
	char label[MAX_TICKS][24];
	int labelled[MAX_TICKS];
	size_t nticks;
};

struct options {
	const char *file, *x, *y, *series, *style;
	const char *title, *subtitle, *xlabel, *ylabel;
	const char *ref, *ref_label;     /* --ref COL:LABEL (bars, lines, points) */
	const char *also, *also_label;   /* --also COL:LABEL (lines, points) */
	const char *flag, *flag_text;    /* --flag COL:TEXT (bars) */
	const char *hide;                /* --hide NAME: a series read, not drawn */
	enum kind kind;
	int logx, logy, xbytes, median;
	int log2x;                       /* --logx2: powers of 2 on a log x axis */
	double dodge;                    /* --dodge PX: series i moved sideways */
	struct vline vl[MAX_VLINES];
	size_t nvl;
	double mark[MAX_MARKS];
	char mark_name[MAX_MARKS][12];
	size_t nmarks;
	unsigned width, height;
};

/* ============================================================= helpers */

static void usage(FILE *f)
{
	fprintf(f,
"usage: tools/plots/plot --x COL [--y COL] [options] [FILE]\n"
"Reads CSV from FILE (or stdin) and writes an SVG chart to stdout.\n"
"Columns are chosen by their header name.\n"
"  --x COL           x values (bars: the categories, as text)\n"
"  --y COL           y values (cdf: optional, see below)\n"
"  --series COL      one line or bar colour per distinct value\n"
"  --style COL       one dash pattern per distinct value (with --series)\n"
"  --kind KIND       line (default; joins each series in x order), points,\n"
"                    bars or cdf\n"
"                    cdf without --y: each series' x values sorted into an\n"
"                    empirical CDF (the i-th smallest of n at i/n);\n"
"                    cdf with --y: precomputed quantiles, y in percent\n"
"  --median          several y at one x in a series: draw their median\n"
"                    (the lower middle one: a value that was measured)\n"
"  --logx, --logy    log axes (1, 2, 5 x powers of 10; of 2 with --xbytes);\n"
"  --logx2           a log x axis in powers of 2 (1, 2, 4, 8, 16 threads)\n"
"                    cdf --logy: a tail axis at 90%%, 99%%, 99.9%%, ...\n"
"  --xbytes          x values are bytes: ticks labelled KiB/MiB/GiB\n"
"  --title T, --xlabel T, --ylabel T   texts (put units in the labels)\n"
"  --subtitle T      a smaller line under the title (what a legend means)\n"
"  --vline X:LABEL   a vertical marker at X (K/M/G suffixes; repeatable)\n"
"  --mark LIST       cdf: mark quantiles, e.g. p50,p99,p99.9\n"
"  --ref COL:LABEL   a black tick across each bar (lines: a black ring at\n"
"                    each point's x) at COL's value (a prediction), named\n"
"                    LABEL in the legend\n"
"  --also COL:LABEL  lines: one more series, LABEL, of COL against x (the\n"
"                    median where rows share an x), e.g. live bytes\n"
"  --dodge PX        lines, cdf: move series i sideways by PX pixels a\n"
"                    series, so lines on the same values stay apart\n"
"  --flag COL:TEXT   bars: a bar whose COL is not 0 is outlined in red and\n"
"                    labelled \"VALUE TEXT\" (e.g. corrupt pixels)\n"
"  --hide NAME       the series NAME keeps its colour but is not drawn (a\n"
"                    close-up of the others, coloured as in the full picture)\n"
"  --width PX, --height PX   size (default 960 x 600)\n"
"  -h, --help        this text\n"
"Lines starting with '#' are skipped; the \"# \" lines before the header\n"
"(the environment) become the SVG's <title> and its footer.  Exit 1 for\n"
"unreadable or empty input.\n");
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

/* A data problem: not the user's options, so no usage text; exit 1. */
__attribute__((format(printf, 3, 4), noreturn))
static void bad_input(const struct table *t, size_t line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s", cli_prog, t->name);
	if (line)
		fprintf(stderr, ":%zu", line);
	fprintf(stderr, ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* A number with an optional K/M/G (binary) suffix, e.g. "32M" or "0.5". */
static int parse_number(const char *s, double *out)
{
	char *end;
	double v;

	while (*s == ' ')
		s++;
	if (!*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'K': case 'k': v *= 1024; end++; break;
	case 'M': case 'm': v *= 1024 * 1024; end++; break;
	case 'G': case 'g': v *= 1024.0 * 1024 * 1024; end++; break;
	default: break;
	}
	while (*end == ' ')
		end++;
	if (*end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* =========================================================== CSV input */

static char *slurp(const char *name, size_t *len)
{
	FILE *f = strcmp(name, "-") ? fopen(name, "r") : stdin;
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		die("%s", name);
	do {
		if (cap - n < 65536) {
			cap = cap ? cap * 2 : 65536;
			buf = xrealloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f))
		die("reading %s", name);
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

static void add_row(struct table *t, char **fields, size_t nf, size_t line)
{
	if (!t->head) {
		t->head = xrealloc(NULL, nf * sizeof *t->head);
		memcpy(t->head, fields, nf * sizeof *fields);
		t->ncols = nf;
		return;
	}
	if (nf != t->ncols)
		bad_input(t, line, "%zu fields, but the header has %zu", nf, t->ncols);
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->cell = xrealloc(t->cell, t->cap * t->ncols * sizeof *t->cell);
		t->line = xrealloc(t->line, t->cap * sizeof *t->line);
	}
	memcpy(t->cell + t->nrows * t->ncols, fields, nf * sizeof *fields);
	t->line[t->nrows++] = line;
}

/*
 * RFC 4180: fields separated by commas, records by CRLF (LF accepted); a
 * field in double quotes may hold commas, CR, LF and "" for a quote.  The
 * decoded text goes to a second buffer, never longer than the input plus
 * one terminator per field (each replaces a delimiter or a quote).
 */
static void read_csv(const char *name, struct table *t)
{
	size_t len, i = 0, w = 0, line = 1, nf = 0, fcap = 0;
	char *in = slurp(name, &len);
	char *out = xrealloc(NULL, len + 1);
	char **fields = NULL;

	*t = (struct table){ .name = strcmp(name, "-") ? name : "stdin" };
	while (i < len) {
		size_t start_line = line;

		/* A comment or a blank line, at the start of a record only. */
		if (in[i] == '#' || in[i] == '\n' || (in[i] == '\r' && i + 1 < len && in[i + 1] == '\n')) {
			size_t e = i;

			while (e < len && in[e] != '\n')
				e++;
			/* Every "# " line before the header: the environment the
			 * rows were measured in, joined by " | " (they are written
			 * one after another into out, so they stay one string). */
			if (!t->head && in[i] == '#' && i + 1 < len && in[i + 1] == ' ') {
				size_t s = i + 2, k = e;

				while (k > s && (in[k - 1] == '\r' || in[k - 1] == ' '))
					k--;
				if (!t->env) {
					t->env = out + w;
				} else {
					memcpy(out + w - 1, " | ", 3);
					w += 2;
				}
				memcpy(out + w, in + s, k - s);
				w += k - s;
				out[w++] = '\0';
			}
			i = e + 1;
			line++;
			continue;
		}
		nf = 0;
		fields = NULL;
		fcap = 0;
		for (;;) {
			char *f = out + w;

			if (i < len && in[i] == '"') {
				size_t qline = line;

				for (i++;; i++) {
					if (i >= len)
						bad_input(t, qline, "a quoted field never ends");
					if (in[i] == '"') {
						if (i + 1 < len && in[i + 1] == '"') {
							out[w++] = '"';
							i++;
							continue;
						}
						i++;
						break;
					}
					if (in[i] == '\n')
						line++;
					out[w++] = in[i];
				}
				if (i < len && in[i] != ',' && in[i] != '\n' &&
				    !(in[i] == '\r' && i + 1 < len && in[i + 1] == '\n'))
					bad_input(t, line, "text after a closing quote");
			} else {
				while (i < len && in[i] != ',' && in[i] != '\n' &&
				       !(in[i] == '\r' && i + 1 < len && in[i + 1] == '\n')) {
					if (in[i] == '"')
						bad_input(t, line, "a quote inside an unquoted field");
					out[w++] = in[i++];
				}
			}
			out[w++] = '\0';
			if (nf == fcap) {
				fcap = fcap ? fcap * 2 : 16;
				fields = xrealloc(fields, fcap * sizeof *fields);
			}
			fields[nf++] = f;
			if (i < len && in[i] == ',') {
				i++;
				continue;
			}
			if (i < len && in[i] == '\r')
				i++;
			if (i < len && in[i] == '\n')
				i++;
			line++;
			break;
		}
		add_row(t, fields, nf, start_line);
		if (t->head != fields)
			free(fields);
	}
	free(in);
	if (!t->head)
		bad_input(t, 0, "no CSV header: the input is empty or only comments");
	if (!t->nrows)
		bad_input(t, 0, "a header but no data rows");
}

static size_t column(const struct table *t, const char *name, const char *opt)
{
	char list[512];
	size_t n = 0;

	for (size_t c = 0; c < t->ncols; c++)
		if (!strcmp(t->head[c], name))
			return c;
	list[0] = '\0';
	for (size_t c = 0; c < t->ncols && n + 4 < sizeof list; c++)
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", c ? " " : "", t->head[c]);
	if (n >= sizeof list)
		strcpy(list + sizeof list - 4, "...");
	bad_usage(usage, "%s %s: %s has no such column (it has: %s)", opt, name, t->name, list);
}

static double cell_number(const struct table *t, size_t r, size_t c)
{
	const char *s = t->cell[r * t->ncols + c];
	double v;

	if (parse_number(s, &v))
		bad_input(t, t->line[r], "column '%s': '%s' is not a number", t->head[c], s);
	return v;
}

/* ================================================================ data */

static struct series *find_series(struct series **ss, size_t *ns, const char *name,
				  const char *style, const char ***names, size_t *nnames,
				  const char ***styles, size_t *nstyles)
{
	size_t i;
	struct series *s;

	for (i = 0; i < *ns; i++)
		if (!strcmp((*ss)[i].name, name) &&
		    (!style || !strcmp((*ss)[i].style, style)))
			return &(*ss)[i];
	*ss = xrealloc(*ss, (*ns + 1) * sizeof **ss);
	s = &(*ss)[(*ns)++];
	*s = (struct series){ .name = name, .style = style };
	for (i = 0; i < *nnames && strcmp((*names)[i], name); i++)
		;
	if (i == *nnames) {
		*names = xrealloc(*names, (*nnames + 1) * sizeof **names);
		(*names)[(*nnames)++] = name;
	}
	s->colour = (int)i;
	if (style) {
		for (i = 0; i < *nstyles && strcmp((*styles)[i], style); i++)
			;
		if (i == *nstyles) {
			*styles = xrealloc(*styles, (*nstyles + 1) * sizeof **styles);
			(*styles)[(*nstyles)++] = style;
		}
		s->dash = (int)i;
	}
	return s;
}

static void push(struct series *s, double x, double y, double ref, double flag)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->x = xrealloc(s->x, s->cap * sizeof *s->x);
		s->y = xrealloc(s->y, s->cap * sizeof *s->y);
		s->ref = xrealloc(s->ref, s->cap * sizeof *s->ref);
		s->flag = xrealloc(s->flag, s->cap * sizeof *s->flag);
	}
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->ref[s->n] = ref;
	s->flag[s->n] = flag;
	s->n++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sort a series' points by x, then y; insertion sort keeps equal x in
 * input order and the series are short. */
static void sort_points(struct series *s, int by_y)
{
	for (size_t i = 1; i < s->n; i++) {
		double x = s->x[i], y = s->y[i], ref = s->ref[i], flag = s->flag[i];
		size_t j = i;

		while (j > 0 && (by_y ? (s->y[j - 1] > y || (s->y[j - 1] == y && s->x[j - 1] > x))
				      : s->x[j - 1] > x)) {
			s->x[j] = s->x[j - 1];
			s->y[j] = s->y[j - 1];
			s->ref[j] = s->ref[j - 1];
			s->flag[j] = s->flag[j - 1];
			j--;
		}
		s->x[j] = x;
		s->y[j] = y;
		s->ref[j] = ref;
		s->flag[j] = flag;
	}
}

/* --median: the points sharing an x become one, at the lower median of
 * their y (an odd count's middle, an even count's lower middle): always a
 * value that was measured, never an average of two. */
static void reduce_median(struct series *s)
{
	size_t out = 0;

	sort_points(s, 0);
	for (size_t i = 0; i < s->n; ) {
		size_t j = i;

		while (j < s->n && s->x[j] == s->x[i])
			j++;
		qsort(s->y + i, j - i, sizeof *s->y, cmp_double);
		s->x[out] = s->x[i];
		s->y[out] = s->y[i + (j - i - 1) / 2];
		out++;
		i = j;
	}
	s->n = out;
}

/* ================================================================ axes */

static double fwd(const struct axis *a, double v)
{
	switch (a->type) {
	case A_LOG10: return log10(v);
	case A_LOG2:  return log2(v);
	case A_TAIL:  return v >= 1 ? a->hi : -log10(1 - v);
	default:      return v;
	}
}

static double inv(const struct axis *a, double t)
{
	switch (a->type) {
	case A_LOG10: return pow(10, t);
	case A_LOG2:  return exp2(t);
	case A_TAIL:  return t >= a->hi ? 1 : 1 - pow(10, -t);
	default:      return t;
	}
}

/* Can this axis show v?  Log axes cannot show zero or less. */
static int drawable(const struct axis *a, double v)
{
	return (a->type != A_LOG10 && a->type != A_LOG2) || v > 0;
}

static void see(struct axis *a, double v)
{
	if (!a->have_data || v < a->dmin)
		a->dmin = v;
	if (!a->have_data || v > a->dmax)
		a->dmax = v;
	a->have_data = 1;
}

/* Compact numbers for ticks and bar values: 1, 250, 12.5k, 3.2M. */
static void fmt_num(char *buf, size_t len, double v)
{
	static const char *suffix[] = { "", "k", "M", "G", "T" };
	double a = fabs(v);
	int k = 0;

	if (a < 1000) {
		snprintf(buf, len, "%.3g", v);
		return;
	}
	while (a >= 1000 && k < 4) {
		a /= 1000;
		v /= 1000;
		k++;
	}
	snprintf(buf, len, "%.3g%s", v, suffix[k]);
}

static void fmt_bytes(char *buf, size_t len, double v)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int k = 0;

	while (fabs(v) >= 1024 && k < 4) {
		v /= 1024;
		k++;
	}
	snprintf(buf, len, "%.4g %s", v, unit[k]);
}

static void add_tick(struct axis *a, double t, const char *label, int labelled)
{
	if (a->nticks == MAX_TICKS)
		return;
	a->tick[a->nticks] = t;
	snprintf(a->label[a->nticks], sizeof a->label[0], "%s", label);
	a->labelled[a->nticks] = labelled;
	a->nticks++;
}

static void value_label(const struct axis *a, double v, char *buf, size_t len)
{
	if (a->bytes)
		fmt_bytes(buf, len, v);
	else if (a->percent)
		snprintf(buf, len, "%g%%", v * 100);
	else
		fmt_num(buf, len, v);
}

/* The nearest of 1, 2 and 5 times a power of ten at or above v (up) or at
 * or below it: where a log10 axis ends, close to its data. */
static double nice_125(double v, int up)
{
	static const double m[] = { 1, 2, 5, 10 };
	double p = pow(10, floor(log10(v)));

	if (up) {
		for (int i = 0; i < 4; i++)
			if (m[i] * p >= v * (1 - 1e-12))
				return m[i] * p;
		return 10 * p;
	}
	for (int i = 3; i >= 0; i--)
		if (m[i] * p <= v * (1 + 1e-12))
			return m[i] * p;
	return p;
}

/* Range and ticks.  Linear: a 1-2-5 step (a power of two for bytes) giving
 * at most 8 intervals, the ends rounded out to it.  Log10: from the 1, 2 or
 * 5 times a power of ten below the data to the one above it, ticked at
 * powers (thinned when there are many) and their 2..9 multiples.  Log2:
 * whole powers of two.  `base0` makes a linear axis include 0 (bars start
 * there); `headroom` keeps the largest value off the top edge, where it
 * would sit on the frame. */
static void make_axis(struct axis *a, int base0, int headroom)
{
	char buf[24];
	double lo = a->dmin, hi = a->dmax;

	a->nticks = 0;
	if (a->type == A_LOG2) {
		double l = floor(log2(lo)), h = ceil(log2(hi));
		int every = 1;

		if ((base0 && l == log2(lo)) || h == l)
			l--;
		if (headroom && h == log2(hi))
			h++;
		while ((h - l) / every > 10)
			every++;
		a->lo = l;
		a->hi = h;
		for (double e = l; e <= h; e++) {
			value_label(a, exp2(e), buf, sizeof buf);
			add_tick(a, e, buf, ((long)(e - l)) % every == 0);
		}
		return;
	}
	if (a->type == A_LOG10) {
		double top = nice_125(hi, 1), bottom = nice_125(lo, 0), span;
		int every = 1;

		/* A bar starts at the bottom of the axis: keep the smallest one
		 * visible even when it is exactly where the axis would start. */
		if (base0 && bottom >= lo * (1 - 1e-12))
			bottom = nice_125(bottom * 0.99, 0);
		if ((headroom && top <= hi * (1 + 1e-12)) || top <= bottom)
			top = nice_125(top * 1.01, 1);
		a->lo = log10(bottom);
		a->hi = log10(top);
		span = a->hi - a->lo;
		while (span / every > 10)
			every++;
		for (double e = floor(a->lo + 1e-9); e <= a->hi + 1e-9; e++) {
			int major = ((long)e) % every == 0;

			if (e >= a->lo - 1e-9) {
				value_label(a, pow(10, e), buf, sizeof buf);
				add_tick(a, e, buf, major);
			}
			/* Minor ticks: 2..9 x 10^e; over two decades or less, 2 and 5
			 * get labels too, or the axis would have only two numbers. */
			if (span <= 6)
				for (int m = 2; m <= 9; m++) {
					double t = e + log10(m);
					int lab = span <= 2 && (m == 2 || m == 5);

					if (t < a->lo - 1e-9 || t > a->hi + 1e-9)
						continue;
					value_label(a, m * pow(10, e), buf, sizeof buf);
					add_tick(a, t, lab ? buf : "", lab);
				}
		}
		return;
	}
	if (a->type == A_TAIL) {
		/* Decades of the tail: 0%, 90%, 99%, 99.9%, ... up to one past the
		 * last point below 100%.  A point at 100% (the maximum) is drawn
		 * on that top tick, which is then called "max". */
		a->lo = 0;
		/* The epsilon: 1 - 0.999 is not exactly 1e-3 in binary. */
		a->hi = floor(a->top_finite + 1e-9) + 1;
		for (int e = 0; e <= (int)a->hi; e++) {
			if (e == (int)a->hi && a->dmax >= 1)
				snprintf(buf, sizeof buf, "max");
			else
				snprintf(buf, sizeof buf, "%.*f%%", e > 2 ? e - 2 : 0,
					 100 - pow(10, 2 - e));
			add_tick(a, e, buf, 1);
		}
		add_tick(a, -log10(0.5), "50%", 1);
		return;
	}
	if (base0) {
		if (lo > 0)
			lo = 0;
		if (hi < 0)
			hi = 0;
	}
	if (a->percent) {
		lo = 0;
		hi = 1;
	}
	if (hi == lo) {
		double d = lo ? fabs(lo) * 0.1 : 1;

		lo -= d;
		hi += d;
	}
	{
		double span = hi - lo, step;

		if (a->bytes) {
			step = 1;
			while (span / step > 8)
				step *= 2;
		} else {
			double p = pow(10, floor(log10(span / 8)));

			step = p;
			if (span / step > 8) step = 2 * p;
			if (span / step > 8) step = 5 * p;
			if (span / step > 8) step = 10 * p;
		}
		a->lo = floor(lo / step) * step;
		a->hi = ceil(hi / step) * step;
		if (headroom && !a->percent && a->hi - a->dmax < 0.03 * (a->hi - a->lo))
			a->hi += step;
		for (double v = a->lo; v <= a->hi + step / 2; v += step) {
			double vv = fabs(v) < step / 1e6 ? 0 : v;

			if (a->percent)
				snprintf(buf, sizeof buf, "%g%%", vv * 100);
			else if (a->bytes)
				fmt_bytes(buf, sizeof buf, vv);
			else
				snprintf(buf, sizeof buf, "%.*f",
					 step >= 1 ? 0 : (int)ceil(-log10(step)), vv);
			add_tick(a, vv, buf, 1);
		}
	}
}

/* ================================================================= SVG */

/* Text for an element or a double-quoted attribute. */
static void xml(const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", stdout); break;
		case '<': fputs("&lt;", stdout); break;
		case '>': fputs("&gt;", stdout); break;
		case '"': fputs("&quot;", stdout); break;
		case '\n': case '\r': case '\t': putchar(' '); break;
		default:
			/* Other control characters are not allowed in XML 1.0. */
			if ((unsigned char)*s >= 0x20)
				putchar(*s);
		}
}

/* Splits text at spaces into lines of at most `width` characters (a word
 * longer than that gets a line of its own).  Returns the line count; the
 * lines are written into buf separated by '\0', at most `max` of them
 * (the last one takes the rest). */
static size_t wrap(const char *text, size_t width, char *buf, size_t len, size_t max)
{
	size_t n = 1, col = 0, w = 0;

	if (width < 4)
		width = 4;
	for (const char *p = text; *p && w + 2 < len; ) {
		size_t word = strcspn(p, " ");

		if (col && col + 1 + word > width && n < max) {
			buf[w++] = '\0';
			n++;
			col = 0;
		} else if (col && w + 2 < len) {
			buf[w++] = ' ';
			col++;
		}
		for (size_t i = 0; i < word && w + 2 < len; i++, col++)
			buf[w++] = p[i];
		p += word;
		while (*p == ' ')
			p++;
	}
	buf[w] = '\0';
	return n;
}

/* The footer: the header's lines, joined by " | " when read, wrapped
 * like wrap() but broken only between those lines while each fits, so a
 * line of the header ("read fault: ...") stays whole on one line of the
 * footer and can be found there; a header line longer than a footer line
 * is broken at its spaces.  At most `max` lines (the last takes the rest). */
static size_t wrap_items(const char *text, size_t width, char *buf, size_t len, size_t max)
{
	size_t n = 1, col = 0, w = 0;
	const char *p = text;

	if (width < 4)
		width = 4;
	while (*p && w + 2 < len) {
		const char *bar = strstr(p, " | ");
		size_t item = bar ? (size_t)(bar - p) : strlen(p);
		const char *e = p + item;

		if (col && col + 3 + item > width && n < max) {
			buf[w++] = '\0';
			n++;
			col = 0;
		} else if (col) {
			for (const char *s = " | "; *s && w + 2 < len; s++, col++)
				buf[w++] = *s;
		}
		for (const char *q = p, *first = p; q < e && w + 2 < len; ) {
			size_t word = strcspn(q, " ");

			if (word > (size_t)(e - q))
				word = (size_t)(e - q);
			if (q != first) {
				if (col && col + 1 + word > width && n < max) {
					buf[w++] = '\0';
					n++;
					col = 0;
				} else {
					buf[w++] = ' ';
					col++;
				}
			}
			for (size_t i = 0; i < word && w + 2 < len; i++, col++)
				buf[w++] = q[i];
			q += word;
			while (q < e && *q == ' ')
				q++;
		}
		p = bar ? bar + 3 : e;
	}
	buf[w] = '\0';
	return n;
}

static double text_w(const char *s, double font)
{
	return (double)strlen(s) * font * CHAR_W;
}

/* The layout: the plot area's corners, in px. */
struct frame {
	double x0, x1, y0, y1;
	const struct axis *xa, *ya;
	size_t ncat;
};

static double px(const struct frame *f, double v)
{
	if (f->xa->type == A_CAT)
		return f->x0 + (v + 0.5) / (double)f->ncat * (f->x1 - f->x0);
	return f->x0 + (fwd(f->xa, v) - f->xa->lo) / (f->xa->hi - f->xa->lo) * (f->x1 - f->x0);
}

static double py(const struct frame *f, double v)
{
	return f->y1 - (fwd(f->ya, v) - f->ya->lo) / (f->ya->hi - f->ya->lo) * (f->y1 - f->y0);
}

/* A marker of one of four shapes centred on (x, y). */
static void marker(int shape, double x, double y, const char *colour)
{
	const double r = 5;

	switch (shape % 4) {
	case 0:
		printf("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n", x, y, r, colour);
		break;
	case 1:
		printf("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
		       x - r, y - r, 2 * r, 2 * r, colour);
		break;
	case 2:
		printf("<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>\n",
		       x, y - r * 1.2, x + r * 1.1, y + r * 0.8, x - r * 1.1, y + r * 0.8, colour);
		break;
	default:
		printf("<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>\n",
		       x, y - r * 1.3, x + r * 1.3, y, x, y + r * 1.3, x - r * 1.3, y, colour);
	}
}

static const char *series_label(const struct series *s, char *buf, size_t len)
{
	if (s->style)
		snprintf(buf, len, "%s, %s", s->name, s->style);
	else
		snprintf(buf, len, "%s", s->name);
	return buf;
}

static void draw_axes(const struct frame *f, char **cats)
{
	const struct axis *xa = f->xa, *ya = f->ya;

	printf("<g class=\"axes\" font-size=\"%d\" fill=\"#222\">\n", FONT);
	for (size_t i = 0; i < ya->nticks; i++) {
		double y = f->y1 - (ya->tick[i] - ya->lo) / (ya->hi - ya->lo) * (f->y1 - f->y0);

		printf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
		       f->x0, y, f->x1, y, ya->label[i][0] ? "#d0d0d0" : "#ececec");
		if (ya->labelled[i] && ya->label[i][0])
			printf("<text class=\"ytick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			       "dominant-baseline=\"middle\">%s</text>\n", f->x0 - 8, y, ya->label[i]);
	}
	if (xa->type == A_CAT) {
		double slot = (f->x1 - f->x0) / (double)f->ncat;

		for (size_t c = 0; c < f->ncat; c++) {
			char buf[256];
			size_t n = wrap(cats[c], (size_t)((slot - 12) / (FONT * CHAR_W)), buf, sizeof buf, 3);
			const char *l = buf;

			printf("<text class=\"xtick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			       px(f, (double)c), f->y1 + FONT + 6);
			for (size_t k = 0; k < n; k++, l += strlen(l) + 1) {
				printf("<tspan x=\"%.1f\" dy=\"%s\">", px(f, (double)c), k ? "1.15em" : "0");
				xml(l);
				printf("</tspan>");
			}
			printf("</text>\n");
		}
	} else {
		for (size_t i = 0; i < xa->nticks; i++) {
			double x = f->x0 + (xa->tick[i] - xa->lo) / (xa->hi - xa->lo) * (f->x1 - f->x0);

			printf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			       x, f->y0, x, f->y1, xa->label[i][0] ? "#d0d0d0" : "#ececec");
			if (xa->labelled[i] && xa->label[i][0])
				printf("<text class=\"xtick\" x=\"%.1f\" y=\"%.1f\" "
				       "text-anchor=\"middle\">%s</text>\n", x, f->y1 + FONT + 6, xa->label[i]);
		}
	}
	printf("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
	       "stroke=\"#444\" stroke-width=\"1.5\"/>\n", f->x0, f->y0, f->x1 - f->x0, f->y1 - f->y0);
	printf("</g>\n");
}

/* On bar k of series s: the --ref value as a black tick across the bar
 * (the prediction), and a --flag value that is not 0 as a red outline and
 * a red label, in the bar's lower half (its value is above it). */
static void draw_bar_marks(const struct frame *f, const struct options *o,
			   const struct series *s, size_t k, double cx, double bar_w, double top)
{
	if (o->ref && !isnan(s->ref[k]) && drawable(f->ya, s->ref[k])) {
		double ry = py(f, s->ref[k]);

		printf("<line class=\"ref\" data-value=\"%.17g\" x1=\"%.1f\" y1=\"%.1f\" "
		       "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#111\" stroke-width=\"3\"/>\n",
		       s->ref[k], cx - 3, ry, cx + bar_w + 1, ry);
	}
	if (o->flag && s->flag[k] != 0) {
		char v[32];
		double h = f->y1 - top;
		fmt_num(v, sizeof v, s->flag[k]);
		printf("<rect class=\"flag\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		       "fill=\"none\" stroke=\"#C00000\" stroke-width=\"3\" stroke-dasharray=\"6 3\"/>\n",
		       cx + 1, top, bar_w - 2, h);
		/* The value, then each word of TEXT on a line of its own: a
		 * narrow bar holds "3.11M / corrupt / pixels", not the phrase. */
		printf("<text class=\"flag-label\" x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" "
		       "font-weight=\"bold\" text-anchor=\"middle\" fill=\"#C00000\" "
		       "stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\">%s",
		       cx + bar_w / 2, f->y1 - 3.5 * (FONT_SMALL + 1), FONT_SMALL - 1, v);
		for (const char *w = o->flag_text; *w; ) {
			size_t n = strcspn(w, " ");
			char word[64];

			snprintf(word, sizeof word, "%.*s", (int)(n < 63 ? n : 63), w);
			printf("<tspan x=\"%.1f\" dy=\"%d\">", cx + bar_w / 2, FONT_SMALL + 1);
			xml(word);
			printf("</tspan>");
			w += n;
			w += strspn(w, " ");
		}
		printf("</text>\n");
	}
}

static void draw_series(const struct frame *f, const struct options *o,
			const struct series *ss, size_t ns)
{
	double bar_w = 0;
	/* Bars side by side per category, unless no category has two: then
	 * the series only colour the bars (Lab 1: one run a step, coloured by
	 * its policy), and each bar takes its category's full width. */
	size_t slots = ns;

	if (o->kind == K_BARS) {
		int shared = 0;

		for (size_t c = 0; c < f->ncat && !shared; c++) {
			size_t have = 0;

			for (size_t i = 0; i < ns; i++)
				for (size_t k = 0; k < ss[i].n; k++)
					have += ss[i].x[k] == (double)c;
			shared = have > 1;
		}
		if (!shared)
			slots = 1;
		bar_w = (f->x1 - f->x0) / (double)f->ncat * 0.8 / (double)slots;
	}
	for (size_t i = 0; i < ns; i++) {
		const struct series *s = &ss[i];
		const char *col = palette[s->colour % NPALETTE];
		/* --dodge: series i sideways by its place from the middle one */
		const double dx = o->dodge * ((double)i - (double)(ns - 1) / 2);
		char name[256];

		printf("<g class=\"series\" data-name=\"");
		xml(series_label(s, name, sizeof name));
		printf("\" data-points=\"%zu\">\n", s->n);
		if (o->kind == K_BARS) {
			double base = f->ya->type == A_LIN ? py(f, 0) : f->y1;

			for (size_t k = 0; k < s->n; k++) {
				double cx = px(f, s->x[k]) - bar_w * (double)slots / 2 +
					    bar_w * (double)(slots > 1 ? i : 0);
				double y = py(f, s->y[k]);
				char v[32];

				printf("<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				       "height=\"%.1f\" fill=\"%s\"/>\n", cx + 1, y < base ? y : base,
				       bar_w - 2, fabs(base - y), col);
				draw_bar_marks(f, o, s, k, cx, bar_w, y < base ? y : base);
				/* The value itself above its bar when the bar is wide enough;
				 * inside it, in white, when the bar reaches the top. */
				if (bar_w >= 44) {
					double ty = (y < base ? y : base) - 5;
					int inside = ty - FONT_SMALL < f->y0;

					fmt_num(v, sizeof v, s->y[k]);
					printf("<text class=\"value\" x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" "
					       "text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
					       cx + bar_w / 2, inside ? ty + FONT_SMALL + 10 : ty,
					       FONT_SMALL, inside ? "white" : "#222", v);
				}
			}
			printf("</g>\n");
			continue;
		}
		if (o->kind != K_POINTS) {
			double lx = 0, ly = 0;

			printf("<polyline class=\"series-line\" fill=\"none\" stroke=\"%s\" "
			       "stroke-width=\"2.5\" stroke-linejoin=\"round\"", col);
			if (s->dash % (int)NDASHES)
				printf(" stroke-dasharray=\"%s\"", dashes[s->dash % NDASHES]);
			printf(" points=\"");
			/* Points closer than half a pixel to the last one drawn add
			 * nothing visible; the last point is always drawn. */
			for (size_t k = 0; k < s->n; k++) {
				double x = px(f, s->x[k]) + dx, y = py(f, s->y[k]);

				if (k && k + 1 < s->n && fabs(x - lx) < 0.5 && fabs(y - ly) < 0.5)
					continue;
				/* A CDF is a staircase: it stays at the last fraction
				 * until the next value, then climbs. */
				if (k && o->kind == K_CDF)
					printf(" %.1f,%.1f", x, ly);
				printf("%s%.1f,%.1f", k ? " " : "", x, y);
				lx = x;
				ly = y;
			}
			printf("\"/>\n");
		}
		if (o->kind == K_LINE || o->kind == K_POINTS)
			for (size_t k = 0; k < s->n; k++) {
				marker(s->colour, px(f, s->x[k]) + dx, py(f, s->y[k]), col);
				/* --ref: the prediction as a black ring at the same x */
				if (o->ref && !isnan(s->ref[k]) && drawable(f->ya, s->ref[k]))
					printf("<circle class=\"ref\" data-value=\"%.17g\" cx=\"%.1f\" "
					       "cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"#111\" "
					       "stroke-width=\"2\"/>\n", s->ref[k], px(f, s->x[k]) + dx,
					       py(f, s->ref[k]));
			}
		if (o->kind == K_CDF)
			for (size_t m = 0; m < o->nmarks; m++)
				for (size_t k = 0; k < s->n; k++)
					if (s->y[k] >= o->mark[m] - 1e-9) {
						printf("<circle class=\"mark\" data-q=\"%s\" data-x=\"%.17g\" "
						       "cx=\"%.1f\" cy=\"%.1f\" r=\"5.5\" fill=\"%s\" "
						       "stroke=\"white\" stroke-width=\"1.5\"/>\n",
						       o->mark_name[m], s->x[k], px(f, s->x[k]) + dx,
						       py(f, s->y[k]), col);
						break;
					}
		printf("</g>\n");
	}
}

/* The vertical markers and the quantile guide lines, labelled in place. */
static void draw_guides(const struct frame *f, const struct options *o)
{
	for (size_t i = 0; i < o->nvl; i++) {
		double x;

		if (!drawable(f->xa, o->vl[i].x))
			continue;
		x = px(f, o->vl[i].x);
		printf("<g class=\"vline\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		       "stroke=\"#333\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n",
		       x, f->y0, x, f->y1);
		printf("<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" fill=\"#222\">", x + 6,
		       f->y0 + FONT + 4, FONT);
		xml(o->vl[i].label);
		printf("</text></g>\n");
	}
	for (size_t m = 0; m < o->nmarks; m++) {
		double y = py(f, o->mark[m]);

		printf("<g class=\"qline\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		       "stroke=\"#555\" stroke-width=\"1.2\" stroke-dasharray=\"4 4\"/>\n",
		       f->x0, y, f->x1, y);
		printf("<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"start\" "
		       "dominant-baseline=\"middle\" fill=\"#222\">%s</text></g>\n",
		       f->x1 + 6, y, FONT, o->mark_name[m]);
	}
}

static void draw_legend(double x, double y, const struct options *o,
			const struct series *ss, size_t ns)
{
	printf("<g class=\"legend\" font-size=\"%d\" fill=\"#222\">\n", FONT);
	for (size_t i = 0; i < ns; i++) {
		const struct series *s = &ss[i];
		const char *col = palette[s->colour % NPALETTE];
		double ey = y + 26.0 * (double)i;
		char name[256];

		printf("<g class=\"legend-entry\">");
		if (o->kind == K_BARS)
			printf("<rect x=\"%.1f\" y=\"%.1f\" width=\"24\" height=\"14\" fill=\"%s\"/>",
			       x, ey - 7, col);
		else if (o->kind != K_POINTS) {
			printf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			       "stroke-width=\"2.5\"", x, ey, x + 30, ey, col);
			if (s->dash % (int)NDASHES)
				printf(" stroke-dasharray=\"%s\"", dashes[s->dash % NDASHES]);
			printf("/>");
		}
		if (o->kind == K_LINE || o->kind == K_POINTS)
			marker(s->colour, x + 15, ey, col);
		printf("<text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">", x + 38, ey);
		xml(series_label(s, name, sizeof name));
		printf("</text></g>\n");
	}
	if (o->ref) {
		double ey = y + 26.0 * (double)ns;

		if (o->kind == K_BARS)
			printf("<g class=\"legend-ref\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			       "y2=\"%.1f\" stroke=\"#111\" stroke-width=\"3\"/>", x - 2, ey, x + 26, ey);
		else
			printf("<g class=\"legend-ref\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"9\" "
			       "fill=\"none\" stroke=\"#111\" stroke-width=\"2\"/>", x + 15, ey);
		printf("<text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">", x + 38, ey);
		xml(o->ref_label);
		printf("</text></g>\n");
	}
	if (o->flag) {
		double ey = y + 26.0 * (double)(ns + (o->ref ? 1 : 0));

		printf("<g class=\"legend-flag\"><rect x=\"%.1f\" y=\"%.1f\" width=\"24\" "
		       "height=\"14\" fill=\"none\" stroke=\"#C00000\" stroke-width=\"3\" "
		       "stroke-dasharray=\"6 3\"/>", x, ey - 7);
		printf("<text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\" fill=\"#C00000\">",
		       x + 38, ey);
		xml(o->flag_text);
		printf("</text></g>\n");
	}
	printf("</g>\n");
}

/* =============================================================== main */

static void parse_marks(const char *arg, struct options *o)
{
	char buf[256], *save = NULL, *tok;

	snprintf(buf, sizeof buf, "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double v;

		if (o->nmarks == MAX_MARKS)
			bad_usage(usage, "--mark: at most %d quantiles", MAX_MARKS);
		if ((tok[0] != 'p' && tok[0] != 'P') || strlen(tok) >= sizeof o->mark_name[0] ||
		    parse_number(tok + 1, &v) || v <= 0 || v > 100 || strpbrk(tok + 1, "KkMmGg"))
			bad_usage(usage, "--mark wants quantiles like p50,p99,p99.9, not '%s'", tok);
		o->mark[o->nmarks] = v / 100;
		snprintf(o->mark_name[o->nmarks], sizeof o->mark_name[0], "p%s", tok + 1);
		o->nmarks++;
	}
	if (!o->nmarks)
		bad_usage(usage, "--mark wants quantiles like p50,p99,p99.9");
}

/* "COL:TEXT" into its two halves (a copy: argv is printed whole in <desc>). */
static void split_pair(const char *arg, const char *opt, const char **col, const char **text)
{
	const char *colon = strchr(arg, ':');
	char *c;

	if (!colon || colon == arg || !colon[1])
		bad_usage(usage, "%s wants COLUMN:TEXT, not '%s'", opt, arg);
	c = xrealloc(NULL, (size_t)(colon - arg) + 1);
	memcpy(c, arg, (size_t)(colon - arg));
	c[colon - arg] = '\0';
	*col = c;
	*text = colon + 1;
}

static void parse_args(int argc, char **argv, struct options *o)
{
	enum { O_X = 256, O_Y, O_SERIES, O_STYLE, O_KIND, O_LOGX, O_LOGY, O_XBYTES,
	       O_TITLE, O_XLABEL, O_YLABEL, O_VLINE, O_MARK, O_WIDTH, O_HEIGHT, O_MEDIAN,
	       O_REF, O_FLAG, O_HIDE, O_SUBTITLE, O_LOGX2, O_ALSO, O_DODGE };
	static const struct option opts[] = {
		{ "x",      required_argument, NULL, O_X },
		{ "y",      required_argument, NULL, O_Y },
		{ "series", required_argument, NULL, O_SERIES },
		{ "style",  required_argument, NULL, O_STYLE },
		{ "kind",   required_argument, NULL, O_KIND },
		{ "median", no_argument,       NULL, O_MEDIAN },
		{ "logx",   no_argument,       NULL, O_LOGX },
		{ "logy",   no_argument,       NULL, O_LOGY },
		{ "xbytes", no_argument,       NULL, O_XBYTES },
		{ "title",  required_argument, NULL, O_TITLE },
		{ "xlabel", required_argument, NULL, O_XLABEL },
		{ "ylabel", required_argument, NULL, O_YLABEL },
		{ "vline",  required_argument, NULL, O_VLINE },
		{ "mark",   required_argument, NULL, O_MARK },
		{ "ref",    required_argument, NULL, O_REF },
		{ "flag",   required_argument, NULL, O_FLAG },
		{ "hide",   required_argument, NULL, O_HIDE },
		{ "subtitle", required_argument, NULL, O_SUBTITLE },
		{ "logx2",  no_argument,       NULL, O_LOGX2 },
		{ "also",   required_argument, NULL, O_ALSO },
		{ "dodge",  required_argument, NULL, O_DODGE },
		{ "width",  required_argument, NULL, O_WIDTH },
		{ "height", required_argument, NULL, O_HEIGHT },
		CLI_OPTIONS_END,
	};
	uint64_t v;
	int c;

	*o = (struct options){ .file = "-", .width = 960, .height = 600 };
	while ((c = cli_getopt(argc, argv, ":h", opts, usage)) != -1) {
		switch (c) {
		case O_X: o->x = optarg; break;
		case O_Y: o->y = optarg; break;
		case O_SERIES: o->series = optarg; break;
		case O_STYLE: o->style = optarg; break;
		case O_KIND:
			if (!strcmp(optarg, "line")) o->kind = K_LINE;
			else if (!strcmp(optarg, "points")) o->kind = K_POINTS;
			else if (!strcmp(optarg, "bars")) o->kind = K_BARS;
			else if (!strcmp(optarg, "cdf")) o->kind = K_CDF;
			else bad_usage(usage, "--kind wants line, points, bars or cdf, not '%s'", optarg);
			break;
		case O_MEDIAN: o->median = 1; break;
		case O_LOGX: o->logx = 1; break;
		case O_LOGY: o->logy = 1; break;
		case O_XBYTES: o->xbytes = 1; break;
		case O_TITLE: o->title = optarg; break;
		case O_XLABEL: o->xlabel = optarg; break;
		case O_YLABEL: o->ylabel = optarg; break;
		case O_VLINE: {
			char num[64];
			const char *colon = strchr(optarg, ':');
			size_t n = colon ? (size_t)(colon - optarg) : strlen(optarg);

			if (o->nvl == MAX_VLINES)
				bad_usage(usage, "--vline: at most %d", MAX_VLINES);
			if (n >= sizeof num)
				bad_usage(usage, "--vline wants X:LABEL, not '%s'", optarg);
			memcpy(num, optarg, n);
			num[n] = '\0';
			if (parse_number(num, &o->vl[o->nvl].x))
				bad_usage(usage, "--vline wants X:LABEL with X a number, not '%s'", optarg);
			o->vl[o->nvl++].label = colon ? colon + 1 : "";
			break;
		}
		case O_MARK: parse_marks(optarg, o); break;
		case O_REF: split_pair(optarg, "--ref", &o->ref, &o->ref_label); break;
		case O_FLAG: split_pair(optarg, "--flag", &o->flag, &o->flag_text); break;
		case O_HIDE: o->hide = optarg; break;
		case O_SUBTITLE: o->subtitle = optarg; break;
		case O_LOGX2: o->logx = o->log2x = 1; break;
		case O_ALSO: split_pair(optarg, "--also", &o->also, &o->also_label); break;
		case O_DODGE:
			if (cli_parse_u64(optarg, 0, 20, &v))
				bad_usage(usage, "--dodge wants 0 to 20 pixels, not '%s'", optarg);
			o->dodge = (double)v;
			break;
		case O_WIDTH:
			if (cli_parse_u64(optarg, 320, 4000, &v))
				bad_usage(usage, "--width wants 320 to 4000 pixels, not '%s'", optarg);
			o->width = (unsigned)v;
			break;
		case O_HEIGHT:
			if (cli_parse_u64(optarg, 240, 4000, &v))
				bad_usage(usage, "--height wants 240 to 4000 pixels, not '%s'", optarg);
			o->height = (unsigned)v;
			break;
		}
	}
	if (optind < argc)
		o->file = argv[optind++];
	if (optind < argc)
		bad_usage(usage, "one input file at a time: unexpected '%s'", argv[optind]);
	if (!o->x)
		bad_usage(usage, "--x is required");
	if (!o->y && o->kind != K_CDF)
		bad_usage(usage, "--y is required (except with --kind cdf)");
	if (o->style && !o->series)
		bad_usage(usage, "--style needs --series");
	if (o->nmarks && o->kind != K_CDF)
		bad_usage(usage, "--mark is for --kind cdf");
	if (o->median && o->kind == K_CDF)
		bad_usage(usage, "--median does not apply to --kind cdf");
	if (o->flag && (o->kind != K_BARS || o->median))
		bad_usage(usage, "--flag is for --kind bars, one row a bar (no --median)");
	if (o->ref && (o->kind == K_CDF || o->median))
		bad_usage(usage, "--ref is for bars, lines and points, one row a point (no --median)");
	if (o->also && o->kind != K_LINE && o->kind != K_POINTS)
		bad_usage(usage, "--also is for --kind line or points");
	if (o->dodge && o->kind != K_LINE && o->kind != K_CDF)
		bad_usage(usage, "--dodge is for --kind line or cdf");
	if (o->kind == K_BARS && (o->logx || o->xbytes || o->nvl))
		bad_usage(usage, "--kind bars has categories on x: no --logx, --xbytes or --vline");
}

/* Everything one picture needs, filled in by the steps of main() in turn:
 * the points, the axes, the layout, then the SVG. */
struct plot {
	struct options o;
	struct table t;
	struct series *ss;
	size_t ns;
	char **cats;
	size_t ncat, dropped;
	struct axis xa, ya;
	struct frame f;
	double legend_w;
	char foot[2048];
	size_t nfoot;
};

/* Reading: the CSV's rows become points, by series, in order of first
 * appearance; bars' x is the index of the category. */
static void read_points(struct plot *p)
{
	const struct options *o = &p->o;
	struct table *t = &p->t;
	const char **names = NULL, **styles = NULL;
	size_t nnames = 0, nstyles = 0, cx, cy = 0, cs = 0, ct = 0, cr = 0, cf = 0, ca = 0;
	struct series also = { 0 };     /* --also's points, a series once all are read */

	read_csv(o->file, t);
	cx = column(t, o->x, "--x");
	if (o->y)
		cy = column(t, o->y, "--y");
	if (o->series)
		cs = column(t, o->series, "--series");
	if (o->style)
		ct = column(t, o->style, "--style");
	if (o->ref)
		cr = column(t, o->ref, "--ref");
	if (o->flag)
		cf = column(t, o->flag, "--flag");
	if (o->also)
		ca = column(t, o->also, "--also");
	for (size_t r = 0; r < t->nrows; r++) {
		char **row = t->cell + r * t->ncols;
		const char *name = o->series ? row[cs] : o->y ? t->head[cy] : t->head[cx];
		struct series *s = find_series(&p->ss, &p->ns, name, o->style ? row[ct] : NULL,
					       &names, &nnames, &styles, &nstyles);
		double x, y = 0;

		if (o->kind == K_BARS) {
			size_t c;

			for (c = 0; c < p->ncat && strcmp(p->cats[c], row[cx]); c++)
				;
			if (c == p->ncat) {
				p->cats = xrealloc(p->cats, (p->ncat + 1) * sizeof *p->cats);
				p->cats[p->ncat++] = row[cx];
			}
			x = (double)c;
		} else {
			x = cell_number(t, r, cx);
		}
		if (o->y)
			y = cell_number(t, r, cy);
		if (o->kind == K_CDF && o->y) {
			if (y < 0 || y > 100)
				bad_input(t, t->line[r], "column '%s': %g is not a percentage (0 to 100)",
					  o->y, y);
			y /= 100;
		}
		push(s, x, y, o->ref ? cell_number(t, r, cr) : NAN, o->flag ? cell_number(t, r, cf) : 0);
		if (o->also)
			push(&also, x, cell_number(t, r, ca), NAN, 0);
	}
	/* --also comes last, so the other series keep their colours. */
	if (o->also) {
		struct series *s = find_series(&p->ss, &p->ns, o->also_label, NULL, &names, &nnames,
					       &styles, &nstyles);

		also.name = s->name, also.colour = s->colour;
		*s = also;
	}
	for (size_t i = 0; i < p->ns; i++) {
		struct series *s = &p->ss[i];

		if (o->kind == K_CDF && !o->y) {
			qsort(s->x, s->n, sizeof *s->x, cmp_double);
			for (size_t k = 0; k < s->n; k++)
				s->y[k] = (double)(k + 1) / (double)s->n;
		} else if (o->kind == K_CDF) {
			sort_points(s, 1);
		} else if (o->median || (o->also && !strcmp(s->name, o->also_label))) {
			reduce_median(s);
		} else if (o->kind == K_LINE || o->kind == K_BARS) {
			sort_points(s, 0);
		}
		if (o->kind == K_BARS)
			for (size_t k = 1; k < s->n; k++)
				if (s->x[k] == s->x[k - 1])
					bad_input(t, 0, "series '%s' has two values for '%s': "
						  "pass --median, or give each one row",
						  s->name, p->cats[(size_t)s->x[k]]);
	}
	/* --hide: out of the picture after the colours were handed out. */
	for (size_t i = 0, keep = 0, n = p->ns; i < n; i++) {
		if (o->hide && !strcmp(p->ss[i].name, o->hide)) {
			p->ns--;
			continue;
		}
		p->ss[keep++] = p->ss[i];
	}
}

/* Axes: the transforms, the points an axis cannot show dropped (and
 * counted), the ranges and ticks. */
static void build_axes(struct plot *p)
{
	const struct options *o = &p->o;
	struct axis *xa = &p->xa, *ya = &p->ya;

	xa->type = o->kind == K_BARS ? A_CAT
		 : o->logx ? (o->xbytes || o->log2x ? A_LOG2 : A_LOG10) : A_LIN;
	xa->bytes = o->xbytes;
	if (o->kind == K_CDF) {
		ya->type = o->logy ? A_TAIL : A_LIN;
		ya->percent = 1;
	} else {
		ya->type = o->logy ? A_LOG10 : A_LIN;
	}
	for (size_t i = 0; i < p->ns; i++) {
		struct series *s = &p->ss[i];
		size_t keep = 0;

		for (size_t k = 0; k < s->n; k++) {
			if ((xa->type != A_CAT && !drawable(xa, s->x[k])) || !drawable(ya, s->y[k])) {
				p->dropped++;
				continue;
			}
			s->x[keep] = s->x[k];
			s->y[keep] = s->y[k];
			s->ref[keep] = s->ref[k];
			s->flag[keep] = s->flag[k];
			keep++;
			if (xa->type != A_CAT)
				see(xa, s->x[k]);
			see(ya, s->y[k]);
			/* A prediction is drawn too: the axis must hold it. */
			if (!isnan(s->ref[k]) && drawable(ya, s->ref[k]))
				see(ya, s->ref[k]);
			if (ya->type == A_TAIL && s->y[k] < 1 && -log10(1 - s->y[k]) > ya->top_finite)
				ya->top_finite = -log10(1 - s->y[k]);
		}
		s->n = keep;
	}
	if (!ya->have_data)
		bad_input(&p->t, 0, "nothing to draw: every point is zero or negative on a log axis");
	for (size_t i = 0; i < o->nvl; i++)
		if (xa->type != A_CAT && drawable(xa, o->vl[i].x))
			see(xa, o->vl[i].x);
	for (size_t m = 0; m < o->nmarks; m++)
		if (ya->type == A_TAIL && o->mark[m] < 1 && -log10(1 - o->mark[m]) > ya->top_finite)
			ya->top_finite = -log10(1 - o->mark[m]);
	if (xa->type == A_CAT) {
		xa->lo = 0;
		xa->hi = (double)p->ncat;
	} else {
		make_axis(xa, 0, o->kind == K_CDF);     /* a CDF's last step off the edge */
	}
	make_axis(ya, o->kind == K_BARS, o->kind != K_CDF);
}

/* Layout, from the outside in: legend, y labels, footer, then the frame. */
static void lay_out(struct plot *p)
{
	const struct options *o = &p->o;
	double left, bottom, top, w = 0;

	for (size_t i = 0; i < p->ns; i++) {
		char name[256];
		double lw = 38 + text_w(series_label(&p->ss[i], name, sizeof name), FONT);

		if (lw > p->legend_w)
			p->legend_w = lw;
	}
	if (o->ref && 38 + text_w(o->ref_label, FONT) > p->legend_w)
		p->legend_w = 38 + text_w(o->ref_label, FONT);
	if (p->legend_w > o->width / 3.0)
		p->legend_w = o->width / 3.0;
	left = 16 + (o->ylabel ? FONT + 12 : 0);
	for (size_t i = 0; i < p->ya.nticks; i++)
		if (p->ya.labelled[i] && text_w(p->ya.label[i], FONT) > w)
			w = text_w(p->ya.label[i], FONT);
	left += w + 10;
	if (p->t.env)
		p->nfoot = wrap_items(p->t.env, (size_t)((o->width - 20) / (FONT_SMALL * CHAR_W)),
				p->foot, sizeof p->foot, 4);
	top = (o->title ? FONT_TITLE + 28 : FONT + 10) + (o->subtitle ? FONT + 8 : 0);
	bottom = FONT + 14 + (o->xlabel ? FONT + 14 : 0) +
		 (double)p->nfoot * (FONT_SMALL + 5) + (p->dropped ? FONT_SMALL + 5 : 0) + 8;
	if (o->kind == K_BARS)
		bottom += 2 * (FONT + 3);       /* room for wrapped category names */
	p->f = (struct frame){ .x0 = left, .y0 = top, .ya = &p->ya, .xa = &p->xa,
			       .ncat = p->ncat,
			       .x1 = o->width - p->legend_w - 24 - (o->nmarks ? 60 : 0),
			       .y1 = o->height - bottom };
	if (p->f.x1 - p->f.x0 < 120 || p->f.y1 - p->f.y0 < 100)
		bad_usage(usage, "--width %u --height %u leave no room for the plot",
			  o->width, o->height);
}

/* A title line: centred over the plot area, moved in from an edge it would
 * cross, shrunk (down to FONT_TITLE_MIN) when wider than the picture, and
 * cut short with an ellipsis if even that is too wide.
 * data-x0 and data-x1 are where it is estimated to start and end, from an
 * average glyph width rounded up, so a test can check that it fits. */
static void centred_text(const char *cls, const char *text, int font, int bold, double y,
			 const struct plot *p)
{
	const double char_w = bold ? CHAR_W_BOLD : CHAR_W;
	const double room = p->o.width - 20.0;
	double w, x;

	size_t len = strlen(text), keep;

	while (font > FONT_TITLE_MIN && (double)len * font * char_w > room)
		font--;
	/* Still too wide at the smallest size: cut it, with an ellipsis, at
	 * a character boundary (never inside a UTF-8 sequence). */
	keep = len;
	if ((double)len * font * char_w > room) {
		keep = (size_t)(room / (font * char_w)) - 1;
		while (keep > 0 && ((unsigned char)text[keep] & 0xc0) == 0x80)
			keep--;
	}
	w = (double)(keep + (keep < len)) * font * char_w;
	x = (p->f.x0 + p->f.x1) / 2;
	if (x - w / 2 < 10)
		x = 10 + w / 2;
	if (x + w / 2 > p->o.width - 10.0)
		x = p->o.width - 10.0 - w / 2;
	printf("<text class=\"%s\" data-x0=\"%.1f\" data-x1=\"%.1f\" x=\"%.1f\" y=\"%.1f\" "
	       "font-size=\"%d\"%s text-anchor=\"middle\" fill=\"#111\">", cls, x - w / 2,
	       x + w / 2, x, y, font, bold ? " font-weight=\"bold\"" : "");
	for (size_t i = 0; i < keep; i++)
		xml((char[]){ text[i], '\0' });
	printf("%s</text>\n", keep < len ? "\xe2\x80\xa6" : "");
}

/* Output, part 1: the SVG's head, its <title> and <desc>, the title. */
static void write_head(const struct plot *p, int argc, char **argv)
{
	const struct options *o = &p->o;

	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	printf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
	       "viewBox=\"0 0 %u %u\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\">\n",
	       o->width, o->height, o->width, o->height);
	printf("<title>");
	xml(p->t.env ? p->t.env : o->title ? o->title : "plot");
	printf("</title>\n<desc>drawn by tools/plots/plot from ");
	xml(p->t.name);
	printf(":");
	for (int i = 1; i < argc; i++) {
		putchar(' ');
		xml(argv[i]);
	}
	printf("</desc>\n");
	printf("<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	if (o->title)
		centred_text("title", o->title, FONT_TITLE, 1, FONT_TITLE + 8, p);
	if (o->subtitle)
		centred_text("subtitle", o->subtitle, FONT, 0, FONT_TITLE + 8 + FONT + 10, p);
}

/* Output, part 2: the plot area, with what a test reads in its data-*. */
static void write_area(const struct plot *p)
{
	const struct options *o = &p->o;
	const struct axis *xa = &p->xa, *ya = &p->ya;

	printf("<g class=\"plot-area\" data-kind=\"%s\" data-series=\"%zu\" data-dropped=\"%zu\"",
	       (const char *[]){ "line", "points", "bars", "cdf" }[o->kind], p->ns, p->dropped);
	if (xa->type == A_CAT)
		printf(" data-categories=\"%zu\"", p->ncat);
	else
		printf(" data-xmin=\"%.17g\" data-xmax=\"%.17g\" data-axis-xmin=\"%.17g\" "
		       "data-axis-xmax=\"%.17g\"", xa->dmin, xa->dmax, inv(xa, xa->lo), inv(xa, xa->hi));
	printf(" data-ymin=\"%.17g\" data-ymax=\"%.17g\" data-axis-ymin=\"%.17g\" "
	       "data-axis-ymax=\"%.17g\"", ya->dmin, ya->dmax, inv(ya, ya->lo), inv(ya, ya->hi));
	printf(" data-xscale=\"%s\" data-yscale=\"%s\">\n", scale_names[xa->type],
	       scale_names[ya->type]);
	draw_axes(&p->f, p->cats);
	draw_guides(&p->f, o);          /* under the data: a jump at a marker stays visible */
	draw_series(&p->f, o, p->ss, p->ns);
	printf("</g>\n");
	draw_legend(o->width - p->legend_w - 12, p->f.y0 + 14, o, p->ss, p->ns);
}

/* Output, part 3: the axis titles, the note on dropped points, the footer. */
static void write_texts(const struct plot *p)
{
	const struct options *o = &p->o;
	const struct frame *f = &p->f;
	double y = o->height - 10 - ((double)p->nfoot + (p->dropped ? 1 : 0) - 1) * (FONT_SMALL + 5);
	const char *l = p->foot;

	if (o->xlabel) {
		printf("<text class=\"xlabel\" x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" "
		       "text-anchor=\"middle\" fill=\"#111\">", (f->x0 + f->x1) / 2,
		       f->y1 + FONT + 14 + (o->kind == K_BARS ? 2 * (FONT + 3) : 0) + FONT + 8, FONT);
		xml(o->xlabel);
		printf("</text>\n");
	}
	if (o->ylabel) {
		double my = (f->y0 + f->y1) / 2;

		printf("<text class=\"ylabel\" x=\"%d\" y=\"%.1f\" font-size=\"%d\" "
		       "text-anchor=\"middle\" fill=\"#111\" transform=\"rotate(-90 %d %.1f)\">",
		       16 + FONT, my, FONT, 16 + FONT, my);
		xml(o->ylabel);
		printf("</text>\n");
	}
	if (p->dropped) {
		printf("<text class=\"note\" x=\"10\" y=\"%.1f\" font-size=\"%d\" fill=\"#333\">"
		       "%zu point%s at or below zero not drawn (log axis)</text>\n",
		       y, FONT_SMALL, p->dropped, p->dropped == 1 ? "" : "s");
		y += FONT_SMALL + 5;
	}
	for (size_t k = 0; k < p->nfoot; k++, l += strlen(l) + 1, y += FONT_SMALL + 5) {
		printf("<text class=\"footer\" x=\"10\" y=\"%.1f\" font-size=\"%d\" fill=\"#333\">",
		       y, FONT_SMALL);
		xml(l);
		printf("</text>\n");
	}
}

int main(int argc, char **argv)
{
	static struct plot p;

	cli_start("plot");
	parse_args(argc, argv, &p.o);
	read_points(&p);
	build_axes(&p);
	lay_out(&p);
	write_head(&p, argc, argv);
	write_area(&p);
	write_texts(&p);
	printf("</svg>\n");
	if (p.dropped)
		fprintf(stderr, "%s: %zu point%s at or below zero not drawn on a log axis\n",
			cli_prog, p.dropped, p.dropped == 1 ? "" : "s");
	return 0;
}
