#!/usr/bin/env bash
# tests/readme.sh - README's commands, typed as a reader types them, in a
# fresh copy of the kit; and README's figures against the results/ files
# they cite.  README is the front door; the rest of what it documents is in
# the docs/ pages it links to, and each check follows those links: "the
# documents" below are README.md, each docs/ page in the order README first
# links to it, then FURTHER.md.  Nothing here knows today's wording:
# commands are read from the documents' blocks each time.
#
# Commands: every line of a ```sh block (its "  # ..." tail is what the
# document says about it; a line ending in "\" goes on on the next) and
# every "$ " line of a plain ``` block, in every document.  Each runs with
# bash from the copy's top directory, as typed, except:
#  - small knobs come from the environment (KNOBS below, each one a knob
#    README and make help document): a knob typed in the command still
#    wins, as it does for a reader; COUNT_LARGE is 200, the least the
#    grader judges Lab 3 at, so an honest submission grades clean;
#  - make's own variables (MAKELEVEL, MAKEFLAGS, MFLAGS) are dropped when
#    make test runs this: a reader's shell has none;
#  - a placeholder written in capitals stands for the file the last
#    command made: FILE is the newest submission, DATE its date part.
# Each must exit 0, and what the document says next to it must hold: a
# path it names (answers/NAME.txt, submissions/NAME-DATE.txt) exists
# afterwards, "last line: X" is the last line on stdout, and a
# STUDENT=NAME submission carries the line "student: NAME".  A command that
# cannot run here is in NOT_RUN with its reason; a command in neither set
# fails, and so does a NOT_RUN entry no document shows any more.
#
# Figures: a document cites a results/ file by naming it (`results/FILE`,
# or a directory `results/DIR/`).  Every number in the same clause before
# the name (a clause ends at ". ", "; ", ")", a blank line or the previous
# name), and, when the name opens a parenthesis, every number in the rest
# of it, must occur in that file (any file of that directory), as written
# or without its thousands commas.
#
# The front door: README is at most 300 lines, shows make run and make
# test, and its Handing in shows the answer sheet; it links every docs/
# page and every "## " section of each, and each docs/ page links back to
# README and to every other page; each lab in full has its brief in
# README; every link names a file that exists and, with #anchor, a heading
# of it; each glossary term is a link to its entry where the documents
# first use it.
. "$(dirname "$0")/lib.sh" || exit 1

KNOBS=(FRAMES=2 DEMO_FRAMES=2 SCALE=50 VARIANCE_ITERS=2000 COUNT_LARGE=200 COUNT_SMALL=1000
	LIVE=20000000 REPEATS=1 BYTES=1M ROUNDS=16 MAX_THREADS=4)

# command<TAB>why it is not run here
NOT_RUN="make test	it is the suite this file belongs to
tools/platforms/glibc.sh prefix trixie	downloads Debian's libc6 (tests never touch the network; tests/glibc-versions.sh runs it where CI fetched it)
\$(tools/platforms/glibc.sh prefix trixie) ./frames --frames 10 --alloc memset --size 30M	the same download
./yes	the full sweep has no knob to shorten it (make lab5 runs the same table at BYTES=1M here)
make lab7 FRAMES=100	Lab 1's full run under five allocators takes minutes (make lab7 runs here at FRAMES=2)
tools/grading/classroom/regrade.sh ada=clones/hw-ada bob=clones/hw-bob >grades.csv	needs students' repositories (tests/classroom.sh runs it on two that make handout made)"

# links FILE: "LINE<TAB>FILE LINKED<TAB>ANCHOR" for each [text](PATH),
# [text](PATH#anchor) or [text](#anchor) of FILE outside code blocks
# (not a URL): PATH as seen from the top directory ("docs/../README.md" is
# README.md), ANCHOR empty when the link has none.
links() {
	awk -v self="$1" '
	function resolve(p,    n, i, k, part, out) {
		if (self ~ /\//) { d = self; sub(/\/[^\/]*$/, "", d); p = d "/" p }
		n = split(p, part, "/"); k = 0
		for (i = 1; i <= n; i++) {
			if (part[i] == "." || part[i] == "") continue
			if (part[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
			out[++k] = part[i]
		}
		p = ""; for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
		return p
	}
	/^```/ { inb = !inb; next }
	!inb { t = $0
		while (match(t, /\]\([^) ]+\)/)) {
			l = substr(t, RSTART + 2, RLENGTH - 3); t = substr(t, RSTART + RLENGTH)
			if (l ~ /^[a-z]+:/) continue
			f = l; sub(/#.*/, "", f); f = (f == "") ? self : resolve(f)
			a = ""; if (l ~ /#/) { a = l; sub(/^[^#]*#/, "", a) }
			print NR "\t" f "\t" a } }' "$1"
}

# The documents: README.md, each docs/ page README links to as a page (no
# #anchor), in the order of those links, then FURTHER.md.
links README.md | awk -F '\t' '$2 ~ /^docs\/.*\.md$/ && $3 == "" && !seen[$2]++ { print $2 }' >"$TMP/pages"
DOCS=(README.md)
while read -r page; do [ -f "$page" ] && DOCS+=("$page"); done <"$TMP/pages"
[ -f FURTHER.md ] && DOCS+=(FURTHER.md)

# readme_commands FILE: "LINE<TAB>COMMAND<TAB>WHAT README SAYS", one a line.
readme_commands() {
	awk '
	function flush() { if (cmd != "") print at "\t" cmd "\t" said; cmd = "" }
	/^```/ { flush(); if (!inb) { inb = 1; sh = ($0 ~ /^```(sh|bash|shell)[ \t]*$/) } else inb = 0; next }
	!inb { next }
	sh && /^[ \t]*#/ { if (cmd != "") { c = $0; sub(/^[ \t]*#[ \t]?/, "", c); said = said " " c }; next }
	sh && /^[ \t]*$/ { flush(); next }
	# A line ending in "\" goes on on the next one, as in a shell.
	sh && cmd ~ /\\$/ { line = $0; sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line)
		cmd = substr(cmd, 1, length(cmd) - 1) line; next }
	sh || /^\$ / {
		flush(); line = $0; sub(/^\$ /, "", line); c = ""
		if (match(line, /[ \t]+#[ \t]/)) { c = substr(line, RSTART + RLENGTH); line = substr(line, 1, RSTART - 1) }
		sub(/[ \t]+$/, "", line); at = NR; cmd = line; said = c }
	END { flush() }' "$1"
}

# ------------------------------------------------------------ figures
# readme_citations FILE: "LINE<TAB>results/NAME<TAB>FIGURE", one a line,
# for each number before a mention of a results/ file in its sentence.
readme_citations() {
	awk '
	function figures(t, name) {
		while (match(t, /[0-9][0-9,]*(\.[0-9]+)?/)) {
			fig = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH)
			sub(/,+$/, "", fig); print NR "\t" name "\t" fig
		}
	}
	# last_clause(T): T after its last ". ", "; " or ")".
	function last_clause(t,    n, part) { n = split(t, part, /(\. |; |\))/); return part[n] }
	/^```/ { inb = !inb; next }
	inb { next }
	/^[ \t]*$/ { text = ""; next }
	{
		text = text " " $0
		while (match(text, /results\/[A-Za-z0-9_.\/-]*[A-Za-z0-9_\/]/)) {
			name = substr(text, RSTART, RLENGTH); before = substr(text, 1, RSTART - 1)
			text = substr(text, RSTART + RLENGTH)
			figures(last_clause(before), name)
			# "(`results/FILE`: 456 calls ...)": the aside after it too.
			if (before ~ /\(`?$/) { after = text; sub(/\).*/, "", after); figures(after, name) }
		}
		text = last_clause(text)
	}' "$1"
}

for doc in "${DOCS[@]}"; do
	readme_citations "$doc" >"$TMP/cites"
	bad=0 n=0
	while IFS=$'\t' read -r at name fig; do
		n=$((n + 1))
		if [ ! -e "$name" ]; then
			fail "$doc:$at cites $name" "no such file or directory in results/"; bad=1; continue
		fi
		plain=${fig//,/}
		# A figure as a number of its own: no digit (or decimal point and
		# digit) glued to either side.
		if ! grep -rqE -- "(^|[^0-9.])($(printf '%s' "$fig" | sed 's/\./\\./g')|$(printf '%s' "$plain" | sed 's/\./\\./g'))([^0-9]|\\.[^0-9]|\\.?\$)" "$name"; then
			fail "$doc:$at: $fig, cited from $name" "$fig is not in $name"; bad=1
		fi
	done <"$TMP/cites"
	[ "$bad" = 0 ] && pass "$doc: each of its $n figures cited from a results/ file is in that file"
done

# ------------------------------------------------------------ the front door
# README is what a student reads through: at most README_MAX lines, the
# two set-up commands in a block, its "Handing in" naming the answer sheet.
README_MAX=300
n=$(wc -l <README.md)
if [ "$n" -le "$README_MAX" ]; then pass "README: $n lines (at most $README_MAX)"
else fail "README: at most $README_MAX lines" "it is $n lines: move detail to a docs/ page"; fi
readme_commands README.md | cut -f 2 >"$TMP/readme-cmds"
for want in 'make run' 'make test'; do
	if grep -qxF -- "$want" "$TMP/readme-cmds"; then pass "README: its set-up shows $want"
	else fail "README: its set-up shows $want" "no '$want' line in a sh block"; fi
done
awk '/^## Handing in/ { on = 1; next } /^## / { on = 0 } on' README.md >"$TMP/handing-in"
for want in 'make questions' 'ANSWERS='; do
	if grep -qF -- "$want" "$TMP/handing-in"; then pass "README: Handing in shows $want"
	else fail "README: Handing in shows $want" "not in README's '## Handing in' section"; fi
done

# anchors FILE: the anchor GitHub gives each heading of FILE (outside code
# blocks): lower case, every character but letters, digits, blanks, "-"
# and "_" dropped, blanks made "-"; a repeated one gets "-1", "-2" ...
ANCHOR_AWK='function anchor(h,    a) { a = tolower(h); gsub(/[^a-z0-9 _-]/, "", a); gsub(/ /, "-", a); return a }'
anchors() {
	awk "$ANCHOR_AWK"'
	/^```/ { inb = !inb; next }
	!inb && /^#+ / {
		a = $0; sub(/^#+ /, "", a); a = anchor(a)
		if (a in seen) { seen[a]++; a = a "-" seen[a] } else seen[a] = 0
		print a }' "$1"
}
# Every docs/ page is one README links to, and each of its "## " sections
# is linked from README; each page links back to README and to each other
# page.
links README.md >"$TMP/readme-links"
for page in docs/*.md; do
	[ -f "$page" ] || continue
	if ! awk -F '\t' -v p="$page" '$2 == p { f = 1 } END { exit !f }' "$TMP/readme-links"; then
		fail "README links to $page" "no link to it: README is how a reader finds it"; continue
	fi
	bad=0
	grep -E '^## ' "$page" | anchors /dev/stdin >"$TMP/sections"
	while read -r a; do
		awk -F '\t' -v p="$page" -v a="$a" '$2 == p && $3 == a { f = 1 } END { exit !f }' "$TMP/readme-links" ||
			{ fail "README links to $page#$a" "no link to that section"; bad=1; }
	done <"$TMP/sections"
	[ "$bad" = 0 ] && pass "README links to $page and each of its $(wc -l <"$TMP/sections") sections"
	links "$page" | cut -f 2 | sort -u >"$TMP/out-links"
	miss=
	for want in README.md docs/*.md; do
		[ "$want" = "$page" ] || grep -qxF -- "$want" "$TMP/out-links" || miss="$miss $want"
	done
	if [ -z "$miss" ]; then pass "$page links back to README and to every other docs/ page"
	else fail "$page links back to README and to every other docs/ page" "no link to:$miss"; fi
done
# Each lab in full (a "## Lab N" section of a docs/ page) has its brief in
# README: a "### Lab N" section with the command (a block, or `make ...`
# in its **Run** line), a **Look at** line, an **Answer:** question and a
# link to the lab in full.
for page in docs/*.md; do
	[ -f "$page" ] || continue
	grep -E '^## Lab [0-9]+ ' "$page" | anchors /dev/stdin >"$TMP/labs"
	while read -r a; do
		n=${a#lab-}; n=${n%%-*}
		awk -v n="$n" '$0 ~ "^### Lab " n " " { on = 1; next } /^##/ { on = 0 } on' README.md >"$TMP/brief"
		why=
		[ -s "$TMP/brief" ] || why="no '### Lab $n' section in README"
		grep -qE '^```sh|^\*\*Run\*\* `make ' "$TMP/brief" || why="${why:+$why; }no command"
		grep -q '^\*\*Look at\*\*' "$TMP/brief" || why="${why:+$why; }no **Look at** line"
		grep -q '^\*\*Answer:\*\*.*' "$TMP/brief" && tr '\n' ' ' <"$TMP/brief" | grep -q '\*\*Answer:\*\*[^?]*?' ||
			why="${why:+$why; }no **Answer:** question"
		grep -qF "]($page#$a)" "$TMP/brief" || why="${why:+$why; }no link to $page#$a"
		if [ -z "$why" ]; then pass "README: Lab $n in brief: its command, what to look at, a question, its detail"
		else fail "README: Lab $n in brief" "$why"; fi
	done <"$TMP/labs"
done
# glossary_first_use GLOSSARY FILE...: for each "### TERM" under
# GLOSSARY's "## Glossary", the first use of TERM in the FILEs, read in
# turn (any case, a plural "s" too), outside code, headings and links to
# other terms: "TERM<TAB>FILE:LINE<TAB>linked|unlinked", or
# "TERM<TAB>-<TAB>unused".
glossary_first_use() {
	awk "$ANCHOR_AWK"'
	function isword(c) { return c ~ /[A-Za-z0-9_]/ }
	FNR == 1 { pass++; inb = 0 }
	pass == 1 { if (/^## Glossary/) g = 1; else if (/^## /) g = 0
		if (g && /^### /) { t = $0; sub(/^### /, "", t); n++; term[n] = t; want[n] = anchor(t) }
		next }
	/^```/ { inb = !inb; next }
	inb || /^#/ { next }
	/^## Glossary/ { exit }
	{
		t = $0
		gsub(/`[^`]*`/, "", t)
		# Each link: its text kept, its target masked; remember where it is.
		nl = 0; out = ""
		while (match(t, /\[[^]]*\]\([^)]*\)/)) {
			pre = substr(t, 1, RSTART - 1); lk = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH)
			j = index(lk, "](")
			txt = substr(lk, 2, j - 2); tg = substr(lk, j + 2, length(lk) - j - 2)
			if (!sub(/^[^#]*#/, "", tg)) tg = ""
			out = out pre; nl++; ls[nl] = length(out) + 1; le[nl] = length(out) + length(txt); la[nl] = tg
			out = out txt
		}
		t = tolower(out t)
		for (i = 1; i <= n; i++) {
			if (i in found) continue
			w = tolower(term[i]); from = 0; s = t
			while ((p = index(s, w)) > 0) {
				at = from + p; e = at + length(w)
				c0 = (at > 1) ? substr(t, at - 1, 1) : ""; c1 = substr(t, e, 1)
				if (c1 == "s") c1 = substr(t, e + 1, 1)
				in_other = 0; linked = 0
				for (k = 1; k <= nl; k++) if (at >= ls[k] && at <= le[k]) {
					if (la[k] == want[i]) linked = 1; else if (la[k] != "") in_other = 1
				}
				if (!isword(c0) && !isword(c1) && !in_other) {
					found[i] = 1; print term[i] "\t" FILENAME ":" FNR "\t" (linked ? "linked" : "unlinked"); break
				}
				from = at; s = substr(t, at + 1)
			}
		}
	}
	END { for (i = 1; i <= n; i++) if (!(i in found)) print term[i] "\t-\tunused" }' "$@"
}
# The glossary is the document with a "## Glossary"; the terms' uses are
# looked for in the documents before it, in order.
glossary= before=()
for doc in "${DOCS[@]}"; do
	if grep -q '^## Glossary' "$doc"; then glossary=$doc; break; fi
	before+=("$doc")
done
if [ -z "$glossary" ]; then
	fail "the documents hold a glossary" "no '## Glossary' in ${DOCS[*]}"
else
	bad=0
	glossary_first_use "$glossary" "${before[@]}" >"$TMP/glossary"
	while IFS=$'\t' read -r term at how; do
		case $how in
		linked) ;;
		unlinked) fail "$at: the first use of '$term' links to its glossary entry" "it is not a link to $glossary's '### $term'"; bad=1 ;;
		*) fail "the glossary's '$term' is used before $glossary" "no use found in ${before[*]}"; bad=1 ;;
		esac
	done <"$TMP/glossary"
	[ "$bad" = 0 ] && pass "$glossary: each of its $(wc -l <"$TMP/glossary") terms is linked at its first use"
fi

for doc in "${DOCS[@]}"; do
	bad=0
	links "$doc" >"$TMP/links"
	while IFS=$'\t' read -r at f a; do
		if [ ! -e "$f" ]; then fail "$doc:$at links to $f${a:+#$a}" "no file $f"; bad=1; continue; fi
		[ -n "$a" ] || continue
		anchors "$f" >"$TMP/anchors"
		grep -qxF -- "$a" "$TMP/anchors" || { fail "$doc:$at links to $f#$a" "no heading of $f has that anchor"; bad=1; }
	done <"$TMP/links"
	[ "$bad" = 0 ] && pass "$doc: each of its $(wc -l <"$TMP/links") links names a file there, and each #anchor a heading"
done

# ------------------------------------------------------------ the copy
# (The checks above read files; running every command is make test-all's.)
full_only "the documents' commands, run as typed"

# The kit as a reader gets it: a git clone of this tree with its
# uncommitted changes laid over (so the check sees what is being tested),
# or a copy of its sources where there is no git.
KIT=$TMP/kit
if command -v git >/dev/null 2>&1 && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git clone -q "$PWD" "$KIT" && kit_copy "$KIT"
else
	kit_copy "$KIT"
fi || { fail "readme: a fresh copy of the kit" "clone/copy failed"; exit 1; }

# Every document's commands, in order (each line number named by its file
# but README's).
for doc in "${DOCS[@]}"; do
	if [ "$doc" = README.md ]; then readme_commands "$doc"
	else readme_commands "$doc" | sed "s|^|$doc:|"; fi
done >"$TMP/commands"
if [ ! -s "$TMP/commands" ]; then
	fail "readme: README shows commands" "no command found in the documents' blocks"
fi

# Every NOT_RUN entry is still one of the documents' commands.
while IFS=$'\t' read -r c why; do
	if cut -f 2 "$TMP/commands" | grep -qxF -- "$c"; then pass "readme: not run here: $c ($why)"
	else fail "readme: NOT_RUN lists '$c'" "no document shows it any more: take it out of NOT_RUN"; fi
done <<<"$NOT_RUN"

# placeholders COMMAND: COMMAND with a word FILE replaced by the newest
# submission and a path holding DATE by the newest file it matches.
placeholders() (
	case $1 in *FILE*|*DATE*) ;; *) printf '%s\n' "$1"; exit ;; esac
	set -f
	out=''
	for w in $1; do
		if [ "$w" = FILE ]; then
			w=$(cd "$KIT" && set +f && ls -t submissions/*.txt 2>/dev/null | head -n 1)
		elif [[ $w == *DATE* ]]; then
			path=${w#*=}
			f=$(cd "$KIT" && set +f && ls -t ${path//DATE/*} 2>/dev/null | head -n 1)
			[ -n "$f" ] && w=${w%"$path"}$f
		fi
		out="$out${out:+ }$w"
	done
	printf '%s\n' "$out"
)

# In a handout the documents' commands meet the stubs: make check fails them by
# design, and the grader's key is not there.
needs_solution "every exercise" "README's commands, run as typed" || : >"$TMP/commands"
while IFS=$'\t' read -r at cmd said; do
	if printf '%s\n' "$NOT_RUN" | cut -f 1 | grep -qxF -- "$cmd"; then continue; fi
	name="readme:$at: $cmd"
	run=$(placeholders "$cmd")
	( cd "$KIT" && env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS "${KNOBS[@]}" bash -c "$run" </dev/null >"$TMP/out" 2>"$TMP/err" ); rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name" "exit $rc: $(tail -n 3 "$TMP/err")"
		continue
	fi
	why=
	# "last line: X": the last line on stdout, DATE standing for any date.
	case $said in *"last line: "*)
		want=${said#*last line: }; want=${want%%  *}
		pat=${want//DATE/*}
		# shellcheck disable=SC2053
		[[ $(tail -n 1 "$TMP/out") == $pat ]] || why="last line '$(tail -n 1 "$TMP/out")', the document says '$want'" ;;
	esac
	# Paths the document names beside the command exist now (NAME, DATE: any).
	for p in $(printf '%s\n' "$said" | grep -oE '(^|[ (`])[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+\.[a-z]+' | sed 's/^[ (`]//'); do
		g=${p//DATE/*}; g=${g//NAME/*}
		# shellcheck disable=SC2086
		compgen -G "$KIT/$g" >/dev/null || why="${why:+$why; }the document names $p, not there"
	done
	# make submit STUDENT=NAME: the file says whose it is.
	if [[ $run =~ (^|[[:space:]])STUDENT=([A-Za-z0-9@._-]+) ]] && [[ $run == *submit* ]]; then
		st=${BASH_REMATCH[2]}
		f=$(sed -n 's/^submission: //p' "$TMP/out" | tail -n 1)
		case $f in /*) ;; ?*) f=$KIT/$f ;; esac
		grep -qx "student: $st" "$f" 2>/dev/null || why="${why:+$why; }no line 'student: $st' in '${f:-no file named}'"
	fi
	if [ -z "$why" ]; then pass "$name"; else fail "$name" "$why"; fi
done <"$TMP/commands"
