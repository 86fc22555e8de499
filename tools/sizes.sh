#!/usr/bin/env bash
# tools/sizes.sh - Lab 4's table, as `make sizes` runs it: frames of fixed
# and varying sizes, malloc + memset + free each, with glibc's default
# policy, with the two MALLOC_*_ variables, and with the GLIBC_TUNABLES
# spelling of the same two settings.  Prints minor faults and sys time for
# each, measured here; the reference's numbers are in the README, not here.
# SCALE=N divides every frame count by N (make sizes SCALE=10 for a quick look).
set -u
cd "$(dirname "$0")/.." || exit 1
[ -x ./frames ] || { echo "sizes: ./frames is not built; run make" >&2; exit 1; }
SCALE=${SCALE:-1}
CSV=$(mktemp) || exit 1
trap 'rm -f "$CSV"' EXIT
THR=268435456    # 256 MiB: above every size here, so the heap serves them all
TRIM=536870912   # 512 MiB: free() does not give the heap top back
ENVVARS="MALLOC_MMAP_THRESHOLD_=$THR MALLOC_TRIM_THRESHOLD_=$TRIM"
TUNABLES="GLIBC_TUNABLES=glibc.malloc.mmap_threshold=$THR:glibc.malloc.trim_threshold=$TRIM"

./frames --env
echo "Each row runs  ./frames --alloc memset --size SIZE [--vary V] --frames N  three times:"
echo "untuned, then with the env vars, then with the tunables.  Each cell: minor faults /"
echo "sys seconds for the whole run (every frame is malloc + memset + render + check + free)."
echo "untuned = glibc's defaults, dynamic threshold included."
echo "env vars: $ENVVARS"
echo "tunables: $TUNABLES"
echo
printf '%-22s %6s | %18s %9s | %18s | %18s\n' size frames "untuned" "from mmap" "env vars" "tunables"

# cell ENV ARGS...: "faults sys from-mmap" of one run
cell() {
	local envs=$1
	shift
	# shellcheck disable=SC2086
	env $envs ./frames --alloc memset --csv "$@" >"$CSV" || exit 1
	echo "$(tools/csvget minor_faults "$CSV") $(tools/csvget sys_s "$CSV") $(tools/csvget mmap_frames "$CSV")"
}
fmt() { printf '%10d / %5.2fs' "$1" "$2"; }

for row in "1M 0 300" "8M 0 300" "48M 0 300" "8M 1536K 300" "30M 0 100" "32M 0 100" "34M 0 100"; do
	read -r size vary n <<<"$row"
	n=$(( n / SCALE )); [ "$n" -ge 1 ] || n=1
	args="--size $size --frames $n"
	label=$size
	if [ "$vary" != 0 ]; then args="$args --vary $vary"; label="$size vary $vary"; fi
	# shellcheck disable=SC2086
	read -r uf us um <<<"$(cell "" $args)"
	# shellcheck disable=SC2086
	read -r ef es _ <<<"$(cell "$ENVVARS" $args)"
	# shellcheck disable=SC2086
	read -r tf ts _ <<<"$(cell "$TUNABLES" $args)"
	printf '%-22s %6d | %18s %9s | %18s | %18s\n' "$label" "$n" "$(fmt "$uf" "$us")" "$um" \
		"$(fmt "$ef" "$es")" "$(fmt "$tf" "$ts")"
done
echo
echo "Read it: below 32 MiB the untuned column pays for one or two blocks only (the first"
echo "free() of an mmapped block raises the threshold to its size); from 32 MiB up every"
echo "frame is a fresh mmap, because the threshold never rises past 32 MiB.  Both tuned"
echo "columns should show about one block's pages for the whole run."
