#!/usr/bin/env bash
# tools/platforms/matrix.sh - the same Lab 1 and Lab 4 steps under several glibc
# releases, as `make matrix` runs it: one table, a row per step, a column per
# glibc, each cell measured here by ./frames run through that release's own
# loader (tools/platforms/glibc.sh prefix).  Differences from the 2.36 column are
# marked.
#
#   FRAMES=N      frames per step (default 4: the whole table in about a minute)
#   MATRIX_SUITES the columns (default "bullseye bookworm trixie sid")
#   MATRIX_ALLOW_MISSING=1  exit 0 even when a column could not run
#
# 2.31 runs build/glibc-2.31/frames (`make glibc-2.31`: the kit rebuilt
# against bullseye's own glibc, as binaries built on 2.34+ do not start on
# it); the other columns run ./frames.  Exit status: 0 every column ran;
# 1 a column could not run (fetch failed, offline, not Debian-family, no
# 2.31 build: the column and stderr say why) unless MATRIX_ALLOW_MISSING=1,
# or nothing could be fetched at all (always 1); 2 usage error.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
prog=matrix.sh

usage() {
	cat <<'EOF'
usage: tools/platforms/matrix.sh        (environment: FRAMES, MATRIX_SUITES, MATRIX_ALLOW_MISSING)
Runs Lab 1 and Lab 4 steps under glibc 2.31, 2.36, 2.41 and the newest, one table.
EOF
}
case ${1:-} in
-h | --help) usage; exit 0 ;;
"") ;;
*) echo "$prog: takes no arguments" >&2; usage >&2; exit 2 ;;
esac

FRAMES=${FRAMES:-4}
case $FRAMES in '' | *[!0-9]* | 0) echo "$prog: FRAMES must be a positive number" >&2; usage >&2; exit 2 ;; esac
SUITES=${MATRIX_SUITES:-bullseye bookworm trixie sid}
[ -x ./frames ] || { echo "$prog: ./frames is not built; run make" >&2; exit 1; }
THR=268435456 TRIM=536870912
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

# The rows: the steps tools/grading/steps marks "matrix", as ID|LABEL|ENV|COMMAND.
STEPS=$(awk -v KIND=matrix -v KNOBS="FRAMES=$FRAMES N4=$FRAMES THR=$THR TRIM=$TRIM" \
	-f tools/grading/steps.awk tools/grading/steps) || { echo "$prog: cannot read tools/grading/steps" >&2; exit 1; }

# One column: its version and how to run it, or why it cannot.
declare -A VER WHY RUN
ok_any=0
for s in $SUITES; do
	if ! pfx=$(tools/platforms/glibc.sh prefix "$s" 2>"$T/fetch_$s"); then
		WHY[$s]="fetch failed"
		echo "$prog: $s: $(tail -n 1 "$T/fetch_$s")" >&2
		continue
	fi
	ok_any=1
	VER[$s]=$(tools/platforms/glibc.sh version "$s" 2>/dev/null)
	bin=./frames
	if [ "$s" = bullseye ]; then
		bin=build/glibc-2.31/frames
		if [ ! -x "$bin" ]; then
			WHY[$s]="no 2.31 build"
			echo "$prog: $s: $bin is missing: run make glibc-2.31 (binaries built on 2.34+ do not start on 2.31)" >&2
			continue
		fi
	fi
	if ! $pfx "$bin" --help >/dev/null 2>"$T/start_$s"; then
		WHY[$s]="does not start"
		echo "$prog: $s: $bin does not start under glibc ${VER[$s]}: $(head -n 1 "$T/start_$s")" >&2
		continue
	fi
	RUN[$s]="$pfx $bin"
done
[ "$ok_any" = 1 ] || { echo "$prog: could not fetch any glibc (see above): no table" >&2; exit 1; }

# Run every step under every runnable column: "faults_per_frame mmap_frames warned".
declare -A CELL
total=$(( $(echo "$STEPS" | wc -l) ))
i=0
while IFS='|' read -r _ label envs cmd; do
	i=$((i + 1))
	args=${cmd#./frames }
	[ -t 2 ] && printf '\r%s: step %d of %d' "$prog" "$i" "$total" >&2
	for s in $SUITES; do
		[ -n "${RUN[$s]:-}" ] || continue
		[ "$envs" = - ] && envs=
		# shellcheck disable=SC2086
		if env $envs ${RUN[$s]} $args >"$T/out" 2>"$T/err"; then
			f=$(tools/lib/csvget faults_per_frame "$T/out")
			m=$(tools/lib/csvget mmap_frames "$T/out")
			w=; grep -qi warning "$T/err" && w=w
			CELL[$i,$s]="$(printf '%.0f' "$f") $m $w"
		else
			CELL[$i,$s]="failed"
			echo "$prog: $s: '$label' failed: $(head -n 1 "$T/err")" >&2
		fi
	done
done <<<"$STEPS"
[ -t 2 ] && printf '\r%*s\r' 40 '' >&2

# The table: 24 + 4 x 18 = 96 columns.
printf '%-24s' "frames: $FRAMES a step"
for s in $SUITES; do printf '%18s' "${VER[$s]:-?} ($s)"; done
echo
i=0
while IFS='|' read -r _ label _ _; do
	i=$((i + 1))
	printf '%-24s' "$label"
	base=${CELL[$i,bookworm]:-}
	for s in $SUITES; do
		c=${CELL[$i,$s]:-}
		if [ -z "${RUN[$s]:-}" ]; then printf '%18s' "(${WHY[$s]})"; continue; fi
		if [ "$c" = failed ]; then printf '%18s' failed; continue; fi
		read -r f m w <<<"$c"
		mark=" "
		if [ -n "$base" ] && [ "$s" != bookworm ] && [ "$base" != failed ]; then
			read -r bf bm _ <<<"$base"
			if [ "$m" != "$bm" ] || awk -v a="$f" -v b="$bf" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d > 0.05 * b) }'; then
				mark="*"
			fi
		fi
		printf '%18s' "$(printf '%d %d/%d%s%s' "$f" "$m" "$FRAMES" "${w:+ }$w" "$mark")"
	done
	echo
done <<<"$STEPS"
cat <<EOF

Each cell: minor faults per frame, then frames from mmap (of $FRAMES), measured here.
*  differs from the 2.36 column (frames from mmap, or faults per frame by > 5%).
w  the loader printed a warning on stderr (2.40+: a value it rejected).
L1 = ./frames (63 MiB frames); L4 = --alloc memset at the size named.  Settings:
  vars = MALLOC_MMAP_THRESHOLD_=$THR MALLOC_TRIM_THRESHOLD_=$TRIM
  tunables = the same two as glibc.malloc.* in GLIBC_TUNABLES; misspelt = mmap_treshold.
2.31 runs build/glibc-2.31/frames (make glibc-2.31); the rest ./frames.
EOF

missing=0
for s in $SUITES; do [ -n "${RUN[$s]:-}" ] || missing=1; done
if [ "$missing" = 1 ] && [ "${MATRIX_ALLOW_MISSING:-0}" != 1 ]; then
	echo "$prog: a column could not run (see above; MATRIX_ALLOW_MISSING=1 accepts that)" >&2
	exit 1
fi
exit 0
