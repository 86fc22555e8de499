#!/usr/bin/env bash
# tools/plots/plots.sh - `make plots`: short runs of each lab that has
# pictures (tools/labs/registry's plots column), kept as CSV and drawn as
# SVG by the kit's own tools/plots/plot (no plotting package).  Labs 1-6
# are drawn here (plot_ID below); another lab's by its own driver, run as
# `DRIVER plot` with PLOTS_DIR, CSV_DIR and the knobs below exported.  Each
# picture the registry names must then exist, or the run fails.
#   plot-lab1-faults.svg, plot-lab1-time.svg  Lab 1's walkthrough steps (bars
#                           coloured by policy; the prediction and the corrupt
#                           pixels marked on the faults)
#   plot-lab2-latency.svg   Lab 2's latency per row, as a CDF (log x)
#   plot-lab2-fast.svg      the same without the forced-mmap row, p0 to p99,
#                           linear: the fast rows apart
#   plot-lab4-cap.svg       Lab 4's faults per frame vs frame size, untuned
#                           and tuned, with the 32 MiB cap marked
#   plot-lab5-pipe.svg      Lab 5's GiB/s vs buffer size per alignment, on
#                           one CPU and on two
#   plot-lab6-rss.svg       Lab 6's RssAnon vs threads: default,
#                           MALLOC_ARENA_MAX=2, after malloc_trim(0)
# Every CSV is read by column name.  Knobs (environment):
#   PLOTS_DIR       where the SVGs go (default plots/)
#   CSV_DIR         where the CSVs go (default: PLOTS_DIR)
#   FRAMES          frames per Lab 1 and Lab 4 run (default 10)
#   VARIANCE_ITERS  samples per Lab 2 row (default 50000)
#   BYTES           bytes per Lab 5 run (default 32M)
#   ROUNDS          requests per thread in a Lab 6 run (default 64)
#   PLOT_LABS       which labs (default: every one with pictures)
# Progress goes to stderr, only when stderr is a terminal.  Any failed run
# stops it, naming the run; the exit status is then 1.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh
prog=plots
PLOTS_DIR=${PLOTS_DIR:-plots}
CSV_DIR=${CSV_DIR:-$PLOTS_DIR}
FRAMES=${FRAMES:-10}
VARIANCE_ITERS=${VARIANCE_ITERS:-50000}
BYTES=${BYTES:-32M}
ROUNDS=${ROUNDS:-64}
NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
T0=$SECONDS
export PLOTS_DIR CSV_DIR FRAMES VARIANCE_ITERS BYTES ROUNDS

fail() { progress; die "$*"; }     # progress, die: tools/lib/lib.sh

# shellcheck disable=SC2086
rows=$(lab_rows ${PLOT_LABS:-} | awk '$7 != "-"') || exit 1
for p in $(printf '%s\n' "$rows" | awk '!seen[$2]++ { print $2 }') tools/plots/plot; do
	[ -x "./$p" ] || fail "./$p is not built; run make plots"
done
mkdir -p "$PLOTS_DIR" "$CSV_DIR" || fail "cannot create $PLOTS_DIR or $CSV_DIR"

# add_rows FILE COLUMN VALUE [VAR=value...] CMD...: run CMD (leading
# VAR=value words are its environment) and append the rows of the CSV it
# prints to FILE, each with one more column, COLUMN, holding VALUE (or
# "C1,C2" and "V1,V2": two columns).  The first run writes the environment
# header and the CSV header; a later run whose header differs stops
# everything, since its columns would be misread.
add_rows() {
	local file=$1 col=$2 val=$3 out head
	shift 3
	out=$(env "$@") || fail "this run failed: $*"
	head=$(printf '%s\n' "$out" | grep -v '^#' | head -n 1)
	[ -n "$head" ] || fail "this run printed no CSV: $*"
	if [ ! -s "$file" ]; then
		./frames --env >"$file" || fail "./frames --env failed"
		printf '%s,%s\n' "$head" "$col" >>"$file"
	elif ! grep -qxF "$head,$col" "$file"; then
		fail "its CSV header differs from the first run's: $*"
	fi
	printf '%s\n' "$out" | grep -v '^#' | tail -n +2 |
		awk -v v="$val" 'BEGIN { n = split(v, a, ","); for (i = 1; i <= n; i++) q = q ",\"" a[i] "\"" }
			{ print $0 q }' >>"$file" || fail "writing $file"
}

# draw NAME CSV PLOT-OPTIONS...: tools/plots/plot into PLOTS_DIR/NAME.svg, via a
# .part file so a failed draw never leaves a half picture behind.
draw() {
	local name=$1 csv=$2 out="$PLOTS_DIR/$1.svg"
	shift 2
	tools/plots/plot "$@" "$csv" >"$out.part" || { rm -f "$out.part"; fail "drawing $name failed"; }
	mv "$out.part" "$out" || fail "cannot write $out"
	drawn+=("$out")
}
drawn=()

# ------------------------------------------------------------------ Lab 1
plot_lab1() {
	# The walkthrough's runs (tools/labs/lab1.sh), one each: step 2 is strace
	# and has no run of its own; step 8's floor is --alloc once.
	csv=$CSV_DIR/lab1.csv
	rm -f "$csv"
	TUNED="GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967295"
	i=0
	# Each run's policy colours its bar: glibc's default, no mmap, tuned (no
	# mmap, no trim), fixed (tuned, and the frame cleared: the bug gone), and
	# the allocate-once floor.
	while IFS='|' read -r label policy envs args; do
		i=$((i + 1))
		progress "Lab 1, run $i of 8: $label"
		# shellcheck disable=SC2086
		add_rows "$csv" step,policy "$label,$policy" $envs ./frames $args --csv --frames "$FRAMES"
	done <<-EOF
	1 default|glibc default||--alloc malloc
	3 no mmap|no mmap (mmap_max=0)|GLIBC_TUNABLES=glibc.malloc.mmap_max=0|--alloc malloc
	4 + no trim|tuned: no mmap + no trim|$TUNED|--alloc malloc
	5 --tune|tuned: no mmap + no trim||--tune --alloc malloc
	6 perturb|glibc default|GLIBC_TUNABLES=glibc.malloc.perturb=170|--alloc malloc
	7 memset|fixed: tuned + cleared||--tune --alloc memset
	7 calloc|fixed: tuned + cleared||--tune
	8 once|floor: allocate once||--alloc once
	EOF
	draw plot-lab1-faults "$csv" --kind bars --x step --y minor_faults --series policy --logy \
		--ref "predicted_faults:predicted (frames.c)" --flag "corrupt_pixels:corrupt pixels" \
		--title "Lab 1: page faults per walkthrough step ($FRAMES frames)" \
		--xlabel "walkthrough step (one run each; faults a read page: see the footer)" \
		--ylabel "page faults (log scale)"
	# Linear from 0, so a bar twice as tall took twice as long; the fast bars
	# of steps 4-6 are the corrupt ones, marked as on the faults picture.
	draw plot-lab1-time "$csv" --kind bars --x step --y time_s --series policy \
		--flag "corrupt_pixels:corrupt pixels" \
		--title "Lab 1: time per walkthrough step ($FRAMES frames)" \
		--xlabel "one run each: bars within ~10% of each other (floor vs fixed) are noise" \
		--ylabel "wall time (s)"
}

# ------------------------------------------------------------------ Lab 2
plot_lab2() {
	progress "Lab 2: every row at $VARIANCE_ITERS samples, pinned"
	csv=$CSV_DIR/lab2.csv
	rm -f "$csv"
	add_rows "$csv" iters "$VARIANCE_ITERS" tools/labs/pin.sh -q ./malloc_variance all --quantiles \
		--iters "$VARIANCE_ITERS"
	draw plot-lab2-latency "$csv" --kind cdf --x ns --y pct --series label --logx --logy \
		--mark p50,p99,p99.9 \
		--title "Lab 2: latency of malloc + touch + free, per row" \
		--xlabel "ns per call (log scale; $VARIANCE_ITERS calls a row)" \
		--ylabel "calls this fast or faster (tail scale)"
	# The fast rows meet between 20 and 200 ns on the log axis: the same
	# quantiles without the forced-mmap row, p0 to p99, on linear axes.
	fast=$CSV_DIR/lab2-fast.csv
	# (--hide keeps each row's colour as in the full picture.)
	awk '/^#/ || !h { if (!/^#/) h = 1; print; next }
	     { if (match($0, /^"[^"]*",[0-9.]+,/)) { p = substr($0, 1, RLENGTH - 1); sub(/.*,/, "", p)
	       if (p + 0 <= 99) print } }' "$csv" >"$fast" || fail "writing $fast"
	# The clock ticks in steps of about 10 ns, so every row climbs at the
	# same few x values: --dodge sets the rows 3 px apart to keep each visible.
	draw plot-lab2-fast "$fast" --kind cdf --x ns --y pct --series label --mark p50,p90,p99 \
		--hide "malloc 1 MiB (forced mmap)" --dodge 3 \
		--title "Lab 2 up close: the fast rows, p0 to p99" \
		--subtitle "times come in the clock's steps; rows drawn 3 px apart so none hides another" \
		--xlabel "ns per call (linear; $VARIANCE_ITERS calls a row)" \
		--ylabel "calls this fast or faster"
}

# ------------------------------------------------------------------ Lab 4
# malloc + memset + free per frame, 8 to 40 MiB, plus Lab 4's edge for
# this glibc and page size (./frames --edge: 33550312 with 4 KiB pages up
# to 2.42) and 8 bytes past it, which churns.  Tuned: the two MALLOC_*_
# variables of make sizes.
# commas N: N with thousands commas, as README writes numbers.
commas() {
	awk -v n="$1" 'BEGIN { s = n ""
		while (match(s, /[0-9][0-9][0-9][0-9](,|$)/)) s = substr(s, 1, RSTART) "," substr(s, RSTART + 1)
		print s }'
}

plot_lab4() {
	local edge thr trim
	csv=$CSV_DIR/lab4.csv
	rm -f "$csv"
	edge=$(./frames --edge) || fail "./frames --edge"
	thr=$(awk -v KIND=knob -v NAME=THR -f tools/grading/steps.awk) &&
		trim=$(awk -v KIND=knob -v NAME=TRIM -f tools/grading/steps.awk) || fail "steps.awk's THR, TRIM"
	sizes="$(for m in $(seq 8 2 40); do echo $((m << 20)); done; echo "$edge"; echo $((edge + 8)))"
	sizes=$(echo "$sizes" | sort -n)
	n=$(echo "$sizes" | wc -l)
	i=0
	for s in $sizes; do
		i=$((i + 1))
		progress "Lab 4, size $i of $n: $s bytes"
		add_rows "$csv" policy "untuned" ./frames --alloc memset --csv --size "$s" --frames "$FRAMES"
		add_rows "$csv" policy "tuned (MALLOC_*_)" MALLOC_MMAP_THRESHOLD_="$thr" \
			MALLOC_TRIM_THRESHOLD_="$trim" ./frames --alloc memset --csv --size "$s" \
			--frames "$FRAMES"
	done
	# The edge is two sizes 8 bytes apart, so it draws as the untuned line's
	# vertical jump at the cap, over the marker; rings: what frames predicted.
	draw plot-lab4-cap "$csv" --kind line --x size --y minor_faults --series policy \
		--xbytes --logy --ref "predicted_faults:predicted (frames.c)" \
		--vline "33554432:32 MiB cap" \
		--title "Lab 4: page faults vs frame size ($FRAMES frames a run)" \
		--subtitle "edge (frames --edge): $(commas "$edge") B adapts, $(commas $((edge + 8))) B churns" \
		--xlabel "bytes per frame (malloc + memset + free)" \
		--ylabel "minor faults, whole run (log scale)"
}

# ------------------------------------------------------------------ Lab 5
plot_lab5() {
	csv=$CSV_DIR/lab5.csv
	rm -f "$csv"
	progress "Lab 5: one CPU, $BYTES a run"
	add_rows "$csv" cpus "1 CPU" ./yes --csv --bytes "$BYTES" --cpus 0,0
	if [ "$NCPU" -ge 2 ]; then
		progress "Lab 5: two CPUs, $BYTES a run"
		add_rows "$csv" cpus "2 CPUs" ./yes --csv --bytes "$BYTES" --cpus 0,1
	fi
	draw plot-lab5-pipe "$csv" --kind line --x size --y gib_per_s --series align --style cpus \
		--median --logx --xbytes \
		--title "Lab 5: write() into a pipe, GiB/s (median of each row's runs)" \
		--subtitle "1 CPU: writer and reader pinned to one CPU, taking turns; 2 CPUs: one each" \
		--xlabel "buffer size per write() (log scale)" --ylabel "GiB/s"
}

# ------------------------------------------------------------------ Lab 6
# RssAnon at the end of a run against threads, per policy: the defaults,
# MALLOC_ARENA_MAX=2, and the defaults after malloc_trim(0).  ROUNDS
# requests per thread (default 64 here).
plot_lab6() {
	csv=$CSV_DIR/lab6.csv
	rm -f "$csv"
	for t in 1 2 4 8 16; do
		progress "Lab 6: $t threads, three policies"
		add_rows "$csv" policy "default" ./arenas --csv --threads "$t" --rounds "$ROUNDS"
		add_rows "$csv" policy "MALLOC_ARENA_MAX=2" MALLOC_ARENA_MAX=2 ./arenas --csv \
			--threads "$t" --rounds "$ROUNDS"
		add_rows "$csv" policy "default + malloc_trim(0)" ./arenas --csv --trim --threads "$t" \
			--rounds "$ROUNDS"
	done
	# Live bytes in KiB beside them (the program's own count, the same under
	# every policy): the gap between a line and it is what malloc keeps.
	awk "$(cat tools/lib/csv.awk)"'
		/^#/ { print; next }
		!c { n = csv_split($0, f); for (i = 1; i <= n; i++) if (f[i] == "live_after") c = i
		     if (!c) exit 1; print $0 ",live_kib"; next }
		{ csv_split($0, f); printf "%s,%.1f\n", $0, f[c] / 1024 }' "$csv" >"$csv.live" &&
		mv "$csv.live" "$csv" || fail "adding live_kib to $csv"
	draw plot-lab6-rss "$csv" --kind line --x threads --y anon_end_kib --series policy --logx2 --logy \
		--also "live_kib:live (held by the threads)" \
		--title "Lab 6: resident memory vs threads ($ROUNDS requests a thread)" \
		--subtitle "RssAnon at the end of each run beside the bytes still live" \
		--xlabel "worker threads (log scale; the same requests and live set a thread)" \
		--ylabel "KiB (log scale)"
}

# ------------------------------------------------------------ every lab
# Each lab's pictures, by plot_ID or by its driver; then every picture its
# row names must be there, new.
while read -r id program driver more threads old plots rec knobs quick; do
	for n in ${plots//,/ }; do rm -f "$PLOTS_DIR/plot-$id-$n.svg"; done
	if declare -F "plot_$id" >/dev/null; then
		"plot_$id"
	else
		progress "$id: tools/labs/$driver plot"
		tools/labs/$driver plot >/dev/null || fail "tools/labs/$driver plot failed"
	fi
	for n in ${plots//,/ }; do
		f=$PLOTS_DIR/plot-$id-$n.svg
		[ -s "$f" ] || fail "$id drew no $f (tools/labs/registry names it)"
		[[ " ${drawn[*]} " == *" $f "* ]] || drawn+=("$f")
	done
done <<<"$rows"

progress
for f in "${drawn[@]}"; do echo "wrote $f"; done
[ "$NCPU" -ge 2 ] || echo "(one CPU online: Lab 5 has no two-CPU lines)"
echo "CSV in $CSV_DIR/; $((SECONDS - T0)) s"
