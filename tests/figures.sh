#!/usr/bin/env bash
# tests/figures.sh - every figure README, docs/, FURTHER.md and
# results/README.md quote from a run is in the results/ file they cite, so
# that re-recording results/ turns stale prose red.
#
# tools/maint/figures.awk lists the figures (its header states what a unit,
# a citation and a figure are, and which numbers are not measurements by
# rule).  Here each listed figure must be held by a file its unit cites (a
# directory: any file in it), with the numbers of the file read as words:
# "3240101", "3,240,102" and "1,032" are numbers, and so is each field of
# a CSV record.
#   count    an integer equal to one of the file's numbers (commas dropped;
#            1741.0 holds 1,741)
#   took     whole seconds in a sentence that says "took": the file's own
#            "# took N s" line (how long the recording ran)
#   decimal  the file holds a number that rounds to it at the quoted
#            decimals (10.198 holds "10.198" and "10.2", not "10.20")
#   ratio    "18.6x": a decimal as above, or the quotient a/b of two
#            figures of its paragraph or table (or the table just before),
#            or of two numbers on one line of a cited file, rounded to its
#            decimals
#   percent  "1.7%": as a ratio, with 100 a/b or 100 (a/b - 1)
# A measured shape in a unit that names no results/ file fails: it says
# where its number came from, or it is not a measurement (then figures.awk
# should not list it: change the sentence or the rule, not this file).
. "$(dirname "$0")/lib.sh" || exit 1

# verdicts FIGURES: "DOC<TAB>LINE<TAB>FIGURE<TAB>why" for each figure of
# FIGURES (figures.awk's lines) that no cited file holds; the last line
# "checked N".
verdicts() {
awk -F '\t' '
function numbers(f,    line, t, n) {
	if (f in loaded) return
	loaded[f] = 1
	while ((getline line <f) > 0) {
		if (line ~ /^# took [0-9]+ s/) { t = line; sub(/^# took /, "", t); sub(/ .*/, "", t); took[f, t] = 1 }
		t = line
		# Thousands-grouped numbers as one, then every run of digits.
		while (match(t, /[0-9][0-9]?[0-9]?(,[0-9][0-9][0-9])+(\.[0-9]+)?/)) {
			n = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH); gsub(/,/, "", n); has[f, n] = 1; addnum(f, n)
		}
		t = line; nl[f]++; ln[f, nl[f]] = 0
		while (match(t, /[0-9]+(\.[0-9]+)?/)) {
			n = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH); addnum(f, n)
			lv[f, nl[f], ++ln[f, nl[f]]] = n + 0
		}
	}
	close(f)
}
function addnum(f, n,    d, w) {
	has[f, n] = 1
	# 1741.0 holds "1,741" too.
	if (n ~ /\.0+$/) { w = n; sub(/\..*/, "", w); has[f, w] = 1 }
	if (n ~ /\./) { d = n; sub(/.*\./, "", d); nd[f]++; dec[f, nd[f]] = n; decs[f, nd[f]] = length(d) }
}
function decimals(k,    d) { if (k !~ /\./) return 0; d = k; sub(/.*\./, "", d); return length(d) }
function infile(f, k, kd,    d, i) {
	if (kd == "took") return ((f, k) in took)
	if ((f, k) in has) return 1
	if (k !~ /\./) return 0
	d = decimals(k)
	for (i = 1; i <= nd[f]; i++)
		if (decs[f, i] > d && sprintf("%." d "f", dec[f, i]) == k) return 1
	return 0
}
function held(cites, k, kd,    n, c, i, j, m, g, cmd, line) {
	n = split(cites, c, " ")
	for (i = 1; i <= n; i++) {
		if (!(c[i] in files)) {
			files[c[i]] = ""
			cmd = "find \"" c[i] "\" -type f 2>/dev/null | sort"
			while ((cmd | getline line) > 0) files[c[i]] = files[c[i]] " " line
			close(cmd)
		}
		m = split(files[c[i]], g, " ")
		for (j = 1; j <= m; j++) { numbers(g[j]); if (infile(g[j], k, kd)) return 1 }
	}
	return 0
}
# quotient(R, K, D, HOW): R (a/b) rounded to D decimals is K, as a ratio
# (HOW ratio) or as 100 R, 100 (R - 1) or 100 (1 - R) (HOW percent).
function quotient(r, k, d, how) {
	if (how == "ratio") return sprintf("%." d "f", r) == k
	return sprintf("%." d "f", 100 * r) == k || sprintf("%." d "f", 100 * (r - 1)) == k || sprintf("%." d "f", 100 * (1 - r)) == k
}
# online(CITES, K, HOW): K is a quotient (as derived() takes it) of two
# numbers on one line of a cited file.
function online(cites, k, how,    n, c, i, j, m, g, l, x, y, d) {
	d = decimals(k)
	n = split(cites, c, " ")
	for (i = 1; i <= n; i++) {
		m = split(files[c[i]], g, " ")
		for (j = 1; j <= m; j++) for (l = 1; l <= nl[g[j]]; l++)
			for (x = 1; x <= ln[g[j], l]; x++) for (y = 1; y <= ln[g[j], l]; y++) {
				if (x == y || lv[g[j], l, y] == 0) continue
				if (quotient(lv[g[j], l, x] / lv[g[j], l, y], k, d, how)) return 1
			}
	}
	return 0
}
# derived(U, K, HOW): K is a/b (HOW ratio) or 100 a/b or 100 (a/b - 1)
# (HOW percent) of two figures of unit U, at the decimals K has.
function derived(d_, u, k, how,    i, j, a, b, d, m, v) {
	d = decimals(k)
	# The figures of the unit and of the one before it (a table the
	# sentence sums up).
	m = 0
	for (i = 1; i <= cnt[d_, u]; i++) v[++m] = val[d_, u, i]
	for (i = 1; i <= cnt[d_, u - 1]; i++) v[++m] = val[d_, u - 1, i]
	for (i = 1; i <= m; i++) for (j = 1; j <= m; j++) {
		if (i == j) continue
		a = v[i]; b = v[j]
		if (b == 0) continue
		if (quotient(a / b, k, d, how)) return 1
	}
	return 0
}
{ n++; doc[n] = $1; at[n] = $2; unit[n] = $3; fig[n] = $4; kind[n] = $5; cites[n] = $6
  k = $4; gsub(/,/, "", k); key[n] = k
  if ($5 == "count" || $5 == "decimal") { c = ++cnt[$1, $3]; val[$1, $3, c] = k + 0 } }
END {
	for (i = 1; i <= n; i++) {
		if (cites[i] == "") { print doc[i] "\t" at[i] "\t" fig[i] "\tit names no results/ file (nor does its table or heading)"; continue }
		checked++
		if (held(cites[i], key[i], kind[i])) continue
		if ((kind[i] == "ratio" || kind[i] == "percent") && (derived(doc[i], unit[i], key[i], kind[i]) || online(cites[i], key[i], kind[i]))) continue
		print doc[i] "\t" at[i] "\t" fig[i] "\tnot in " cites[i] (kind[i] == "ratio" || kind[i] == "percent" ? " (nor a quotient of its sentence'"'"'s figures)" : "")
	}
	print "checked " checked + 0
}' "$1"
}

# The check can fail: a page quoting the old Step 9 time (5.742 s, which
# results/lab1-run.txt does not hold) beside today's (10.198 s), a ratio
# of the two (1.8x) and one the file does not give (45x), and a measured
# time that names no file.
cat >"$TMP/planted.md" <<'EOF'
In `results/lab1-run.txt` the default took 10.198 s, not 5.742 s: 1.8x, or 45x.

Step 8 measured 2.47 µs a fault.
EOF
awk -f tools/maint/figures.awk "$TMP/planted.md" >"$TMP/planted" && verdicts "$TMP/planted" >"$TMP/planted-verdicts"
got=$(awk -F '\t' '!/^checked / { printf "%s%s", sep, $3; sep = " " }' "$TMP/planted-verdicts")
if [ "$got" = "5.742 45 2.47" ]; then
	pass "figures: a planted stale time, a ratio not in the file and an uncited time are caught"
else
	fail "figures: a planted stale time, a ratio not in the file and an uncited time are caught" \
		"flagged '$got', want '5.742 45 2.47'"
fi

DOCS=(README.md docs/*.md FURTHER.md results/README.md)
awk -f tools/maint/figures.awk "${DOCS[@]}" >"$TMP/figures" ||
	{ fail "figures.awk lists the documents' figures" "it exited $?"; exit 1; }
verdicts "$TMP/figures" >"$TMP/verdicts"
checked=$(sed -n 's/^checked //p' "$TMP/verdicts")
sed -i '$d' "$TMP/verdicts"
if [ "${checked:-0}" -gt 0 ]; then pass "figures: $checked figures quoted from runs, each checked against results/"
else fail "figures: the documents' figures are found" "figures.awk listed none: its reading of the pages is broken"; fi
for doc in "${DOCS[@]}"; do
	n=$(awk -F '\t' -v d="$doc" '$1 == d && $6 != ""' "$TMP/figures" | wc -l)
	bad=$(awk -F '\t' -v d="$doc" '$1 == d' "$TMP/verdicts")
	if [ -z "$bad" ]; then
		pass "$doc: each of its $n figures quoted from a run is in the results/ file it cites"
	else
		fail "$doc: each of its $n figures quoted from a run is in the results/ file it cites" \
			"$(printf '%s\n' "$bad" | awk -F '\t' '{ print $1 ":" $2 ": " $3 ": " $4 }')"
	fi
done
