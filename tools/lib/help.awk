# tools/lib/help.awk - make help, drawn from tools/labs/registry: the kit's
# ">" lines (before the first row) in their order, each lab's targets and
# its knobs from its row, and the text of its own ">" lines.  Run after
# tools/lib/registry.awk, which keeps the rows and the ">" lines:
#   awk -v HELP=1 -f tools/lib/registry.awk -f tools/lib/help.awk \
#       tools/labs/registry tools/labs/knobs
# A ">" line is "> NAME  TEXT" (NAME ends at two blanks; it may hold one),
# or ">  TEXT" (two blanks or more): more of the line above's TEXT.  NAME
# is a make target, printed "make NAME"; a NAME in capitals is a knob; and
# in the kit's lines @text prints its TEXT as a paragraph, @labs every
# lab's targets, @knobs its TEXT as a heading and then every lab's knobs.
# A lab's target with no ">" line of its own is still listed, as the
# command it runs.  Every line is folded to fit 79 columns.
# Plain POSIX awk (mawk, gawk, busybox).

function spaces(n,    s) { s = ""; while (n-- > 0) s = s " "; return s }

# item(HEAD, TEXT, COL): HEAD, then TEXT from column COL (on the next
# line when HEAD reaches it), folded at WIDTH with COL blanks before each
# further line.
function item(head, text, col,    line, w, n, i, bare) {
	line = head
	if (col == 0) ;
	else if (length(line) + 2 > col) line = line "  "
	else line = line spaces(col - length(line))
	bare = 1
	n = split(text, w, " ")
	for (i = 1; i <= n; i++) {
		if (!bare && length(line) + 1 + length(w[i]) > WIDTH) {
			print line
			line = spaces(col); bare = 1
		}
		line = line (bare ? "" : " ") w[i]
		bare = 0
	}
	sub(/ +$/, "", line)
	print line
}

# A knob's column: NAME=DEFAULT (its name alone when the driver works the
# default out), then its meaning: both from the lab's line of
# tools/labs/knobs (kdef, kmean: tools/lib/registry.awk keeps them).
function knob_label(id, k) { return ((id, k) in kdef) && kdef[id, k] != "-" ? k "=" kdef[id, k] : k }
function knob_text(id, k) { return ((id, k) in kmean) ? kmean[id, k] : "" }

# lab(R): row R's targets (ID, then ID-MODE for each mode "more" names),
# each with its old names and its text, then the lab's other ">" lines.
function lab(r,    f, n, m, i, j, t, mode, old, o, no, names, seen) {
	split(rows[r], f, " ")
	n = split(f[4] == "-" ? "" : f[4], m, ",")
	no = split(f[6] == "-" ? "" : f[6], old, ",")
	for (i = 0; i <= n; i++) {
		mode = i ? m[i] : "table"
		t = i ? f[1] "-" mode : f[1]
		seen[t] = 1
		names = ""
		for (j = 1; j <= no; j++) {
			o = old[j]
			if (i ? o ~ ("-" mode "$") : o !~ /-(tunables|strace)$/) names = names " " o
		}
		if (names != "") names = " (" substr(names, 2) ")"
		item("  make " t names, t in text_of ? text_of[t] : "tools/labs/" f[3] " " mode, TCOL)
	}
	for (i = 1; i <= ne; i++)
		if (owner_of[i] == f[1] && !(name_of[i] in seen)) entry(i)
}

# lab_knobs(): each lab's knobs, one a line, the lab's id before its first.
function lab_knobs(    r, f, n, k, i) {
	for (r = 1; r <= nrows; r++) {
		split(rows[r], f, " ")
		n = split(f[9] == "-" ? "" : f[9], k, ",")
		for (i = 1; i <= n; i++)
			item(sprintf("  %-8s%s", i == 1 ? f[1] : "", knob_label(f[1], k[i])),
			     knob_text(f[1], k[i]), KCOL)
	}
}

function entry(i,    r) {
	if (name_of[i] == "@text") item("", text_of_entry[i], 0)
	else if (name_of[i] == "@labs") { for (r = 1; r <= nrows; r++) lab(r) }
	else if (name_of[i] == "@knobs") { item("", text_of_entry[i], 0); lab_knobs() }
	else if (name_of[i] ~ /^[A-Z]/) item("  " name_of[i], text_of_entry[i], NCOL)
	else item("  make " name_of[i], text_of_entry[i], TCOL)
}

END {
	WIDTH = 79; TCOL = 28; NCOL = 24; KCOL = 33
	for (i = 1; i <= nhelp; i++) {
		split(help[i], h, "\t")
		t = substr(help[i], length(h[1]) + 2)
		if (t ~ /^ [^ ]/) {
			t = substr(t, 2)
			name = t; sub(/  .*/, "", name)
			t = substr(t, length(name) + 1)
			sub(/^ +/, "", t)
			owner_of[++ne] = h[1]; name_of[ne] = name; text_of_entry[ne] = t
			if (h[1] != "") text_of[name] = t
		} else if (ne && t ~ /^  /) {
			sub(/^ +/, "", t)
			text_of_entry[ne] = text_of_entry[ne] " " t
			if (h[1] != "") text_of[name_of[ne]] = text_of_entry[ne]
		} else {
			printf "registry: a > line that is neither \"> NAME  TEXT\" nor \">  TEXT\": >%s\n", t > "/dev/stderr"
			bad = 1
		}
	}
	for (i = 1; i <= ne; i++) if (owner_of[i] == "") entry(i)
	if (bad) exit 1
}
