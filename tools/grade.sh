#!/usr/bin/env bash
# tools/grade.sh [--csv | --feedback | --format F] [--key] [--knobs FILE] FILE|DIR...
# grade malloc-labs submissions (`make submit`) from first principles.
# Shell and awk (any POSIX awk: mawk has no FPAT, so CSV goes through
# tools/lib/csv.awk's csv_split), and make and a C compiler for the model.
#
# The checks live in tools/grading/grade.awk; every count it expects of the
# allocator, in the kit's one model (tools/kit/model.c), which
# tools/grading/predict (built here) answers from; the points, tolerances and
# steps (the commands each must have run, and the checker each gets) in
# tools/grading/steps; the course's knobs in tools/grading/knobs.  Each check
# prints one line:
#   PASS|FAIL|ENV|INTEGRITY|SKIP  step  check  got  want  tolerance  points
# then `Status:`, `Answers: A/B` (the answer sheet and the runs at its
# parameters, scored apart) and `Score: N/M` (the runs; M is the same for
# every file of one kit revision: what is missing scores 0).  ENV means the
# environment the run saw makes the count incomparable (the reason
# follows); it is never turned into a PASS.  INTEGRITY means the file is
# not as make submit wrote it (a line per reason): no score at all.
# Times are recorded and listed as "not graded".
#
# Output, one of:
#   (default)     the report of each file; with a DIR or several files, one
#                 CSV block after all of them
#   --csv         only the CSV: one header, then one row a file
#   --feedback    each FAIL, ENV and INTEGRITY of each file, with what it
#                 means and what to try (a text to hand the student)
#   --format gradescope   Gradescope's results.json for one FILE (the
#                 answers' tests visible after the due date only)
# --key           the answers' key in the want column (for the instructor;
#                 never hand this output to a student; refused in a handout,
#                 where the answer sheet is not marked at all)
# --knobs FILE    the course's knobs (default tools/grading/knobs): the
#                 minimums, and whether a file under one is flagged or
#                 INTEGRITY
# The CSV: file,student,date,status,score,max,answers,answers_max,fails,envs,
# frames,scale,variance_iters,count_large,bytes,kit,glibc,kernel,thp,flags,
# same_run_as.  Text fields are quoted when needed and a leading = + - @ is
# neutralised; same_run_as names the group of files that are copies of one
# run (most of their recorded times, temporary names and dates alike), and
# each pair is listed on stderr with how alike it is; a copy's status is
# REVIEW and its score 0 (the withheld score in same_run_as).  A file not
# graded has status none and its reason in flags.  Two files of one
# student are named on stderr, and each flagged duplicate: none is picked
# by what it says of itself (its date line).
#
# In a DIR, a *.part (a make submit that did not finish) and a hidden file
# are not graded: a note on stderr names each.  However many files, the
# processes are a handful (one awk a CPU grades its share): a class of
# 500 takes seconds (results/grade-timing.txt).
#
# Exit: 0 every check passed; 1 any FAIL, or copies of one run; 3 no FAIL
# but some ENV; 4 INTEGRITY (any file); 2 bad usage, a file that is not a
# submission (one saved as UTF-16 is named so), a file over a cap of the
# knobs (cap lines: its size, a record's rows, a knob), or standard output
# that cannot be written.  Several files:
# the worst, in the order 2, 4, 1, 3, 0.
set -u -o pipefail
LC_ALL=C; export LC_ALL     # bytes are bytes: what is not printable ASCII is replaced
ROOT=$(dirname "$0")/..
prog=grade
. "$ROOT/tools/lib/lib.sh" || exit 2     # bad_usage, shown
for lib in include/model.h lib/csv.awk grading/steps.awk grading/grade.awk grading/alike.awk grading/copies.awk grading/gradescope.awk grading/steps grading/questions.sh grading/knobs; do
	[ -r "$ROOT/tools/$lib" ] || { printf 'grade: %s is missing\n' "$ROOT/tools/$lib" >&2; exit 2; }
done
G=$ROOT/tools/grading
L=$ROOT/tools/lib

USAGE="usage: tools/grade.sh [--csv | --feedback | --format report|csv|feedback|gradescope] [--key] [--knobs FILE] FILE|DIR..."
say() { printf '%s\n' "$*"; }              # a file's name is printed, never echoed
usage() { say "$USAGE"; }
MODE=report SHOWKEY=0 KNOBS=$G/knobs
# In a handout (tools/grading/handout.sh) the grader is the student's own
# check: no key, and the answer sheet is left to the course's grader.
HANDOUT=0
[ -e "$ROOT/tools/lib/handout" ] && HANDOUT=1
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) say "$USAGE"; exit 0 ;;
	--csv) MODE=csv ;;
	--feedback) MODE=feedback ;;
	--key) [ $HANDOUT = 0 ] || bad_usage "--key: the answers' key is the instructor's, not in a handout"
		SHOWKEY=1 ;;
	--knobs) [ $# -ge 2 ] || bad_usage "--knobs wants a file"
		KNOBS=$2; shift ;;
	--format) [ $# -ge 2 ] || bad_usage "--format wants report, csv, feedback or gradescope"
		MODE=$2; shift ;;
	--format=*) MODE=${1#--format=} ;;
	--) shift; break ;;
	-*) bad_usage "unknown option '$(shown "$1")'" ;;
	*) break ;;
	esac
	shift
done
case $MODE in report|csv|feedback|gradescope) ;; *) bad_usage "--format wants report, csv, feedback or gradescope, not '$(shown "$MODE")'" ;; esac
[ -f "$KNOBS" ] && [ -r "$KNOBS" ] || bad_usage "cannot read the knobs file '$(shown "$KNOBS")'"
[ $# -ge 1 ] || bad_usage "no FILE or DIR to grade"
if [ $MODE = gradescope ] && { [ $# -ne 1 ] || [ -d "$1" ]; }; then
	bad_usage "--format gradescope grades one FILE"
fi

# Is the kit revision a submission names one of this kit's own?  (unknown
# when the grader does not run from a git checkout, e.g. on Gradescope)
HAVE_GIT=0
git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 && HAVE_GIT=1
# Without git, a kit-revisions.txt beside the kit (make autograder writes
# one: every commit hash of its history) answers the same question.
# A kit without git (a ZIP download) is src-HASH, the hash of its sources
# (tools/lib/kitversion): known when they are this kit's own.  A revision's
# kit_sources (KIT_SOURCES, the submission's line, if it has one) must be
# that revision's sources as git holds them: "changed" otherwise.  Without
# git, a revision this kit names itself (a ZIP download graded by its own
# kit: OWN_KIT) is held to this kit's sources (OWN_SOURCES) the same way.
# (With git too, for a revision git lacks: a handout, a student's
# repository, names the kit commit it was made from.)
OWN_KIT=$("$ROOT/tools/lib/kitversion" 2>/dev/null)
OWN_SOURCES=$("$ROOT/tools/lib/kitversion" --sources 2>/dev/null)
OWN_HANDOUT_SOURCES=$("$ROOT/tools/lib/kitversion" --handout-sources 2>/dev/null)
kit_status() { # REV: yes, no, unknown or changed (above)
	rev=${1%-dirty}
	case $rev in ''|-*|*[!A-Za-z0-9._-]*) echo no; return ;; esac
	case $rev in src-*)
		case ${rev#src-} in "$OWN_SOURCES"|"$OWN_HANDOUT_SOURCES") echo yes ;; *) echo no ;; esac
		return ;;
	esac
	# (a handout of REV is REV with the regions replaced: its sources are
	# REV's with the regions stubbed, --handout-sources)
	if [ $HAVE_GIT = 1 ] && [ -n "${KIT_SOURCES:-}" ] && [ "$KIT_SOURCES" != unknown ] &&
	   git -C "$ROOT" cat-file -e "$rev^{commit}" 2>/dev/null &&
	   [ "$KIT_SOURCES" != "$("$ROOT/tools/lib/kitversion" --sources "$rev" 2>/dev/null)" ] &&
	   [ "$KIT_SOURCES" != "$("$ROOT/tools/lib/kitversion" --handout-sources "$rev" 2>/dev/null)" ]; then
		echo changed; return
	fi
	if [ -n "$OWN_KIT" ] && [ "$rev" = "$OWN_KIT" ] && [ -n "${KIT_SOURCES:-}" ] && [ "$KIT_SOURCES" != unknown ] &&
	   { [ $HAVE_GIT = 0 ] || ! git -C "$ROOT" cat-file -e "$rev^{commit}" 2>/dev/null; }; then
		case $KIT_SOURCES in "$OWN_SOURCES"|"$OWN_HANDOUT_SOURCES") echo yes ;; *) echo changed ;; esac
		return
	fi
	if [ $HAVE_GIT = 1 ]; then
		if git -C "$ROOT" cat-file -e "$rev^{commit}" 2>/dev/null; then echo yes; else echo no; fi
	elif [ -r "$ROOT/kit-revisions.txt" ]; then
		rev=${rev##*-g}     # git describe's TAG-N-gHASH
		if grep -q "^$rev" "$ROOT/kit-revisions.txt"; then echo yes; else echo no; fi
	else
		echo unknown
	fi
}
# sources_rev HASH: a revision of this kit whose programs' sources hash to
# HASH (a submission's kit_sources), or nothing.  With git: the newest
# commit that wrote HASH into tools/lib/kit-sources (each commit carries
# its own sources' hash there: tests/kitversion.sh), checked against the
# commit's files themselves; without git: this kit's own revision, when
# HASH is this kit's sources.
sources_rev() {
	local c
	case $1 in ????????????) ;; *) return 1 ;; esac
	case $1 in *[!0-9a-f]*) return 1 ;; esac
	if [ $HAVE_GIT = 1 ]; then
		c=$(git -C "$ROOT" log -p --format='commit %h' -- tools/lib/kit-sources 2>/dev/null |
			awk -v h="+$1" '/^commit / { c = $2 } $0 == h { print c; exit }')
		[ -n "$c" ] && [ "$("$ROOT/tools/lib/kitversion" --sources "$c" 2>/dev/null)" = "$1" ] && echo "$c"
	else
		case $OWN_KIT in ''|src-*) return 1 ;; esac
		[ "$1" = "$OWN_SOURCES" ] && echo "$OWN_KIT"
	fi
}
# kit_format REV: the submission format REV's make submit writes (the
# number in its tools/submit.sh's format line), or nothing when it cannot
# be told (no git: only this kit's own revision).
kit_format() {
	if [ $HAVE_GIT = 1 ]; then
		git -C "$ROOT" show "$1:tools/submit.sh" 2>/dev/null
	elif [ "$1" = "$OWN_KIT" ]; then
		cat "$ROOT/tools/submit.sh"
	fi | sed -n 's/^[[:space:]]*echo "format: malloc-labs-submission \([0-9][0-9]*\)"$/\1/p' | head -n 1
}
# kit_known REV FORMAT: KK, the grader's word on a file's kit (KIT_KNOWN
# in grade.awk): kit_status's; as:R for a revision this kit does not know
# whose kit_sources are the sources of its revision R (a student's local
# commit that changed no program: graded as R); format:N for a file in
# an older format than its revision writes (N: a kit_sources line taken
# out, say, to pass as a legacy file).  A class's local commits are many
# revisions of few sources: SRC_REV keeps each hash's answer.
declare -A SRC_REV=()
kit_known() {
	local r=${1%-dirty} f h=${KIT_SOURCES:-}
	KK=$(kit_status "$1")
	if [ "$KK" = no ] && [ -n "$h" ]; then
		[ -n "${SRC_REV[$h]+x}" ] || SRC_REV[$h]=$(sources_rev "$h")
		[ -z "${SRC_REV[$h]}" ] || { r=${SRC_REV[$h]}; KK=as:$r; }
	fi
	case $KK:$r in
	yes:src-*) ;;
	yes:*|as:*) f=$(kit_format "$r")
		case $2 in [0-9]|[0-9][0-9]) [ -n "$f" ] && [ "$2" -lt "$f" ] && KK=format:$f ;; esac ;;
	esac
}

# kit_date REV: when git committed the kit revision a submission names, in
# UTC (YYYY-MM-DDTHH:MM:SSZ, as tools/grading/steps writes a step's since),
# or nothing when git cannot say (no checkout, a revision it lacks,
# src-HASH): grade.awk then holds the file to every step.
kit_date() {
	local rev=${1%-dirty}
	case $rev in ''|-*|src-*|*[!A-Za-z0-9._-]*) return ;; esac
	[ $HAVE_GIT = 1 ] || return
	TZ=UTC0 git -C "$ROOT" show -s --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ "$rev^{commit}" 2>/dev/null
}

T=$(mktemp -d) || exit 2
SUMMARY=$T/summary MANIFEST=$T/manifest
# Standard output is kept in a file and copied out at the end: busybox awk
# ignores a failed write (>/dev/full, a full disk), cat does not.
exec 3>&1 >"$T/out"
flush_out() {
	local rc=$1
	if ! cat "$T/out" >&3 2>/dev/null; then
		printf 'grade: cannot write to standard output\n' >&2
		rc=2
	fi
	rm -rf "$T"
	exit "$rc"
}
trap 'flush_out $?' EXIT
: >"$SUMMARY"

# The files, in the order given (a DIR's in name order).  Every per-file
# question is asked of the whole class at once: one awk reads the heads,
# one cksum gives the answer sheets' parameters, git is asked once per
# kit revision, one awk grades them all (tools/grading/grade.awk, batch).
FILES=() SHOWN=() OK=()
# utf16 FILE: is it UTF-16 (Notepad's "Unicode")?  A BOM FF FE or FE FF,
# or an ASCII byte and a NUL in either order.  Read by bash itself (no
# process a file: a class is hundreds), before awk, which may be mawk
# or busybox and cannot be trusted with NULs.  bash's read drops NULs: -N
# reads the first two other bytes, -d '' stops at the first NUL.
utf16() {
	local a= b= c=
	{ IFS= read -r -N 1 -d '' a; IFS= read -r -N 1 -d '' b; } <"$1" 2>/dev/null
	case $a$b in $'\xff\xfe'*|$'\xfe\xff'*) return 0 ;; esac
	IFS= read -r -n 2 -d '' c <"$1" 2>/dev/null || return 1    # no NUL in reach
	case ${#c}$c in 1[[:print:]]) return 0 ;; 0) [[ $a == [[:print:]] ]] ;; *) return 1 ;; esac
}
add_file() { # PATH: queue it (a name awk or the manifest could misread gets a plain alias)
	local p=$1 s=${1//[^[:print:]]/?}
	case $p in /*) ;; *) p=./$p ;; esac      # "-" would be standard input to awk
	if [ -f "$p" ] && [ -r "$p" ]; then
		case $p in *$'\n'*|*$'\t'*)
			case $p in /*) ;; *) p=$PWD/${p#./} ;; esac
			ln -s "$p" "$T/alias${#FILES[@]}" 2>/dev/null && p=$T/alias${#FILES[@]} ;;
		esac
		if utf16 "$p"; then OK+=(utf16); else OK+=(1); fi
	else
		OK+=(0)
	fi
	FILES+=("$p"); SHOWN+=("$s")
}
many=0; [ $# -gt 1 ] && many=1
for arg in "$@"; do [ -d "$arg" ] && many=1; done
for arg in "$@"; do
	if [ -d "$arg" ]; then
		n=0
		for f in "$arg"/* "$arg"/.[!.]*; do
			[ -e "$f" ] || continue
			case ${f##*/} in
			*.part) say "grade: not grading $(shown "$f"): a .part is a make submit that did not finish" >&2; continue ;;
			.*) say "grade: not grading $(shown "$f"): a hidden file" >&2; continue ;;
			esac
			[ -f "$f" ] || continue
			n=$((n + 1))
			add_file "$f"
		done
		[ $n -gt 0 ] || { say "grade: no files to grade in $(shown "$arg")" >&2; exit 2; }
	else
		add_file "$arg"
	fi
done

# The caps (tools/grading/knobs: cap file_bytes, cap record_rows): a file
# over one is refused here, before any awk reads it, with its reason in
# its own manifest line (a row of the CSV); the rest of the batch is
# graded as usual.  A knobs file without them has none.  (grade.awk
# checks their form, and the knobs' own caps.)
CAP_BYTES= CAP_ROWS=
while read -r w what v _; do
	[ "$w" = cap ] || continue
	case $v in *K) n=$((${v%K} * 1024)) ;; *M) n=$((${v%M} * 1048576)) ;; *G) n=$((${v%G} * 1073741824)) ;; *) n=$v ;; esac
	case $n in ''|*[!0-9]*) continue ;; esac      # malformed: grade.awk says so
	case $what in file_bytes) CAP_BYTES=$n ;; record_rows) CAP_ROWS=$n ;; esac
done <"$KNOBS"
declare -A WHY=()
refuse() { OK[$1]=refused WHY[$1]=$2; }
if [ -n "$CAP_BYTES" ]; then
	# one stat for the class, its sizes in the files' order
	idx=() paths=()
	for i in "${!FILES[@]}"; do [ "${OK[$i]}" = 1 ] && idx+=("$i") && paths+=("${FILES[$i]}"); done
	if [ ${#paths[@]} -gt 0 ]; then
		k=0
		while read -r sz; do
			i=${idx[$k]}; k=$((k + 1))
			case $sz in ''|*[!0-9]*) refuse "$i" "its size cannot be read" ;; esac
			[ "${OK[$i]}" = 1 ] && [ "$sz" -gt "$CAP_BYTES" ] &&
				refuse "$i" "$sz bytes > cap $CAP_BYTES (file_bytes, tools/grading/knobs)"
		done < <(stat -L -c %s -- "${paths[@]}" 2>/dev/null)
		while [ $k -lt ${#idx[@]} ]; do refuse "${idx[$k]}" "its size cannot be read"; k=$((k + 1)); done
	fi
fi

# The heads: a line each readable file, fields split by \037 (a control
# byte, so never in a value: every other one becomes ?): the first
# student, kit and kit_sources lines' values, as grade.awk reads them (a CR
# and trailing blanks dropped), whether it carries an answer sheet, the
# first record with more CSV lines than the row cap (read line by line,
# nothing kept: the file stops there and is refused), and the number of
# its format line.
for i in "${!FILES[@]}"; do [ "${OK[$i]}" = 1 ] && printf '%s\n' "${FILES[$i]}"; done >"$T/list"
awk -v cap="$CAP_ROWS" 'function val(k,    v) { v = substr(line, length(k) + 3); sub(/\r$/, "", v); sub(/[ \t\r\n\v\f]+$/, "", v)
		gsub(/[^ -~]/, "?", v); return v }
	{ st = kt = ks = fm = big = ""; q = 0; hs = hk = hx = hf = 0; rows = 0
	  while ((getline line < $0) > 0) {
		if (!hs && line ~ /^student: /) { st = val("student"); hs = 1 }
		else if (!hk && line ~ /^kit: /) { kt = val("kit"); hk = 1 }
		else if (!hx && line ~ /^kit_sources: /) { ks = val("kit_sources"); hx = 1 }
		else if (!hf && line ~ /^format: malloc-labs-submission /) { fm = substr(val("format"), 24); hf = 1 }
		if (line ~ /^(questions: |@answers)/) q = 1
		if (line ~ /^@run /) { rows = 0; rec = substr(line, 6, 40); gsub(/[^ -~]/, "?", rec) }
		else if (cap != "" && line ~ /^csv: / && ++rows > cap + 0) { big = "record " rec ": over " cap " CSV lines (cap record_rows, tools/grading/knobs)"; break }
	  }
	  close($0)
	  printf "%s\037%s\037%s\037%d\037%s\037%s\n", st, kt, ks, q, big, fm }' "$T/list" >"$T/heads" ||
	{ say "grade: cannot read the submissions' heads" >&2; exit 2; }
STUDENT=() KIT=() KSRC=() HASQ=() BIG=() FMT=()
while IFS=$'\037' read -r st kt ks q big fm; do
	STUDENT+=("$st"); KIT+=("$kt"); KSRC+=("$ks"); HASQ+=("$q"); BIG+=("$big"); FMT+=("$fm")
done <"$T/heads"

# The answer sheets' parameters (a cksum of the name: tools/grading/questions.sh),
# for the files that carry a sheet; the others need none.
for j in "${!STUDENT[@]}"; do [ "${HASQ[$j]}" = 1 ] && printf '%s\n' "${STUDENT[$j]}" || echo; done >"$T/names"
"$G/questions.sh" params-list <"$T/names" >"$T/params" 2>/dev/null || : >"$T/params"
QP=(); while IFS= read -r l; do QP+=("$l"); done <"$T/params"

# The manifest grade.awk reads: PATH SHOWN QKNOBS KIT_KNOWN READABLE WHY
# KIT_DATE (READABLE 1, 0, utf16: readable, but not in the encoding make
# submit wrote, or refused: over a cap, WHY says which).
declare -A KNOWN=() DATES=()
j=0
for i in "${!FILES[@]}"; do
	q= known=unknown kdate=
	if [ "${OK[$i]}" = 1 ]; then
		q=${QP[$j]:-}; [ "$q" = - ] && q=
		if [ -n "${BIG[$j]}" ]; then
			refuse "$i" "${BIG[$j]}"
		else
			key="${KIT[$j]}|${KSRC[$j]}|${FMT[$j]}"
			if [ -z "${KNOWN[$key]+x}" ]; then
				KIT_SOURCES=${KSRC[$j]} kit_known "${KIT[$j]}" "${FMT[$j]}"; KNOWN[$key]=$KK
			fi
			known=${KNOWN[$key]}
			key="k${KIT[$j]}"     # (a bash array's key cannot be empty)
			[ -n "${DATES[$key]+x}" ] || DATES[$key]=$(kit_date "${KIT[$j]}")
			kdate=${DATES[$key]}
		fi
		j=$((j + 1))
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${FILES[$i]}" "${SHOWN[$i]}" "$q" "$known" "${OK[$i]}" "${WHY[$i]:-}" "$kdate"
done >"$MANIFEST"

# The model every expectation comes from (tools/grading/predict, built
# from the kit's tools/kit/model.c): made here, in the grader's own
# tree, never taken from a submission.
# (make only when a source is newer: make reading the Makefile costs more
# than grading a file)
predict_fresh() {
	local f
	[ -x "$G/predict" ] || return 1
	for f in "$G/predict.c" "$ROOT"/tools/include/*.h "$ROOT"/tools/kit/*.c; do [ "$G/predict" -nt "$f" ] || return 1; done
}
predict_fresh || make -s -C "$ROOT" tools/grading/predict >&2 ||
	{ printf 'grade: tools/grading/predict does not build (the grader needs make and a C compiler)\n' >&2; exit 2; }
# (make leaves a predict newer than its sources alone, executable or not)
[ -x "$G/predict" ] ||
	{ printf 'grade: tools/grading/predict is not executable (delete it: the grader makes it again)\n' >&2; exit 2; }

# One awk grades a share of the files; a class is split into contiguous
# shares, one a CPU (at most 4), graded side by side; their reports and
# summaries are joined in order.  results.json is written byte by byte
# (tools/grading/gradescope.awk).
# The files the kit ships, whose copies under another name are INTEGRITY
# (grade.awk: shipped_copy): the reference, the fixtures, and the shared
# fixtures beside the kit where there are some.
for f in "$ROOT/results/reference-submission.txt" "$ROOT"/tests/fixtures/*/submission-*.txt \
	"$ROOT"/../shared/fixtures/*/submission-*.txt; do
	case $f in *$'\n'*|*$'\t'*) continue ;; esac
	[ -f "$f" ] && [ -r "$f" ] && printf '%s\t%s\n' "$f" "${f#"$ROOT"/}"
done >"$T/shipped"
grade_share() { # MANIFEST SUMMARY: grade the files listed
	awk -v SUMMARY="$2" -v MANIFEST="$1" -v MANY=$many -v STEPS="$G/steps" -v SHIPPED="$T/shipped" \
		-v MODEL_H="$ROOT/tools/include/model.h" \
		-v PREDICT="$G/predict" -v PREDICT_REQ="$1.predict" \
		-v EXPECT_OUT="${EXPECT_OUT:-}" -v MODE="$MODE" -v SHOWKEY=$SHOWKEY -v HANDOUT=$HANDOUT -v KNOBS_FILE="$KNOBS" \
		-f "$L/csv.awk" -f "$G/steps.awk" -f "$G/alike.awk" -f "$G/grade.awk" -f "$G/gradescope.awk" </dev/null
}
# GRADE_SHARES=N (tests): N shares whatever the CPUs and the class size.
n=${#FILES[@]} shares=1
if [ -n "${GRADE_SHARES:-}" ]; then
	shares=$GRADE_SHARES
elif [ "$n" -ge 16 ]; then
	shares=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || shares=1
fi
case $shares in ''|*[!0-9]*) shares=1 ;; esac
[ "$shares" -le 4 ] || shares=4
[ "$shares" -le "$n" ] || shares=$n
[ "$shares" -ge 1 ] || shares=1
[ -z "${EXPECT_OUT:-}" ] || shares=1     # one file of expectations, written by one awk
note() { # fold an exit status into the worst so far: 2 > 4 > 1 > 3 > 0
	case $1 in
	2) worst=2 ;; 4) [ $worst = 2 ] || worst=4 ;;
	1) case $worst in 2|4) ;; *) worst=1 ;; esac ;;
	3) [ $worst = 0 ] && worst=3 ;;
	0) ;; *) worst=2 ;;
	esac
}

worst=0
if [ "$shares" = 1 ]; then
	grade_share "$MANIFEST" "$SUMMARY"; note $?
else
	pids=()
	for ((k = 0; k < shares; k++)); do
		sed -n "$((k * n / shares + 1)),$(((k + 1) * n / shares))p" "$MANIFEST" >"$T/manifest.$k"
		grade_share "$T/manifest.$k" "$T/summary.$k" >"$T/out.$k" &
		pids+=($!)
	done
	for ((k = 0; k < shares; k++)); do
		wait "${pids[$k]}"; note $?
		cat "$T/out.$k"; [ -f "$T/summary.$k" ] && cat "$T/summary.$k" >>"$SUMMARY"
	done
fi

# The CSV, and copies of one run found by their fingerprints (tools/grading/
# copies.awk: linear in the files and their values).
if [ $MODE = csv ] || { [ $MODE = report ] && [ $many = 1 ]; }; then
	[ $MODE = report ] && say "== one row a submission"
	say "file,student,date,status,score,max,answers,answers_max,fails,envs,frames,scale,variance_iters,count_large,bytes,kit,glibc,kernel,thp,flags,same_run_as"
	awk -F '\t' -f "$L/csv.awk" -f "$G/alike.awk" -f "$G/copies.awk" "$SUMMARY"
	case $? in 0) ;; 1) note 1 ;; *) exit 2 ;; esac
fi
exit $worst
