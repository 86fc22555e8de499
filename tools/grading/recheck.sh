#!/usr/bin/env bash
# tools/grading/recheck.sh [--json FILE] DIR - the grade of a student's
# code: the exercise regions of the lab programs found in DIR (an upload,
# a student's clone), each checked and compiled as a unit of its own, then
# spliced into a copy of this kit (everything outside the regions is the
# kit's), built, and measured here by make check: every count against the
# kit's own model, run by the kit's harness.  A region is refused, its
# stub (tools/exercises/NAME.c, the skeleton as shipped) built and graded
# in its place, and the reason printed with its grade, when it is missing,
# when tools/grading/regioncheck refuses it (a preprocessor line, asm, an
# attribute, braces that close its function early, ...), when it names a
# macro of the kit's own files, when it does not compile alone after what
# tools/exercises/libc.uses (every region's: libc's names) and NAME.uses
# (its own) let it name, when its object defines a global symbol or a
# variable at file scope, calls what those two files do not list, defines
# a function under a name the kit's units define for every file (nm; its
# stub's names aside), or has a
# constructor's section, or when the kit's program does not compile with
# it: so a refused region never scores above the stub, nor below it.  The
# other exercises are graded as usual.  make check is this run with DIR
# the kit itself (tools/grading/recheck.sh .): the same rules, the same
# reasons, on the student's own tree.
#   --json FILE   also Gradescope's results.json, a test an exercise
#   --verdicts    the regions' verdicts only: nothing built whole or run
#                 (exit 1 when one is refused)
#   --no-isolation-i-trust-this-code   where tools/grading/sandbox can
#                 isolate nothing (no root, no user namespaces), run the
#                 code as this user all the same; without it, exit 2
# The grade ends "Score: N/M", then, where the code ran without the
# sandbox's whole isolation, "Unsealed: " and what was missing.
# Knobs (environment): as make check's (FRAMES SCALE ...; CHECK_TIMEOUT a
# run's CPU seconds, CHECK_WALL the whole re-run's, tools/submit.sh's);
# CC the compiler (default cc).  Exit: 0 full marks, 1 short of them, 2
# bad usage or the check could not run.
set -u -o pipefail
export LC_ALL=C
caller=$PWD
cd "$(dirname "$0")/../.." || exit 2
KIT=$PWD
prog=recheck
. tools/lib/lib.sh || exit 2
usage() { echo "usage: tools/grading/recheck.sh [--json FILE | --verdicts] [--no-isolation-i-trust-this-code] DIR   (DIR: the student's files)"; }
json= verdicts_only=0 trust=0
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--json) [ $# -ge 2 ] || bad_usage "--json wants a file"; json=$2; shift ;;
	--verdicts) verdicts_only=1 ;;
	--no-isolation-i-trust-this-code) trust=1 ;;
	--) shift; break ;;
	-*) bad_usage "unknown option '$(shown "$1")'" ;;
	*) break ;;
	esac
	shift
done
[ $# = 1 ] || bad_usage "$([ $# = 0 ] && echo "no DIR" || echo "one DIR only")"
dir=$1
from_caller dir json
[ -d "$dir" ] && [ -r "$dir" ] || bad_usage "'$(shown "$1")' is not a directory that can be read"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || die "no compiler '$CC' here"
for t in nm readelf; do command -v "$t" >/dev/null 2>&1 || die "$t is missing (apt-get install binutils)"; done
EX=$KIT/tools/lib/exercise.awk

T=$(mktemp -d) || die "no temporary directory"
trap 'rm -rf "$T"' EXIT
regions=$(kit_regions) || exit 2
# stubbed_kit: W, a copy of the kit in which every region starts as its
# stub: the skeleton, which a refused region keeps.
stubbed_kit() {
	W=$T/kit
	kit_copy "$W" || die "the kit could not be copied"
	rm -f "$W/tools/lib/handout"      # the copy is the grader's, whatever its source
	for f in $(printf '%s\n' "$regions" | awk '!seen[$2]++ { print $2 }'); do
		awk -v DO=stub -v STUBS=tools/exercises -f "$EX" "$f" >"$W/$f" || exit 2
	done
}

# DIR is this kit itself (make check)?  Owned by this user too, it is the
# user's own code on the user's own machine: it runs as the user where
# nothing can isolate it (a TA's make check in a student's tree does not).
own=0 mine=0 label=$(shown "$1")
[ "$(cd "$dir" && pwd -P)" = "$(pwd -P)" ] && own=1 label="this kit's programs"
[ $own = 1 ] && [ -O "$KIT" ] && mine=1 trust=1
# The grader's copy of each lab program in DIR (upload_files: the
# shallowest, at most 3 deep), taken before anything else is read of DIR.
mkdir "$T/upload" || exit 2
[ $own = 1 ] || for f in $(lab_programs | sed 's/$/.c/'); do
	IFS= read -r -d '' up < <(upload_files "$dir" "$f") && upload_copy "$up" "$T/upload/$f" || rm -f "$T/upload/$f"
done
# student_file FILE: the student's FILE: this kit's own when DIR is the
# kit itself (make check), else the grader's copy of the upload's, or "".
student_file() {
	if [ $own = 1 ]; then echo "$KIT/$1"; elif [ -f "$T/upload/$1" ]; then echo "$T/upload/$1"; fi
}
# uses NAME KEY: the words after "KEY:" in tools/exercises/libc.uses (what
# every region may name) and in tools/exercises/NAME.uses (its own).
uses() { sed -n "s/^$2:[ \t]*//p" tools/exercises/libc.uses "tools/exercises/$1.uses" | tr "\n" " "; }
# first_error FILE: the compiler's first error, one line of at most 100.
first_error() {
	grep -m 1 'error' "$1" | sed 's/^[^:]*:[0-9]*:[0-9]*: //; s/^error: //' | LC_ALL=C tr -c '[:print:]\n' '?' | cut -c1-100
}

# prelude NAME PROGRAM: the unit's first lines: the headers (with
# _GNU_SOURCE, as env.h builds every lab program), the kit's declarations,
# structs and macros its exercise may name.
prelude() {
	local h s m
	echo "#define _GNU_SOURCE 1"
	for h in $(uses "$1" include); do echo "#include <$h>"; done
	uses "$1" declare; echo
	for s in $(uses "$1" struct); do
		awk -v s="$s" '$0 ~ "^struct " s " [{]" { p = 1 } p { print } p && /^};/ { exit }' "$2"
	done
	for m in $(uses "$1" macro); do grep -m 1 "^#define $m " "$T/$1.kitmacros"; done
}

# compile_limits: for the subshell that compiles a student's text (as
# the grader: the compiler runs none of it, but may be made to work long
# or large): 120 s of CPU, 4 GiB of memory, 64 MiB a file written.
# (Each only lowered: a hard limit already under it stays.)  Status 1,
# and the region refused, when one cannot be set.
compile_limits() {
	local l h
	for l in "t 120" "v 4194304" "f 65536"; do
		set -- $l
		h=$(ulimit -H "-$1")
		if [ "$h" = unlimited ] || [ "$h" -gt "$2" ]; then ulimit "-$1" "$2" || return 1; fi
	done
}
NO_LIMITS="the grader cannot limit its compiler here (ulimit): tell your course's staff"

# refuse_why NAME FILE FIRST: why the student's region NAME of FILE is
# refused, or nothing (FIRST: the kit's BEGIN line of it, from $regions);
# leaves the region in $T/NAME.c, and writes only files named $T/NAME.*,
# so that the regions are checked at once.
refuse_why() {
	local r=$1 f=$2 first=$3 up line sym
	compile_limits || { echo "$NO_LIMITS"; return; }
	up=$(student_file "$f")
	[ -n "$up" ] || { echo "no $f in the upload (a regular file, no link, at most ${UPLOAD_MAX_KB} KB)"; return; }
	if ! awk -v DO=show -v ONLY="$r" -f "$EX" "$up" >"$T/$r.c" 2>"$T/$r.err"; then
		line=$(sed -n '1s/^exercise: //p' "$T/$r.err")
		shown "${line//"$up"/$f}" | cut -c1-100; echo
		return
	fi
	tools/grading/regioncheck --idents "$T/$r.c" >"$T/$r.ids" 2>&1 ||
		{ grep -m 1 '^line ' "$T/$r.ids" || echo "the region could not be read"; return; }
	# A macro the kit's own files define before the region (libc's are
	# the prelude's): what the region wrote is not what the kit's program
	# would compile (a local named like one, say, becomes the harness's
	# own variable).  A line marker's flag 3 is a system header.
	head -n $((first - 1)) "$f" >"$T/$r.prefix.c"
	"$CC" -std=gnu11 -E -dD -I "$KIT" "$T/$r.prefix.c" 2>/dev/null | awk -v all="$T/$r.kitmacros" '
		/^# [0-9]+ "/ { l = $0; sub(/^# [0-9]+ "([^"\\]|\\.)*"/, "", l); sys = $3 ~ /^"</ || l ~ / 3( |$)/; next }
		/^#define / { print >all; if (!sys) { n = $2; sub(/\(.*/, "", n); print n } }' |
		sort -u >"$T/$r.kit.m"
	prelude "$r" "$f" >"$T/$r.pre.c"
	"$CC" -std=gnu11 -E -dM "$T/$r.pre.c" 2>/dev/null | awk '{ print $2 }' | sed 's/(.*//' | sort -u >"$T/$r.pre.m"
	sym=$(sort -u "$T/$r.ids" | comm -12 - "$T/$r.kit.m" | comm -23 - "$T/$r.pre.m" | head -n 1)
	[ -z "$sym" ] || { echo "it names $sym, a macro of the kit's program: there it would be the kit's, not yours; name yours otherwise"; return; }
	# Alone: the prelude, then the region, nothing of the kit's harness.
	{ cat "$T/$r.pre.c"; echo "#line 1 \"$r\""; cat "$T/$r.c"; } >"$T/$r.unit.c"
	"$CC" -std=gnu11 -O0 -c -Werror=implicit-function-declaration -Werror=implicit-int \
		-Werror=int-conversion -Werror=incompatible-pointer-types -o "$T/$r.o" "$T/$r.unit.c" >"$T/$r.cc" 2>&1 ||
		{ echo "it does not compile alone: $(first_error "$T/$r.cc") (a region sees libc's headers in tools/exercises/libc.uses and $r.uses, and its own code)"; return; }
	# Its object: local functions, function-local statics, and calls to
	# what its exercise lists; no global symbol, no file-scope variable.
	line=$(nm -P "$T/$r.o" | awk -v ok=" $(uses "$r" calls) " '
		$2 == "U" { if (index(ok, " " $1 " ") == 0) { print "it uses " $1 ", which " R " may not (what a region may call: tools/exercises/libc.uses and " R ".uses)"; exit } next }
		$2 == "t" { next }
		$2 ~ /^[bdr]$/ && index($1, ".") { next }
		$2 ~ /^[A-Z]$/ { print "it defines " $1 " for the whole program: make it static"; exit }
		{ print "it defines " $1 " outside its functions (a variable at file scope): make it a static inside the function"; exit }' R="$r")
	[ -z "$line" ] || { echo "$line"; return; }
	# A function it defines under a name the kit's units give its program
	# (kit_names), but those of its stub: there the two would clash.
	sym=$(nm -P --defined-only "$T/$r.o" | awk '$1 !~ /\./ { print $1 }' | sort -u |
		comm -12 - "$T/names/$f.names" | comm -23 - "$T/names/$r.stub" | head -n 1)
	[ -z "$sym" ] || { echo "it defines $sym, a name the kit's program uses: name yours otherwise"; return; }
	readelf -SW "$T/$r.o" | grep -q -E '\.(init_array|fini_array|preinit_array|ctors|dtors)' &&
		{ echo "its object has a constructor's section"; return; }
	return 0
}

# kit_names: $T/names/FILE.names, for each lab program FILE with a
# region, the global functions and variables of the kit's library and of
# FILE's own unit (nm of build/kit, as make built them: a global is never
# inlined away).  A unit's static is its own file's, so a region may use
# its name; a name FILE itself defines fails the program's compile (take).
# And $T/names/NAME.stub, the names region NAME's stub writes, which the
# region may define.  Status 1 when the kit's objects cannot be made.
kit_names() {
	local f u files units=
	files=$(printf '%s\n' "$regions" | awk '!seen[$2]++ { print $2 }')
	for f in $files; do [ ! -f "tools/kit/$f" ] || units="$units build/kit/${f%.c}.o"; done
	mkdir -p "$T/names" || return 1
	# shellcheck disable=SC2086
	make -s build/kit/libkit.a $units >&2 || return 1
	for f in $files; do
		u=build/kit/${f%.c}.o
		[ -f "tools/kit/$f" ] || u=
		# shellcheck disable=SC2086
		nm -P --defined-only build/kit/libkit.a $u | awk '$2 ~ /^[BCDGiRSTVW]$/ && $1 !~ /\./ { print $1 }' |
			sort -u >"$T/names/$f.names" || return 1
	done
	while read -r r _; do
		tools/grading/regioncheck --idents "tools/exercises/$r.c" | sort -u >"$T/names/$r.stub" || return 1
	done <<<"$regions"
}

# take NAME FILE: the upload's region NAME spliced into W's FILE, which
# must still compile; nothing when it does, else why (the stub put back).
# (Run in $(...), as refuse_why in the background, so that its limits
# are its own: its exit 2, the splice failing, is passed on by hand.)
take() {
	compile_limits || { echo "$NO_LIMITS"; return; }
	cp "$W/$2" "$T/before.c"
	awk -v DO=splice -v FROM="$(student_file "$2")" -v ONLY="$1" -f "$EX" "$T/before.c" >"$W/$2" || exit 2
	make -s -C "$W" "${2%.c}" >"$T/build.out" 2>&1 && return
	echo "the kit's program does not compile with it: $(first_error "$T/build.out")"
	cp "$T/before.c" "$W/$2"
}

# In this kit (make check), a region's verdict is kept in build/verdicts/
# under a checksum of all it depends on here (its program, whose headers'
# the macros are, the units and stubs whose names it may not define, its
# .uses files, this checker, the compiler's name), so that make check
# again after no change checks nothing again; and all of them under one
# checksum of every program, so that then it costs one.
verdict_key() {
	cat "$@" tools/include/*.h tools/kit/*.c tools/exercises/*.c tools/exercises/libc.uses tools/lib/exercise.awk \
		tools/grading/recheck.sh tools/grading/regioncheck.c | cksum | sed "s|\$| $CC|"
}
[ $own = 0 ] || all_key=$(verdict_key $(lab_programs | sed 's/$/.c/') tools/exercises/*.uses)
if [ $own = 1 ] && [ "$(head -n 1 build/verdicts/all 2>/dev/null)" = "$all_key" ]; then
	tail -n +2 build/verdicts/all >"$T/alone"
else
	make -s tools/grading/regioncheck >&2 || die "tools/grading/regioncheck does not build"
	kit_names || die "the kit's library cannot be made (make build/kit/libkit.a)"
	progress "checking the regions"
	while read -r r f first _; do
		if [ $own = 1 ] && [ "$(head -n 1 "build/verdicts/$r" 2>/dev/null)" = \
			"$(verdict_key "$f" "tools/exercises/$r.uses")" ]; then
			tail -n +2 "build/verdicts/$r" >"$T/$r.why"
		else
			refuse_why "$r" "$f" "$first" >"$T/$r.why" &
		fi
	done <<<"$regions"
	wait
	while read -r r f _; do
		printf '%s\t%s\t%s\n' "$r" "$f" "$(cat "$T/$r.why")"
	done <<<"$regions" >"$T/alone"
	if [ $own = 1 ] && mkdir -p build/verdicts 2>/dev/null; then
		while read -r r f _; do
			{ verdict_key "$f" "tools/exercises/$r.uses"; cat "$T/$r.why"; } >"build/verdicts/$r"
		done <<<"$regions"
		{ echo "$all_key"; cat "$T/alone"; } >build/verdicts/all
	fi
fi
# DIR is this kit itself: when every region passes alone and
# the tree builds as it stands, the tree is the kit with the regions
# spliced in, and is measured in place (its build's warnings shown).
# Otherwise, and always for an upload, each region that passed alone is
# spliced into the stubbed copy, in turn.
if [ $mine = 1 ] && ! cut -f3 "$T/alone" | grep -q . &&
   make -s all tools/grading/wait4run >"$T/build.out" 2>&1; then
	W=$KIT
	cat "$T/build.out" >&2
	cp "$T/alone" "$T/verdicts"
else
	stubbed_kit
	while IFS=$'\t' read -r r f why; do
		[ -n "$why" ] || why=$(take "$r" "$f") || exit 2
		printf '%s\t%s\t%s\n' "$r" "$f" "$why"
	done <"$T/alone" >"$T/verdicts"
fi
n_ok=$(awk -F'\t' '$3 == ""' "$T/verdicts" | wc -l)
progress
echo "The regions of $label, each alone, then in the kit's program:"
# (a reason folded at 72 columns under its region, never cut)
FOLD='function fold(s,    n, w, i, l) { n = split(s, w, " "); l = ""
	for (i = 1; i <= n; i++) { if (l != "" && length(l) + 1 + length(w[i]) > 72) { print "      " l; l = "" } l = (l == "" ? "" : l " ") w[i] }
	if (l != "") print "      " l }'
awk -F'\t' "$FOLD"'{ printf "  %-22s %-18s %s\n", $1, $2, $3 == "" ? "taken" : "REFUSED"; fold($3) }' "$T/verdicts"
[ $verdicts_only = 0 ] || exit $((n_ok < $(printf '%s\n' "$regions" | wc -l)))
echo

# The student's code is built and run in tools/grading/sandbox (another
# uid, a root of its own with nothing of the grader's, no network,
# limits), each run apart; it writes make check's record, and the grade
# is made from the record here, by a process it never ran in.
SB=$KIT/tools/grading/sandbox box=()
if [ "$W" = "$KIT" ]; then
	unsealed=      # (the student's own code, as the student)
elif ! make -s tools/grading/sandbox >&2; then
	die "tools/grading/sandbox does not build"
elif iso=$("$SB" --probe 2>&1); then
	{ echo "$prog: the student's code runs isolated (tools/grading/sandbox):"
	  printf '%s\n' "$iso" | fold -s -w 74 | sed 's/^/  /'; } >&2
	box=("$SB" --dir "$W" --cpu 300 --)
	unsealed=
	case $iso in *"NO namespaces"*)
		unsealed="isolation: uid and limits only, no namespaces (the container refuses them)" ;;
	esac
	# as root, the sandbox's uid builds in the copy, then it is root's again
	sbuid=$(printf '%s\n' "$iso" | sed -n 's/^uid \([0-9]*\) .*/\1/p')
	if [ -n "$sbuid" ]; then
		chmod 711 "$T" && chown -R "$sbuid:$sbuid" "$W" || die "cannot give the kit's copy to uid $sbuid"
	fi
elif [ $trust = 1 ]; then
	unsealed="isolation: NONE, the code ran as $(id -un 2>/dev/null || id -u) (--no-isolation-i-trust-this-code)"
	{ echo "$prog: NOT isolated (${iso#*: no isolation: }):"
	  echo "  the student's code runs as $(id -un 2>/dev/null || id -u), as --no-isolation-i-trust-this-code asks"; } >&2
else
	{ echo "$prog: no isolation here (${iso#*: no isolation: }):"
	  echo "  the student's code would run as $(id -un 2>/dev/null || id -u), beside your files: run as root"
	  echo "  or where user namespaces are allowed, or pass --no-isolation-i-trust-this-code"; } >&2
	exit 2
fi
# (this kit as it stands was built above)
[ "$W" = "$KIT" ] || (cd "$W" && ${box[@]+"${box[@]}"} make -s all tools/grading/wait4run) >"$T/build.out" 2>&1 ||
	{ cat "$T/build.out" >&2; die "the kit with the regions taken does not build"; }
# (closed again: where namespaces are refused, only its mode keeps the
# copy's grader and key from the uid; the runs see copies of the programs)
if [ -n "${sbuid:-}" ]; then chown -R 0:0 "$W" && chmod 700 "$W" || die "cannot take the kit's copy back"; fi
# A run of a region that spins is stopped at CHECK_TIMEOUT seconds of CPU
# (tools/submit.sh: 20 by default; an honest run takes a few,
# results/recheck-run.txt), one that blocks at five times that of wall time.
(cd "$W" && CHECK_SANDBOX=${box[@]+"$SB"} MALLOC_LABS_STEPS=exercise \
	STUDENT=check OUT="$T/record.txt" tools/submit.sh) >"$T/submit.out" 2>"$T/check.err" ||
	{ cat "$T/check.err" >&2; die "make check could not run"; }
tools/grading/check.sh --grade "$T/record.txt" >"$T/check.out" 2>>"$T/check.err"; rc=$?
[ $rc = 2 ] && { cat "$T/check.err" >&2; die "make check could not grade"; }
sed '/^Score: /d' "$T/check.out"
# make check's line an exercise ("NAME FILE OK|FAIL N/M"), with the
# verdicts, makes the grade: a refused region's exercise was measured with
# its stub in its place, so it scores exactly what the handout's does.
LC_ALL=C awk -F'\t' '
	NR == FNR { why[$1] = $3; next }
	/^lab[0-9]+\.[a-z0-9_]+ +[^ ]+ +(OK|FAIL) +[0-9]+\/[0-9]+$/ {
		split($0, w, " "); split(w[4], pm, "/")
		printf "%s\t%s\t%d\t%d\t%s\n", w[1], w[2], pm[1], pm[2], why[w[1]]
	}' "$T/verdicts" "$T/check.out" >"$T/grade.tsv"
[ -s "$T/grade.tsv" ] || die "make check printed no exercise"
echo "The grade (a refused region is graded as its stub, the skeleton as shipped):"
awk -F'\t' "$FOLD"'{ printf "  %-22s %-18s %-4s %3d/%d\n", $1, $2, $3 == $4 ? "OK" : "FAIL", $3, $4; s += $3; m += $4
	if ($5 != "") fold("refused, its stub graded: " $5) }
	END { printf "Score: %d/%d\n", s, m; exit s != m }' "$T/grade.tsv"; rc=$?
# A re-run without the sandbox's whole isolation says so: here, last, in
# the regrade's row and in Gradescope's output.
[ -z "$unsealed" ] || echo "Unsealed: $unsealed"
# Gradescope's results.json: a test an exercise, its output the check
# lines make check printed for it, or why its region was refused.
# (GS_EXECUTION_TIME: the seconds run_autograder had run when this began)
if [ -n "$json" ]; then
	[[ ${GS_EXECUTION_TIME:-} =~ ^[0-9]{1,9}$ ]] || GS_EXECUTION_TIME=0
	GS_UNSEALED=$unsealed GS_EXECUTION_TIME=$((10#$GS_EXECUTION_TIME + SECONDS)) awk -v GS_EXERCISES="$T/grade.tsv" -v GS_CHECK="$T/check.out" \
		-f tools/grading/gradescope.awk >"$json" </dev/null || die "cannot write $(shown "$json")"
fi
exit $rc
