#!/usr/bin/awk -f
# figures.awk DOC... - the figures the kit's documents quote from a run, one
# a line: "DOC<TAB>LINE<TAB>UNIT<TAB>FIGURE<TAB>KIND<TAB>CITED", read outside
# ``` blocks.  tests/figures.sh holds each to the results/ files CITED names
# (blank: none named, which fails).
#
# Citations.  A sentence cites each results/ path it names (in
# results/README.md a bare NAME.txt is results/NAME.txt).  A paragraph runs
# to a blank line, a heading or a table; its sentences end at ". ", "? ",
# "! " or a list item's start.  A table row is a sentence; a table that
# names no file cites what the paragraph just before it names, and a
# paragraph just after a table, or after a paragraph ending in ":" (a
# list's introduction), cites what that one does too.
#
# Which numbers are figures.  A number standing alone (no letter, digit,
# "_" or "." glued before it), outside `code` and a link's target, is a
# figure unless it is, by rule:
#   a version: two dots, or after glibc, Linux, kernel, gcc, Debian, v, since, or
#     in a list of them ("glibc 2.31, 2.35 and 2.39");
#   a name's number: after Lab, Step, bug, BZ, commit, CVE, PR, section;
#   a size in bytes (B, bytes), or a whole number without a comma followed
#     by KiB, MiB, GiB, KB, MB, GB, K, M, G, k: the workload's sizes and
#     the hardware's come from the source (a measured size, 60.6 MiB or
#     132,688 KiB, is a figure);
#   an ordinal (1st, 2nd), a date or a clock (2026-12-03, 13:35), a
#     compound ("50-minute", "64-bit"), or glued to letters other than a
#     unit below (an identifier: x86_64, O1);
#   a bound ("under 0.25 s", "past 10 ms", "after 20 s") or a knob's
#     default ("default 4000", "300 s by default").
# In a sentence that names a results/ file, and in a table, every figure
# is checked.  In a sentence that names none, a count written with a
# thousands comma is held to the files its paragraph names, if any (but
# not in a sentence about a prediction or the model: those numbers are
# the model's), and the measured shapes always are: a number followed by a time unit (s, ms, µs, us, ns), by "fault",
# "faults", "call" or "calls" or by `code` (10 `mmap`), and a ratio with
# decimals (1.40x); each is held to the
# files its paragraph (or table) names, and fails when there are none.
# Not measured shapes: a cost a unit ("2 faults a page", "4 faults it
# allows"), and the figures of a paragraph that quotes
# an outside source (names a report, Bugzilla, a follow-up or the issue):
# those are the source's, not a run of the kit's.  Nor is a table cell
# that is a span of whole numbers ("0–5": a class plan's minutes).
# KIND: ratio, percent, decimal (has decimals), took (whole seconds in a
# sentence that says "took": a recording's "# took N s" line) or count.
function addcite(list, p,   n, k, a) {
	n = split(list, a, " ")
	for (k = 1; k <= n; k++) if (a[k] == p) return list
	return list (list == "" ? "" : " ") p
}
function cites_of(t,   out, p) {
	out = ""
	while (match(t, /results\/([A-Za-z0-9_.\/-]*[A-Za-z0-9_\/])?/)) {
		p = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH)
		out = addcite(out, p)
	}
	if (FILENAME ~ /(^|\/)results\/README\.md$/)
		while (match(t, /(^|[^A-Za-z0-9_\/.-])[a-z0-9][a-z0-9-]*\.txt/)) {
			p = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH)
			sub(/^[^a-z0-9]/, "", p); out = addcite(out, "results/" p)
		}
	return out
}
# scan(T, AT): the figures of sentence T (which starts at offset AT of the
# paragraph) into F*[] (F_n of them).
function scan(t, at,   pre, num, post, k, word, p1, kd, off, bl) {
	# Code and link targets hold no figures: blank them, keeping offsets.
	while (match(t, /`[^`]*`/)) { bl = sprintf("%" RLENGTH "s", ""); gsub(/ /, "\002", bl); t = substr(t, 1, RSTART - 1) bl substr(t, RSTART + RLENGTH) }
	while (match(t, /\]\([^)]*\)/)) t = substr(t, 1, RSTART) sprintf("%" (RLENGTH - 1) "s", "") substr(t, RSTART + RLENGTH)
	off = at
	t_took = (t ~ /took/)
	while (match(t, /[0-9][0-9,]*(\.[0-9]+)*/)) {
		pre = substr(t, 1, RSTART - 1); num = substr(t, RSTART, RLENGTH)
		t = substr(t, RSTART + RLENGTH); off += RSTART - 1
		k = num; sub(/,+$/, "", k)
		post = substr(num, length(k) + 1) t
		here = off; off += length(num)
		allpre = allpre pre num
		p1 = substr(pre, length(pre), 1)
		if (p1 ~ /[A-Za-z0-9_.]/ || (p1 == "-" && pre ~ /[A-Za-z]-$/)) continue
		if (k ~ /\.[0-9]+\./) continue
		if (post ~ /^:[0-9][0-9]/ || post ~ /^-[0-9][0-9]-/ || pre ~ /[0-9][0-9]-$/ || pre ~ /[0-9]:$/) continue
		word = pre; sub(/[ \t(~]+$/, "", word)
		if (word ~ /(^|[^A-Za-z])(glibc|Linux|kernel|kernels|gcc|Debian|v|since|Lab|Labs|Step|Steps|step|steps|bug|BZ|commit|CVE|PR|section)$/) continue
		# A list after such a word: "glibc 2.31, 2.35 and 2.39".
		if (pre ~ /(glibc|Linux|Lab|Labs|Step|Steps|steps|kernels) [0-9][0-9.]*((,| and| or|,? and|,? or) [0-9][0-9.]*)*(,| and| or|,? and|,? or) $/) continue
		if (post ~ /^ ?(B|bytes?)([^A-Za-z]|$)/) continue
		if (post ~ /^ ?(KiB|MiB|GiB|TiB|KB|MB|GB|K|M|G|k|kB)([^A-Za-z]|$)/ && k !~ /[.,]/) continue
		if (post ~ /^(st|nd|rd|th)([^A-Za-z]|$)/ || post ~ /^-[A-Za-z]/) continue
		# A bound ("under 0.25 s", "past 10 ms") and a knob's default
		# ("default 4000", "300 s by default") are not measurements.
		if (pre ~ /(under|over|past|above|below|than|least|most|within|every|to|of|after)( the| a)? ~?$/) continue
		if (pre ~ /default $/ || post ~ /^ ?[a-zµ]* ?by default/) continue
		# A table cell that is a span of whole numbers (the class's minutes
		# 0–5, threads 1–32) is a plan's, not a run's.
		if (P_table && pre ~ /\| *$/ && post ~ /^(–|-)[0-9]+ *\|/) { skipspan = 1; continue }
		if (P_table && skipspan && pre ~ /^(–|-)$/ && post ~ /^ *\|/) { skipspan = 0; continue }
		skipspan = 0
		# A range's first end takes the unit of its last: "0.94–1.04×".
		if (post ~ /^ ?(x|×)([^A-Za-z]|$)/ || post ~ /^(–|-)[0-9][0-9.]* ?(x|×)([^A-Za-z]|$)/) kd = "ratio"
		else if (post ~ /^ ?%/ || post ~ /^(–|-)[0-9][0-9.]* ?%/) kd = "percent"
		else if (post ~ /^[A-Za-z_]/ && post !~ /^(s|ms|us|ns)([^A-Za-z]|$)/) continue
		else if (k ~ /\./) kd = "decimal"
		else if (t_took && post ~ /^ ?s([^A-Za-z]|$)/) kd = "took"
		else kd = "count"
		F_n++; F_fig[F_n] = k; F_kind[F_n] = kd; F_at[F_n] = here
		F_shape[F_n] = ((kd == "ratio" && k ~ /\./) || (post ~ /^ ?(s|ms|µs|us|ns|faults?|calls?|\002)([^A-Za-z]|$)/ && post !~ /^ ?faults? (a|an|per|each|it|for)[^A-Za-z]/)) && !outside
	}
}
# line_of(OFF): the document line paragraph offset OFF lies on.
function line_of(off,   i) { for (i = P_lines; i > 1; i--) if (P_off[i] <= off) return P_line[i]; return P_line[1] }
function flush(   s, n, i, j, start, sent, c, pc, cites_s, fi, n2, a2, model) {
	if (P_lines == 0) return
	unit++
	# The sentences: split at ". ", "? ", "! " and at list items ("\001").
	n = 0; s = P; start = 1
	while (match(s, /([.?!] |\001)/)) {
		n++; S_text[n] = substr(s, 1, RSTART); S_at[n] = start
		start += RSTART + RLENGTH - 1; s = substr(s, RSTART + RLENGTH)
	}
	n++; S_text[n] = s; S_at[n] = start
	pc = ""
	outside = (!P_table && P ~ /([Rr]eport|Bugzilla|follow-up|the issue)/)
	for (i = 1; i <= n; i++) { S_cites[i] = cites_of(S_text[i]); pc = pc " " S_cites[i] }
	gsub(/^ +| +$/, "", pc); gsub(/  +/, " ", pc)
	if (P_table || prev_table || prev_intro) {
		n2 = split(prev_cites, a2, " ")
		for (i = 1; i <= n2; i++) pc = addcite(pc, a2[i])
	}
	for (i = 1; i <= n; i++) {
		F_n = 0; scan(S_text[i], S_at[i])
		model = (S_text[i] ~ /(predict|model)/)
		cites_s = (P_table && S_cites[i] == "") ? pc : S_cites[i]
		for (j = 1; j <= F_n; j++) {
			if (cites_s != "") c = cites_s
			else if (F_shape[j] || (pc != "" && F_fig[j] ~ /,/ && !model)) c = pc
			else continue
			print FILENAME "\t" line_of(F_at[j]) "\t" unit "\t" F_fig[j] "\t" F_kind[j] "\t" c
		}
	}
	prev_intro = (P ~ /:[ \t]*$/)
	prev_cites = pc; prev_table = P_table; P = ""; P_lines = 0; P_table = 0
}
function add(line, table) {
	if (P_lines > 0 && P_table != table) flush()
	P_table = table
	P_lines++; P_line[P_lines] = FNR
	if (P_lines > 1) P = P (table || line ~ /^[ \t]*([-*]|[0-9]+\.) / ? "\001" : " ")
	P_off[P_lines] = length(P) + 1
	P = P line
}
FNR == 1 { flush(); inb = 0; prev_cites = ""; prev_table = 0; prev_intro = 0 }
/^```/ { flush(); inb = !inb; next }
inb { next }
/^[ \t]*$/ { flush(); next }
/^#+ / { flush(); prev_cites = ""; prev_table = 0; prev_intro = 0; next }
/^\|/ { add($0, 1); next }
{ add($0, 0) }
END { flush() }
