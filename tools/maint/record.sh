#!/usr/bin/env bash
# tools/maint/record.sh ITEM... - write results/: each lab's targets (its
# tools/labs/registry row names them and their files), run on this machine, its output saved under a header naming the machine and the
# command, plus a reference submission and its grade.  Only `make reference`
# (old name: `make results`) runs it, on purpose: ordinary runs and tests
# never rewrite the tracked files students compare against.  Expect several
# minutes.  Nothing in results/ is edited by hand.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh
prog=record
# RESULTS_DIR (default results) lets the tests record somewhere harmless.
R=${RESULTS_DIR:-results}
# results/ is what students compare against, so it is written only by a
# kit that is exactly a revision (not -dirty, not an edited ZIP: src-HASH)
# and on a kernel that maps the zero page on a read, the usual kind; the
# other kind's recordings go to results/no-zero-page-vm/ by RESULTS_DIR.
if [ "$R" = results ]; then
	rev=$(tools/lib/kitversion)
	case $rev in
	*-dirty | src-* | unknown | "")
		echo "record: the kit is '$rev', not a clean revision: commit first (results/ names the revision it came from)" >&2
		exit 2 ;;
	esac
	if ./frames --env 2>/dev/null | grep -q '^# read fault: no zero page'; then
		echo "record: this kernel allocates on a read (1 fault a page); results/ is recorded where it maps the zero page (RESULTS_DIR=results/no-zero-page-vm for this kind)" >&2
		exit 2
	fi
fi
mkdir -p "$R" || exit 1
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
mem=$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
virt=$(grep -qw hypervisor /proc/cpuinfo 2>/dev/null && echo "virtual machine" || echo "no hypervisor flag")

# Everything is written beside its final name as .part and moved into
# place only when every recording has succeeded: a failed run, or a full
# disk, leaves results/ exactly as it was and the script exits 1.
parts=()
discard() { [ ${#parts[@]} -eq 0 ] || rm -f "${parts[@]}"; }
trap discard EXIT

# record NAME COMMAND...: run COMMAND, keep its output as results/NAME.txt
record() {
	local name=$1 out=$R/$1.txt t0 rc
	shift
	echo "recording $out: $*" >&2
	t0=$(date +%s)
	(       # a subshell: its exit ends only the recording, not the script
		echo "# recorded by 'make reference' with: $*"
		echo "# machine: $(uname -n): ${cpu:-unknown CPU}, $(nproc) CPUs, $mem, $virt; $(date -u '+%Y-%m-%d %H:%M UTC')"
		"$@" 2>&1
		rc=$?
		echo "# took $(( $(date +%s) - t0 )) s; exit status $rc"
		exit $rc
	) >"$out.part"
	rc=$?
	parts+=("$out.part")
	if [ $rc -ne 0 ]; then
		echo "record: '$*' failed (exit $rc); $R/ left as it was. Its output:" >&2
		tail -n 5 "$out.part" >&2
		exit 1
	fi
}

# --class-plan: the instructors' commands, in the order the class plan
# (docs/instructors.md) shows them, each run as the class would (its output kept out of the way)
# and its wall time printed: what the plan's duration column quotes.
if [ "${1:-}" = --class-plan ]; then
	while IFS= read -r cmd; do
		t0=$(date +%s.%N)
		bash -c "$cmd" >/dev/null 2>&1 || { echo "record: '$cmd' failed" >&2; exit 1; }
		awk -v a="$t0" -v b="$(date +%s.%N)" -v c="$cmd" 'BEGIN { printf "%-48s %6.1f s\n", c, b - a }'
	done <<'EOF'
./frames --env
make --no-print-directory demo-strace
make --no-print-directory step1 FRAMES=20
make --no-print-directory step2 FRAMES=20
make --no-print-directory step4 FRAMES=20
make --no-print-directory step6 FRAMES=20
make --no-print-directory step9 FRAMES=20
make --no-print-directory lab2 VARIANCE_ITERS=50000
make --no-print-directory lab2-tunables
make --no-print-directory lab4 SCALE=10
make --no-print-directory lab4-strace SCALE=10
make --no-print-directory gotcha
make --no-print-directory lab5-tunables BYTES=32M
make --no-print-directory lab6 MAX_THREADS=8
EOF
	exit 0
fi

# --recheck: Gradescope's grade of code (tools/grading/recheck.sh) on the
# kit's own programs at the course's knobs, with its CPU time and its
# largest process (GNU time, where installed): what For graders
# (docs/grading.md) quotes for the autograder's settings.
if [ "${1:-}" = --recheck ]; then
	d=$(mktemp -d) || exit 1
	cp $(lab_programs | sed 's/$/.c/') "$d/" || exit 1
	./frames --env | head -n 2
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '# cpu: %U s user, %S s sys, %e s wall; largest process: %M KiB' tools/grading/recheck.sh "$d"
	else
		tools/grading/recheck.sh "$d"; echo "# (GNU time is not installed: no CPU time or peak memory)"
	fi
	rc=$?
	rm -rf "$d"
	exit $rc
fi

# record_lab ROW: a lab's targets as its registry row names them: make ID
# as results/ID-NAME.txt, then ID-tunables and ID-strace where it has
# them, then each TARGET=FILE.
record_lab() {
	local id program driver more threads old plots rec knobs quick m x
	read -r id program driver more threads old plots rec knobs quick <<<"$1"
	record "$id-${rec%%,*}" make --no-print-directory "$id"
	for m in ${more//,/ }; do
		[ "$m" = - ] || record "$id-$m" make --no-print-directory "$id-$m"
	done
	for x in $(printf '%s' "$rec" | tr ',' '\n' | tail -n +2); do
		record "${x#*=}" make --no-print-directory "${x%%=*}"
	done
}

usage() { echo "usage: $0 $(lab_rows | awk '{ printf "%s|", $1 }')setup|class|recheck|matrix|kernels|kernels-arm64|submission..."; }
rows=$(lab_rows) || exit 1
for target in "$@"; do
	row=$(printf '%s\n' "$rows" | awk -v t="$target" '$1 == t')
	if [ -n "$row" ]; then
		record_lab "$row"
		continue
	fi
	case $target in
	# make run, set-up's first command, on this machine (its # took line is
	# what README's set-up quotes).
	setup) record setup-run make --no-print-directory run ;;
	# The 50-minute class of docs/instructors.md, each command timed.
	class) record class-plan tools/maint/record.sh --class-plan ;;
	# Gradescope's grade of code, the kit's own programs, timed.
	recheck) record recheck-run tools/maint/record.sh --recheck ;;
	# Lab 1 and Lab 4 under glibc 2.31, 2.36, 2.41 and the newest (fetched once).
	matrix) record matrix make --no-print-directory matrix ;;
	# The stock kernels under qemu (minutes; needs qemu-system-x86): only when asked.
	kernels) record kernels make --no-print-directory kernels KERNELS="bookworm trixie" ;;
	# The arm64 kernels, 4, 16 and 64 KiB pages (qemu-system-aarch64, the
	# cross compiler, make kernel-64k first): a file of their own, as they
	# need tools the amd64 table does not.
	kernels-arm64) record kernels-arm64 make --no-print-directory kernels KERNELS="arm64-4k arm64-16k arm64-64k" ;;
	# The submission is kept exactly as make submit wrote it (the grader
	# reads its header); the grade gets the usual header.  Exit 0 from
	# the grader is the only acceptable grade for the reference.
	submission)
		echo "recording $R/reference-submission.txt: make submit" >&2
		OUT=$R/reference-submission.txt.part STUDENT=reference \
			make --no-print-directory submit >&2 ||
			{ echo "record: make submit failed; $R/ left as it was" >&2; exit 1; }
		parts+=("$R/reference-submission.txt.part")
		record reference-grade tools/grade.sh "$R/reference-submission.txt.part" ;;
	*) usage >&2; exit 2 ;;
	esac
done
for p in "${parts[@]}"; do
	mv "$p" "${p%.part}" || exit 1
done
parts=()
echo "record: $R/ rewritten ($# item(s))" >&2
