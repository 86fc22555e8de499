#!/usr/bin/env bash
# tools/platforms/matrix.sh - the same steps under several glibc releases, as
# `make matrix` runs it: one table, a row per step, a column per glibc, each
# cell measured here by the lab's program run through that release's own
# loader (tools/platforms/glibc.sh prefix).  Differences from the 2.36 column
# (Debian 12's own glibc) are marked.
#
#   FRAMES=N      frames per Lab 1/4 step (default 4: the table in a minute or two)
#   MATRIX_SUITES the columns (default "bullseye 2.35 bookworm 2.39 trixie sid":
#                 2.31, Ubuntu 22.04's 2.35 (Gradescope's image), 2.36, Ubuntu
#                 24.04's 2.39 (GitHub's runner), 2.41 and the newest)
#   MATRIX_ALLOW_MISSING=1  exit 0 even when a column could not run
#
# The rows are the steps tools/grading/steps marks "matrix".  What a cell
# shows depends on the program: frames, minor faults per frame and the frames
# that came from mmap; threads, the requests served by mmap; yes, the
# buffer's address modulo the page size; arenas, the arenas malloc made.
# 2.31 runs build/glibc-2.31/PROGRAM (`make glibc-2.31`: the kit rebuilt
# against bullseye's own glibc, as binaries built on 2.34+ do not start on
# it); the other columns run ./PROGRAM.  2.35 and 2.39 come from
# $MALLOC_LABS_GLIBC_BUILDS (tools/platforms/glibc.sh says where).
# Exit status: 0 every column ran; 1 a column could not run (fetch failed,
# offline, no build folder, no 2.31 build: the column and stderr say why)
# unless MATRIX_ALLOW_MISSING=1, or no column could run at all (always 1);
# 2 usage error.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh || exit 1
. tools/platforms/table.sh || exit 1
prog=matrix.sh

usage() {
	cat <<'EOF2'
usage: tools/platforms/matrix.sh   (environment: FRAMES, MATRIX_SUITES, MATRIX_ALLOW_MISSING)
Runs every lab's matrix steps under glibc 2.31, 2.35, 2.36, 2.39, 2.41 and
the newest, one table.
EOF2
}
case ${1:-} in
-h | --help) usage; exit 0 ;;
"") ;;
*) bad_usage "takes no arguments" ;;
esac

FRAMES=${FRAMES:-4}
need_number FRAMES "$FRAMES" 1 100000
SUITES=${MATRIX_SUITES:-bullseye 2.35 bookworm 2.39 trixie sid}
for p in frames threads yes arenas; do
	[ -x "./$p" ] || die "./$p is not built; run make"
done
# Lab 4's thresholds, the pinned ones (tools/include/model.h).
THR=$(awk -v KIND=knob -v NAME=THR -f tools/grading/steps.awk) &&
	TRIM=$(awk -v KIND=knob -v NAME=TRIM -f tools/grading/steps.awk) || die "tools/grading/steps.awk gives no THR, TRIM"
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

STEPS=$(awk -v KIND=matrix -v KNOBS="FRAMES=$FRAMES N4=$FRAMES THR=$THR TRIM=$TRIM" \
	-f tools/grading/steps.awk tools/grading/steps) || die "cannot read tools/grading/steps"

# A column's heading: the release, then where courses meet it.
origin_of() {
	case $1 in
	2.35) echo "Gradescope" ;;
	2.39) echo "GitHub" ;;
	*) echo "$1" ;;
	esac
}

# One column: its version and how to run it, or why it cannot.
declare -A VER WHY PFX BIN
ok_any=0
for s in $SUITES; do
	if ! pfx=$(tools/platforms/glibc.sh prefix "$s" 2>"$T/fetch_$s"); then
		WHY[$s]="no glibc"
		echo "$prog: $s: $(tail -n 1 "$T/fetch_$s")" >&2
		continue
	fi
	VER[$s]=$(tools/platforms/glibc.sh version "$s" 2>/dev/null)
	bin=.
	if [ "$s" = bullseye ]; then
		bin=build/glibc-2.31
		if [ ! -x "$bin/frames" ]; then
			WHY[$s]="no build"
			echo "$prog: $s: $bin/frames is missing: run make glibc-2.31 (binaries built on 2.34+ do not start on 2.31)" >&2
			continue
		fi
	fi
	if ! $pfx "$bin/frames" --help >/dev/null 2>"$T/start_$s"; then
		WHY[$s]="won't start"
		echo "$prog: $s: $bin/frames does not start under glibc ${VER[$s]}: $(head -n 1 "$T/start_$s")" >&2
		continue
	fi
	ok_any=1
	PFX[$s]=$pfx BIN[$s]=$bin
done
[ "$ok_any" = 1 ] || die "no glibc release could run (see above): no table"

# cell FILE PROGRAM: what one run shows (see the top), from its CSV.
cell() {
	local f m
	case $2 in
	frames)
		f=$(tools/lib/csvget faults_per_frame "$1") && m=$(tools/lib/csvget mmap_frames "$1") &&
			printf '%.0f %d/%d' "$f" "$m" "$FRAMES" ;;
	threads) tools/lib/csvget mmapped "$1" ;;
	yes) tools/lib/csvget addr_mod_page "$1" ;;
	arenas) tools/lib/csvget arenas "$1" ;;
	*) return 1 ;;
	esac
}

# differs BASE CELL: true when CELL is not BASE's measurement: the frames
# from mmap or any other count differ, or faults per frame by over 5% (the
# loader's own start-up faults vary a little between releases).
differs() {
	local bf bm f m
	read -r bf bm <<<"${1%w}"
	read -r f m <<<"${2%w}"
	if [ -n "$bm" ] && [ -n "$m" ]; then
		[ "$m" != "$bm" ] || awk -v a="$f" -v b="$bf" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d > 0.05 * b) }'
	else
		[ "$f" != "$bf" ]
	fi
}

# Run every step under every runnable column.  A command may start with
# "taskset -c CPUS": the loader goes after it, so the CPU mask is the
# program's.
declare -A CELL
total=$(printf '%s\n' "$STEPS" | wc -l)
i=0
while IFS='|' read -r _ label envs cmd; do
	i=$((i + 1))
	progress "step $i of $total"
	pin=
	if [[ $cmd == "taskset -c "* ]]; then
		read -r _ _ cpus cmd <<<"$cmd"
		pin="taskset -c $cpus"
		command -v taskset >/dev/null 2>&1 || { CELL[$i]=notaskset; continue; }
	fi
	read -r p args <<<"$cmd"
	p=${p#./}
	[ "$envs" = - ] && envs=
	for s in $SUITES; do
		[ -n "${PFX[$s]:-}" ] || continue
		# shellcheck disable=SC2086
		if env $envs $pin ${PFX[$s]} "${BIN[$s]}/$p" $args >"$T/out" 2>"$T/err" &&
			c=$(cell "$T/out" "$p"); then
			grep -qi warning "$T/err" && c="${c}w"
			CELL[$i,$s]=$c
		else
			CELL[$i,$s]=failed
			echo "$prog: $s: '$label' failed: $(head -n 1 "$T/err")" >&2
		fi
	done
done <<<"$STEPS"
progress

# The table (tools/platforms/table.sh): 24 + 6 x 12 = 96 columns.
TABLE_LEAD='%-24s' TABLE_CELL='%12s'
for s in $SUITES; do table_cell "${VER[$s]:-?}"; done
table_line "glibc"
for s in $SUITES; do table_cell "$(origin_of "$s")"; done
table_line "(FRAMES=$FRAMES a step)"
i=0
while IFS='|' read -r _ label _ _; do
	i=$((i + 1))
	base=${CELL[$i,bookworm]:-}
	for s in $SUITES; do
		c=${CELL[$i,$s]:-}
		if [ "${CELL[$i]:-}" = notaskset ]; then table_cell "(no taskset)"; continue; fi
		if [ -z "${PFX[$s]:-}" ]; then table_cell "(${WHY[$s]})"; continue; fi
		mark=" "
		if [ -n "$base" ] && [ "$s" != bookworm ] && [ "$base" != failed ] && [ "$c" != failed ]; then
			differs "$base" "$c" && mark="*"
		fi
		table_cell "$c$mark"
	done
	table_line "$label"
done <<<"$STEPS"
cat <<EOF

Each cell is measured here.  L1/L4 (frames): minor faults per frame, then
frames from mmap (of $FRAMES); L3 (threads): requests served by mmap; L5 (yes):
the buffer's address % page size; L6 (arenas): arenas malloc made.
*  differs from the 2.36 column (a count, or faults per frame by > 5%).
w  the loader printed a warning on stderr (2.39 and newer: a value it rejected).
Settings: vars = MALLOC_MMAP_THRESHOLD_=$THR MALLOC_TRIM_THRESHOLD_=$TRIM;
  tunables = the same two as glibc.malloc.* in GLIBC_TUNABLES; misspelt =
  mmap_treshold.  1 CPU = taskset -c 0.
2.35 and 2.39 are built from the upstream tags (Ubuntu 22.04's and 24.04's
releases, without Ubuntu's patches); 2.31 runs the kit rebuilt against it
(make glibc-2.31); the rest run ./PROGRAM.
EOF

missing=0
for s in $SUITES; do [ -n "${PFX[$s]:-}" ] || missing=1; done
if [ "$missing" = 1 ] && [ "${MATRIX_ALLOW_MISSING:-0}" != 1 ]; then
	echo "$prog: a column could not run (see above; MATRIX_ALLOW_MISSING=1 accepts that)" >&2
	exit 1
fi
exit 0
