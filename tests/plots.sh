#!/usr/bin/env bash
# tests/plots.sh - tools/plots/plot (CSV in, SVG out) and tools/plots/plots.sh
# (make plots).  Tiny synthetic CSVs check the parser and the drawing; one
# short real run checks the four kinds of picture.  Every SVG must be
# well-formed (tests/bin/xmlcheck), carry the series it was given, and have
# axes that hold all of its data, which tools/plots/plot states in data-*
# attributes of <g class="plot-area">.
. "$(dirname "$0")/lib.sh" || exit 1
full_only "the pictures, drawn and checked"

P=tools/plots/plot
if [ ! -x "$P" ] || [ ! -x tests/bin/xmlcheck ]; then
	skip "plots" "tools/plots/plot or tests/bin/xmlcheck is not built (make test builds them)"
	return 0 2>/dev/null || exit 0
fi

# l8attr FILE NAME: the value of data-NAME on the plot-area element.
l8attr() { sed -n 's/.*class="plot-area"[^>]* data-'"$2"'="\([^"]*\)".*/\1/p' "$1" | head -n 1; }

# l8check NAME FILE SERIES: well-formed, SERIES series and as many legend
# entries, axes holding the data (x unless the x axis is categories).
l8check() {
	local name=$1 svg=$2 want=$3 got legend ok=1 why=""
	if ! tests/bin/xmlcheck "$svg" >"$TMP/l8xml" 2>&1; then
		fail "$name: well-formed SVG" "$(head -c 300 "$TMP/l8xml")"
		return
	fi
	pass "$name: well-formed SVG ($(cat "$TMP/l8xml"))"
	got=$(grep -c '<g class="series"' "$svg")
	legend=$(grep -c '<g class="legend-entry"' "$svg")
	if [ "$got" -eq "$want" ] && [ "$legend" -eq "$want" ] &&
	   [ "$(l8attr "$svg" series)" = "$want" ]; then
		pass "$name: $want series, $want legend entries"
	else
		fail "$name: series" "series $got, legend $legend, data-series $(l8attr "$svg" series); want $want"
	fi
	for ax in x y; do
		[ -n "$(l8attr "$svg" ${ax}min)" ] || continue
		if ! awk -v a="$(l8attr "$svg" axis-${ax}min)" -v lo="$(l8attr "$svg" ${ax}min)" \
			 -v hi="$(l8attr "$svg" ${ax}max)" -v b="$(l8attr "$svg" axis-${ax}max)" \
			 'BEGIN { e = 1e-9 * (b - a); exit !(a != "" && b != "" && a <= lo + e && hi <= b + e && a < b) }'; then
			ok=0
			why="$why $ax: axis $(l8attr "$svg" axis-${ax}min)..$(l8attr "$svg" axis-${ax}max), data $(l8attr "$svg" ${ax}min)..$(l8attr "$svg" ${ax}max);"
		fi
	done
	if [ $ok = 1 ]; then pass "$name: the axes hold every point"
	else fail "$name: the axes hold every point" "$why"; fi
}

# l8close NAME FILE: every title line inside the picture (by plot's own
# estimate of where it starts and ends, from a generous glyph width); the
# axes not far past the data (a log axis ends within a 1-2-5 step of it,
# 2.5x; a linear one within 35% of its length: one tick step and a little
# room); and the largest y value below the top edge, not on the frame.
# A CDF's y axis is 0-100% by design: only its x is checked.
l8close() {
	local name=$1 svg=$2 w bad
	w=$(sed -n 's/^<svg [^>]* width="\([0-9]*\)".*/\1/p' "$svg")
	bad=$(grep -o 'class="\(sub\)\{0,1\}title" data-x0="[^"]*" data-x1="[^"]*"' "$svg" |
		awk -F'"' -v w="$w" '{ if (!($4 >= 0 && $6 <= w)) print $2 ": " $4 ".." $6 " of " w } END { if (!NR) print "no title" }')
	if [ -z "$bad" ]; then pass "$name: the title fits the picture"
	else fail "$name: the title fits the picture" "$bad"; fi
	bad=
	for ax in x y; do
		local sc lo hi a b
		sc=$(l8attr "$svg" ${ax}scale); lo=$(l8attr "$svg" ${ax}min); hi=$(l8attr "$svg" ${ax}max)
		a=$(l8attr "$svg" axis-${ax}min); b=$(l8attr "$svg" axis-${ax}max)
		case $sc in cat | tail | "") continue ;; esac
		[ "$ax" = y ] && [ "$(l8attr "$svg" kind)" = cdf ] && continue
		awk -v sc="$sc" -v lo="$lo" -v hi="$hi" -v a="$a" -v b="$b" -v ax="$ax" 'BEGIN {
			if (sc == "lin") far = b - hi > 0.35 * (b - a) || (ax == "x" && lo - a > 0.35 * (b - a))
			else far = b / hi > 2.5 + 1e-9 || (ax == "x" && lo / a > 2.5 + 1e-9)
			exit !far }' && bad="$bad $ax: data $lo..$hi on an axis $a..$b ($sc);"
		if [ "$ax" = y ] && ! awk -v hi="$hi" -v b="$b" 'BEGIN { exit !(hi < b) }'; then
			bad="$bad y: the largest value $hi is on the top edge;"
		fi
	done
	if [ -z "$bad" ]; then pass "$name: the axes end close to the data, the top point inside"
	else fail "$name: the axes end close to the data, the top point inside" "$bad"; fi
}

# ------------------------------------------------------------ options
"$P" --help >"$TMP/out" 2>"$TMP/err"
if [ $? -eq 0 ] && grep -q '^usage: ' "$TMP/out" && [ ! -s "$TMP/err" ]; then
	pass "plot --help: usage on stdout, exit 0"
else
	fail "plot --help: usage on stdout, exit 0" "$(head -c 200 "$TMP/err")"
fi
printf 'a,b\n1,2\n' >"$TMP/l8ab.csv"
check_usage_error "plot: no --x" "$P" --y b "$TMP/l8ab.csv"
check_usage_error "plot: no --y for a line" "$P" --x a "$TMP/l8ab.csv"
check_usage_error "plot: unknown --kind" "$P" --x a --y b --kind pie "$TMP/l8ab.csv"
check_usage_error "plot: --width too small" "$P" --x a --y b --width 10 "$TMP/l8ab.csv"
check_usage_error "plot: --mark outside cdf" "$P" --x a --y b --mark p50 "$TMP/l8ab.csv"
check_usage_error "plot: --mark junk" "$P" --x a --kind cdf --mark p200 "$TMP/l8ab.csv"
check_usage_error "plot: --vline junk" "$P" --x a --y b --vline abc:x "$TMP/l8ab.csv"
check_usage_error "plot: --style without --series" "$P" --x a --y b --style a "$TMP/l8ab.csv"
check_usage_error "plot: unknown option" "$P" --x a --y b --fast "$TMP/l8ab.csv"
check_usage_error "plot: two files" "$P" --x a --y b "$TMP/l8ab.csv" "$TMP/l8ab.csv"
check_usage_error "plot: a missing column" "$P" --x a --y nosuch "$TMP/l8ab.csv"
if head -n 1 "$TMP/err" | grep -q "nosuch.*no such column"; then
	pass "plot: a missing column is named in the reason"
else
	fail "plot: a missing column is named in the reason" "$(head -c 300 "$TMP/err")"
fi

# ------------------------------------------------------------- parser
# RFC 4180 with CRLF: quoted commas, doubled quotes, a newline inside a
# quoted field, a comment line; the first "# " line is the title.
printf '# test env line\r\nname,x,y\r\n"a, b",1,10\r\n"say ""hi""",2,20\r\n# skipped\r\n"a, b",3,30\r\n"two\r\nlines",4,40\r\n' >"$TMP/l8q.csv"
if "$P" --x x --y y --series name "$TMP/l8q.csv" >"$TMP/l8q.svg" 2>"$TMP/err"; then
	l8check "plot: quoted CSV with CRLF" "$TMP/l8q.svg" 3
	if grep -q 'data-name="a, b" data-points="2"' "$TMP/l8q.svg" &&
	   grep -q 'data-name="say &quot;hi&quot;"' "$TMP/l8q.svg" &&
	   grep -q '<title>test env line</title>' "$TMP/l8q.svg"; then
		pass "plot: quoted fields kept whole, quotes undoubled, the env line is the <title>"
	else
		fail "plot: quoted fields" "$(grep -o 'data-name="[^"]*" data-points="[0-9]*"\|<title>.*</title>' "$TMP/l8q.svg" | tr '\n' ' ')"
	fi
	cmp_num "plot: x range of the quoted CSV" "$(l8attr "$TMP/l8q.svg" xmax)" -eq 4
else
	fail "plot: quoted CSV with CRLF" "$(head -c 300 "$TMP/err")"
fi

check_exit "plot: empty input is an error" 1 "$P" --x a --y b /dev/null
grep -q 'empty' "$TMP/err" && pass "plot: empty input says so" || fail "plot: empty input says so" "$(head -c 200 "$TMP/err")"
printf '# only a comment\na,b\n' >"$TMP/l8h.csv"
check_exit "plot: a header without rows is an error" 1 "$P" --x a --y b "$TMP/l8h.csv"
printf 'a,b\n1,2\n3\n' >"$TMP/l8r.csv"
check_exit "plot: a short row is an error" 1 "$P" --x a --y b "$TMP/l8r.csv"
grep -q ':3: 1 fields' "$TMP/err" && pass "plot: the short row's line is named" || fail "plot: the short row's line is named" "$(head -c 200 "$TMP/err")"
printf 'a,b\n1,x2\n' >"$TMP/l8n.csv"
check_exit "plot: a cell that is not a number is an error" 1 "$P" --x a --y b "$TMP/l8n.csv"
printf 'a,b\n1,"2\n' >"$TMP/l8u.csv"
check_exit "plot: an unterminated quote is an error" 1 "$P" --x a --y b "$TMP/l8u.csv"
check_exit "plot: a write error exits 1" 1 sh -c "'$P' --x a --y b '$TMP/l8ab.csv' >/dev/full"
printf 'a,b\n1,5\n1,1\n1,3\n2,4\n' | "$P" --x a --y b --median >"$TMP/l8m.svg" 2>"$TMP/err"
cmp_num "plot: --median keeps the middle value (3 of 5,1,3)" "$(l8attr "$TMP/l8m.svg" ymin)" -eq 3

# Log axes cannot show 0: the point is left out and the picture says so.
printf 'a,b\n0,5\n1,10\n100,20\n' | "$P" --x a --y b --logx >"$TMP/l8z.svg" 2>"$TMP/err"
if [ "$(l8attr "$TMP/l8z.svg" dropped)" = 1 ] && grep -q 'not drawn' "$TMP/l8z.svg"; then
	pass "plot: a zero on a log axis is left out and reported"
else
	fail "plot: a zero on a log axis" "dropped=$(l8attr "$TMP/l8z.svg" dropped)"
fi
l8check "plot: log x" "$TMP/l8z.svg" 1

# CDF from samples: nearest rank, as bench_pct, so p50 of 1..4 is 2.
printf 'v\n4\n1\n3\n2\n' | "$P" --x v --kind cdf --logy --mark p50,p99 >"$TMP/l8c.svg" 2>"$TMP/err"
l8check "plot: cdf from samples" "$TMP/l8c.svg" 1
if grep -q 'class="mark" data-q="p50" data-x="2"' "$TMP/l8c.svg" &&
   grep -q 'class="mark" data-q="p99" data-x="4"' "$TMP/l8c.svg"; then
	pass "plot: cdf marks p50 and p99 at the nearest-rank samples"
else
	fail "plot: cdf marks" "$(grep -o 'data-q="[^"]*" data-x="[^"]*"' "$TMP/l8c.svg" | tr '\n' ' ')"
fi
printf 'k,n\nA,3\nB,30\nA,4\n' | "$P" --x k --y n --kind bars >"$TMP/l8b.svg" 2>"$TMP/err"
[ $? -eq 1 ] && grep -q 'two values' "$TMP/err" &&
	pass "plot: bars refuse two values for one category" ||
	fail "plot: bars refuse two values for one category" "$(head -c 200 "$TMP/err")"

# --------------------------------------------------- a real short run
# Through make, as a student types it (ROUNDS left to plots.sh's default).
if make --no-print-directory -s plots PLOTS_DIR="$TMP/plots" FRAMES=2 VARIANCE_ITERS=2000 BYTES=512K \
	>"$TMP/l8run" 2>"$TMP/l8err"; then
	pass "make plots FRAMES=2 ...: a short run of every lab"
	# (an allocator Lab 7 skips is named there, two lines: not progress)
	grep -v -e '^lab7: skipped ' -e '^      (apt-get install ' "$TMP/l8err" >"$TMP/l8err2"
	[ -s "$TMP/l8err2" ] && fail "make plots: no progress when stderr is not a terminal" \
		"$(head -c 200 "$TMP/l8err2")" ||
		pass "make plots: no progress when stderr is not a terminal"
	# Lab 1's bars coloured by policy: default, no mmap, tuned, fixed, floor.
	l8check "plot lab1 faults" "$TMP/plots/plot-lab1-faults.svg" 5
	cmp_num "plot lab1: eight steps" "$(l8attr "$TMP/plots/plot-lab1-faults.svg" categories)" -eq 8
	cmp_num "plot lab1: eight bars (one a step, full width)" \
		"$(grep -c 'class="bar"' "$TMP/plots/plot-lab1-faults.svg")" -eq 8
	cmp_num "plot lab1: each bar's prediction is marked" \
		"$(grep -c 'class="ref"' "$TMP/plots/plot-lab1-faults.svg")" -eq 8
	# Corrupt pixels drawn exactly where the CSV has them (steps 3-6 at
	# least: reused memory never cleared; never the fixed or floor runs).
	n=$(awk -F, '/^alloc,/ { for (i = 1; i <= NF; i++) if ($i == "corrupt_pixels") c = i; next }
		c && !/^#/ && $c + 0 > 0 { k++ } END { print k + 0 }' "$TMP/plots/lab1.csv")
	cmp_num "plot lab1: a red outline for each run with corrupt pixels ($n)" \
		"$(grep -c 'class="flag"' "$TMP/plots/plot-lab1-faults.svg")" -eq "$n"
	cmp_num "plot lab1: some runs show the corruption" "$n" -ge 1
	l8check "plot lab1 time" "$TMP/plots/plot-lab1-time.svg" 5
	grep -q 'data-name="minor_faults"' "$TMP/plots/plot-lab1-faults.svg" &&
		fail "plot lab1: legends in words" "a column name (minor_faults) in the legend" ||
		pass "plot lab1: legends in words, not column names"
	for f in lab1-faults lab1-time lab2-latency lab2-fast lab4-cap lab5-pipe; do
		if grep -q 'class="footer".*THP' "$TMP/plots/plot-$f.svg" &&
		   grep -q 'class="footer".*read fault: ' "$TMP/plots/plot-$f.svg" &&
		   grep -q 'class="footer".*GLIBC_TUNABLES=' "$TMP/plots/plot-$f.svg"; then
			pass "plot $f: the footer names THP, the read-fault kind and the malloc settings"
		else
			fail "plot $f: the footer names THP, the read-fault kind and the malloc settings" \
				"$(grep -o 'class="footer"[^<]*' "$TMP/plots/plot-$f.svg" | tr '\n' ' ' | head -c 300)"
		fi
	done
	l8check "plot lab2" "$TMP/plots/plot-lab2-latency.svg" 7
	l8check "plot lab2 up close: six rows, no forced mmap" "$TMP/plots/plot-lab2-fast.svg" 6
	grep -q 'data-name="malloc 1 MiB (forced mmap)"' "$TMP/plots/plot-lab2-fast.svg" &&
		fail "plot lab2 up close: no forced-mmap row" "it is drawn" ||
		pass "plot lab2 up close: no forced-mmap row"
	# --hide keeps the colours: the pool row is the same colour in both.
	l8colour() { awk -v n="$2" 'index($0, "data-name=\"" n "\"") { f = 1; next }
		f && match($0, /stroke="#[0-9A-Fa-f]+"/) { print substr($0, RSTART, RLENGTH); exit }' "$1"; }
	c1=$(l8colour "$TMP/plots/plot-lab2-latency.svg" "pool 64 B")
	c2=$(l8colour "$TMP/plots/plot-lab2-fast.svg" "pool 64 B")
	[ -n "$c1" ] && [ "$c1" = "$c2" ] && pass "plot lab2 up close: each row keeps its colour ($c1)" ||
		fail "plot lab2 up close: each row keeps its colour" "'$c1' vs '$c2'"
	cmp_num "plot lab2 up close: nothing above p99" \
		"$(awk -v a="$(l8attr "$TMP/plots/plot-lab2-fast.svg" ymax)" 'BEGIN { print (a <= 0.99) }')" -eq 1
	cmp_num "plot lab2: p50/p99/p99.9 on each row" \
		"$(grep -c 'class="mark"' "$TMP/plots/plot-lab2-latency.svg")" -eq 21
	l8check "plot lab4" "$TMP/plots/plot-lab4-cap.svg" 2
	cmp_num "plot lab4: the 32 MiB cap is marked" \
		"$(grep -c 'class="vline"' "$TMP/plots/plot-lab4-cap.svg")" -eq 1
	cmp_num "plot lab4: 19 sizes a series" \
		"$(grep -c 'data-points="19"' "$TMP/plots/plot-lab4-cap.svg")" -eq 2
	# a series an alignment (yes's own rows, one a rep), on 1 CPU and on 2
	na=$(( $(./yes --csv --size 4K --reps 1 --bytes 4K 2>/dev/null | wc -l) - 1 ))
	n5=$((2 * na)); [ "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)" -ge 2 ] || n5=$na
	l8check "plot lab5" "$TMP/plots/plot-lab5-pipe.svg" $n5
	l8check "plot lab6" "$TMP/plots/plot-lab6-rss.svg" 4
	cmp_num "plot lab6: 5 thread counts a policy, and live" \
		"$(grep -c 'data-points="5"' "$TMP/plots/plot-lab6-rss.svg")" -eq 4
	for f in lab1-faults lab1-time lab2-latency lab2-fast lab4-cap lab5-pipe lab6-rss; do
		l8close "plot $f" "$TMP/plots/plot-$f.svg"
	done
	# Lab 1's time: linear from 0 (a bar twice as tall took twice as long),
	# the corrupt runs outlined as on the faults picture.
	if [ "$(l8attr "$TMP/plots/plot-lab1-time.svg" yscale)" = lin ] &&
	   [ "$(l8attr "$TMP/plots/plot-lab1-time.svg" axis-ymin)" = 0 ]; then
		pass "plot lab1 time: a linear axis from 0"
	else
		fail "plot lab1 time: a linear axis from 0" \
			"$(l8attr "$TMP/plots/plot-lab1-time.svg" yscale) from $(l8attr "$TMP/plots/plot-lab1-time.svg" axis-ymin)"
	fi
	cmp_num "plot lab1 time: a red outline for each run with corrupt pixels ($n)" \
		"$(grep -c 'class="flag"' "$TMP/plots/plot-lab1-time.svg")" -eq "$n"
	# Lab 4: frames' prediction beside every measured point, the edge named.
	cmp_num "plot lab4: a prediction ring on each of the 38 points" \
		"$(grep -c '<circle class="ref"' "$TMP/plots/plot-lab4-cap.svg")" -eq 38
	# (the subtitle writes it with commas, as README does)
	grep 'class="subtitle"' "$TMP/plots/plot-lab4-cap.svg" | tr -d , |
		grep -q "(frames --edge): $(./frames --edge) B adapts" &&
		pass "plot lab4: the measured edge is named beside the cap" ||
		fail "plot lab4: the measured edge is named beside the cap" "no subtitle naming it"
	# Lab 5 says what its 1 CPU and 2 CPUs lines are.
	grep -q 'class="subtitle".*1 CPU: .*2 CPUs: ' "$TMP/plots/plot-lab5-pipe.svg" &&
		pass "plot lab5: says what 1 CPU and 2 CPUs mean" ||
		fail "plot lab5: says what 1 CPU and 2 CPUs mean" "no subtitle explaining them"
	# Lab 6: live bytes beside resident memory, at every thread count.
	if grep -q 'data-name="live (held by the threads)" data-points="5"' "$TMP/plots/plot-lab6-rss.svg" &&
	   grep -q 'data-name="default" data-points="5"' "$TMP/plots/plot-lab6-rss.svg"; then
		pass "plot lab6: live bytes drawn beside resident memory"
	else
		fail "plot lab6: live bytes drawn beside resident memory" \
			"$(grep -o 'data-name="[^"]*" data-points="[0-9]*"' "$TMP/plots/plot-lab6-rss.svg" | tr '\n' ' ')"
	fi
	# Lab 7: one colour an allocator (glibc and glibc tuned always, each
	# installed preload), the three ways to allocate a frame.  ldconfig -p
	# starts each library's line with a tab: its first field is the name.
	n7=2
	for so in libjemalloc.so.2 libtcmalloc_minimal.so.4 libmimalloc.so.2; do
		[ -n "$(/sbin/ldconfig -p 2>/dev/null | awk -v s="$so" '$1 == s { print $NF; exit }')" ] &&
			n7=$((n7 + 1))
	done
	for f in lab7-time lab7-faults; do
		l8check "plot $f: one series an allocator" "$TMP/plots/plot-$f.svg" $n7
		cmp_num "plot $f: calloc, malloc, memset" "$(l8attr "$TMP/plots/plot-$f.svg" categories)" -eq 3
	done
	grep -q '<title># \|<title>glibc' "$TMP/plots/plot-lab4-cap.svg" &&
		pass "plot lab4: the environment line is the <title>" ||
		fail "plot lab4: the environment line is the <title>" "$(grep -m1 '<title>' "$TMP/plots/plot-lab4-cap.svg")"
else
	fail "make plots FRAMES=2 ...: a short run of every lab" "$(tail -c 300 "$TMP/l8err")"
fi
# A run that fails stops everything and names itself.
FRAMES=0 PLOTS_DIR="$TMP/plots0" tools/plots/plots.sh >"$TMP/out" 2>"$TMP/err"
if [ $? -ne 0 ] && grep -q 'run failed: .*frames' "$TMP/err"; then
	pass "plots.sh: a failed run stops it and is named"
else
	fail "plots.sh: a failed run stops it and is named" "$(head -c 300 "$TMP/err")"
fi
# Progress appears on a terminal (script gives the run one), before the
# failing first run stops it.
if pty_ok; then
	script -qec "FRAMES=0 PLOTS_DIR='$TMP/plots0' tools/plots/plots.sh" /dev/null >"$TMP/out" 2>&1
	grep -q 'plots: Lab 1, run 1 of 8' "$TMP/out" &&
		pass "plots.sh: progress on a terminal" ||
		fail "plots.sh: progress on a terminal" "$(head -c 300 "$TMP/out")"
else
	skip "plots.sh: progress on a terminal" "$PTY_WHY"
fi
# --ref and --flag: a tick at each reference value, a flag where the
# column is not 0; both refused outside bars.
printf 'k,n,p,bad\nA,10,12,0\nB,30,30,7\n' |
	"$P" --x k --y n --kind bars --ref p:predicted --flag bad:broken >"$TMP/l8r.svg" 2>"$TMP/err"
if [ "$(grep -c 'class="ref"' "$TMP/l8r.svg")" -eq 2 ] && [ "$(grep -c 'class="flag"' "$TMP/l8r.svg")" -eq 1 ] &&
   grep -q '>7<tspan[^>]*>broken</tspan>' "$TMP/l8r.svg"; then
	pass "plot: --ref ticks every bar, --flag marks only the nonzero one"
else
	fail "plot: --ref ticks every bar, --flag marks only the nonzero one" "$(head -c 300 "$TMP/err")"
fi
check_usage_error "plot: --ref outside bars is refused" "$P" --x n --y p --ref p:x "$TMP/l8ab.csv"
check_usage_error "plot: --flag wants COLUMN:TEXT" "$P" --x k --y n --kind bars --flag bad "$TMP/l8ab.csv"
# Every "# " line before the header is the footer, joined by " | ".
printf '# one\n# two\nx,y\n1,2\n' | "$P" --x x --y y >"$TMP/l8e.svg" 2>"$TMP/err"
grep -q '<title>one | two</title>' "$TMP/l8e.svg" &&
	pass "plot: every header comment line reaches the title and footer" ||
	fail "plot: every header comment line reaches the title and footer" "$(grep -m1 '<title>' "$TMP/l8e.svg")"
# A bar of exactly 1 on a log axis must still have height: the axis starts
# a decade below it.
printf 'k,n\nA,1\nB,30\n' | "$P" --x k --y n --kind bars --logy >"$TMP/l8one.svg" 2>"$TMP/err"
if awk -v a="$(l8attr "$TMP/l8one.svg" axis-ymin)" 'BEGIN { exit !(a != "" && a < 1) }'; then
	pass "plot: a log bar of 1 starts below the axis floor"
else
	fail "plot: a log bar of 1 starts below the axis floor" "axis-ymin $(l8attr "$TMP/l8one.svg" axis-ymin)"
fi

# Axes end near the data: 1..16 on a log axis ends at 20 (1-2-5), in
# powers of two (--logx2) at 16; a largest y on a tick gets a step above it.
printf 't,v\n1,5\n2,7\n4,9\n8,11\n16,13\n' >"$TMP/l8t.csv"
"$P" --x t --y v --logx "$TMP/l8t.csv" >"$TMP/l8t10.svg" 2>"$TMP/err"
"$P" --x t --y v --logx2 "$TMP/l8t.csv" >"$TMP/l8t2.svg" 2>>"$TMP/err"
if [ "$(printf '%.0f' "$(l8attr "$TMP/l8t10.svg" axis-xmax)")" = 20 ] &&
   [ "$(l8attr "$TMP/l8t2.svg" axis-xmax)" = 16 ] && [ "$(l8attr "$TMP/l8t2.svg" xscale)" = log2 ] &&
   awk -v b="$(l8attr "$TMP/l8t2.svg" axis-ymax)" 'BEGIN { exit !(b > 13) }'; then
	pass "plot: log axes end at the next 1-2-5 (20) or power of 2 (16); the top y is inside"
else
	fail "plot: axis ends" "log10 x to $(l8attr "$TMP/l8t10.svg" axis-xmax), log2 x to $(l8attr "$TMP/l8t2.svg" axis-xmax), y to $(l8attr "$TMP/l8t2.svg" axis-ymax)"
fi
# A title far wider than the picture shrinks and moves in; --also adds one
# series (the median where rows share an x), coloured after the others.
long=$(printf 'a very long title %.0s' 1 2 3 4 5 6)
printf 'x,y,p,live\n1,10,a,2\n1,12,b,4\n2,20,a,3\n2,22,b,3\n' |
	"$P" --x x --y y --series p --also "live:live" --title "$long" --subtitle "$long" >"$TMP/l8w.svg" 2>"$TMP/err"
l8close "plot: an over-long title and subtitle" "$TMP/l8w.svg"
if grep -q 'data-name="live" data-points="2"' "$TMP/l8w.svg" &&
   [ "$(l8attr "$TMP/l8w.svg" ymin)" = 2 ]; then
	pass "plot --also: one more series, the median (lower middle) of rows sharing an x"
else
	fail "plot --also" "$(grep -o 'data-name="[^"]*" data-points="[0-9]*"' "$TMP/l8w.svg" | tr '\n' ' ') ymin $(l8attr "$TMP/l8w.svg" ymin)"
fi
check_usage_error "plot: --also outside lines is refused" "$P" --x a --y b --kind bars --also b:x "$TMP/l8ab.csv"
check_usage_error "plot: --dodge out of range" "$P" --x a --y b --dodge 99 "$TMP/l8ab.csv"
