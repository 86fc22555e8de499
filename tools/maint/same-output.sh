#!/usr/bin/env bash
# tools/maint/same-output.sh [REV] - hold this tree's lab programs to REV's
# (default HEAD): what a student or grader sees of them must not change
# when code moves (issue 45: the lesson first, the instruments in a kit
# library).  REV's tree is unpacked by git archive into a temporary
# directory and its programs built there (make, the registry's programs);
# this tree's are built by make here.  Each build then runs the one list
# of commands in tools/maint/same-output.cmds (headers, help, bad input,
# each lab's typical runs and CSV rows, predictions and why lines, at
# small knobs), and each command's stdout, stderr and exit status are
# compared after tools/maint/same-output.awk has masked what differs from
# run to run of one build (times, resident memory, what the scheduler
# decides, the kit's revision, fault counts with no prediction beside
# them; frames' faults only within the grader's tolerance of the
# prediction it prints: the awk's header says which fields and why).
# Prints each command whose output differs, the first three with their
# first differing lines (REV's "<", this tree's ">"), and exits 1; 0 when
# every command's output is the same; 2 on bad usage (no git, no such
# REV).  Needs git (a ZIP download of the kit has none).  Takes half a
# minute or so here: two builds, then the list twice (progress on
# stderr).  The masks hide only what varied on this machine: another's
# noise shows as a difference, to be masked in the awk with its reason.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh || exit 1
prog=same-output
usage() { echo "usage: tools/maint/same-output.sh [REV]   (REV: a git revision, default HEAD)"; }
case ${1:-} in -h|--help) usage; exit 0 ;; -*) bad_usage "unknown option '$1'" ;; esac
[ $# -le 1 ] || bad_usage "one REV at most"
REV=${1:-HEAD}
command -v git >/dev/null 2>&1 || bad_usage "git is not installed (REV's tree comes from git archive)"
top=$(git rev-parse --show-toplevel 2>/dev/null)
[ -n "$top" ] && [ "$top" -ef . ] ||
	bad_usage "this kit is no git checkout (a ZIP download?): no REV to compare with"
git rev-parse -q --verify "$REV^{commit}" >/dev/null 2>&1 || bad_usage "no revision '$(shown "$REV")' here"

CMDS=tools/maint/same-output.cmds
TOL=$(awk -v KIND=tolerance -f tools/grading/steps.awk) || die "tools/grading/steps.awk gives no fault tolerance"
mapfile -t progs < <(lab_programs)
[ ${#progs[@]} -gt 0 ] || die "the registry names no programs"
scratch_dir                                  # TMPD, removed at exit

# build KEY NAME DIR: make the programs in DIR, its output in $TMPD/KEY.make
# (its last lines shown if make fails).
build() {
	echo "$prog: building $2's programs" >&2
	make -C "$3" "${progs[@]}" >"$TMPD/$1.make" 2>&1 ||
		die "make failed for $2's programs: $(tail -n 3 "$TMPD/$1.make" | paste -sd' ' | cut -c1-160)"
}
# run_list KEY NAME DIR: each command of the list, run by bash in DIR
# with nothing on stdin, into $TMPD/KEY/NNN.txt: "$ COMMAND", its stdout,
# its stderr ("2> " a line), "exit N"; then masked into NNN.masked.
run_list() {
	local n=0 line f rc
	echo "$prog: running the $count commands on $2's build" >&2
	mkdir "$TMPD/$1" || die "cannot write $TMPD"
	while IFS= read -r line; do
		n=$((n + 1)); f=$(printf '%s/%s/%03d' "$TMPD" "$1" "$n")
		(cd "$3" && exec bash -c "$line") </dev/null >"$f.out" 2>"$f.err"
		rc=$?
		{ printf '$ %s\n' "$line"; cat "$f.out"; sed 's/^/2> /' "$f.err"; echo "exit $rc"; } >"$f.txt"
	done <"$TMPD/cmds"
	awk -v TOL="$TOL" -f tools/lib/csv.awk -f tools/maint/same-output.awk "$TMPD/$1"/*.txt ||
		die "tools/maint/same-output.awk failed"
}

grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$CMDS" >"$TMPD/cmds" || die "$CMDS lists no command"
count=$(wc -l <"$TMPD/cmds")
mkdir "$TMPD/rev" && git archive --format=tar "$REV" | tar -xf - -C "$TMPD/rev" ||
	die "git archive $REV failed"
build rev "$REV" "$TMPD/rev"
build tree "this tree" .
run_list rev-out "$REV" "$TMPD/rev"
run_list tree-out "this tree" .

# Each command's masked transcripts compared: every command that differs
# named (folded), the first 3 with their first differing lines, cut to 80
# columns.
differ=0
for f in "$TMPD"/rev-out/*.masked; do
	g=$TMPD/tree-out/${f##*/}
	cmp -s "$f" "$g" && continue
	differ=$((differ + 1))
	head -n 1 "$f" | fold -s -w 76 | sed '2,$s/^/    /'
	[ "$differ" -gt 3 ] || diff "$f" "$g" | grep '^[<>]' | head -n 6 | cut -c1-78 | sed 's/^/  /'
done
if [ "$differ" -eq 0 ]; then
	echo "same output: $count commands, $REV's build and this tree's"
	exit 0
fi
echo "$differ of $count commands differ (< $REV's build, > this tree's)" | cut -c1-80
exit 1
