#!/usr/bin/env bash
# tests/why.sh - frames' why: lines say what the measurement shows.
#
# Every Lab 1 and Lab 4 run that tools/grading/steps declares (graded and
# matrix rows: each policy, alloc kind and size class the labs use; the
# matrix rows in make test-all) is run at a few frames.  Its why: lines
# state how many frames ran on fresh pages (F) and the faults a fresh page
# takes ("K a page"); a frame is
# P = ceil(SIZE / PAGE) pages, so the measured minor faults / (F x P) must
# be K.  Deterministic: those counts hold on any kernel (K is 2 where a read
# maps the zero page and nothing writes first, else 1) and page size.  What
# the ratio leaves over is a page or two a frame (malloc's headers, the
# frame's last partial page) and, on a trimmed heap, the 128 KiB a trim
# keeps: under 2% of the smallest frame here (1 MiB at 4 KiB pages,
# 256 pages; at 64 KiB pages the 1 MiB rows are 16 pages, so they get a
# page a frame of slack on top).  1 and 2 are 50% apart.
# A row with --vary makes no prediction and states no K; it is not checked.
. "$(dirname "$0")/lib.sh" || exit 1

WN=3                                  # frames a run
[ "$TEST_TIER" = quick ] && WN=2      # the least with a reused frame
PAGE=$(getconf PAGESIZE)
RF=$(read_faults_per_page)            # tools/lib/lib.sh
echo "note: a page read, then written, faults ${RF:-?} time(s) on this kernel"

# The records: ID|ENV|COMMAND for each lab1./lab4. run, graded or matrix.
wy_records() {
	local knobs="FRAMES=$WN N4=$WN NV=$WN VARIANCE_ITERS=1 COUNT_LARGE=1 BYTES=1M"   # (THR, TRIM: steps_derive())
	{
		awk -v KIND=graded -v KNOBS="$knobs" -f tools/grading/steps.awk tools/grading/steps |
			awk -F'|' '$2 == "run" { print $1 "|" $3 "|" $4 }'
		# The matrix's rows (a glibc's edge, its parser's mistakes) in
		# make test-all; the quick tier checks what a submission runs.
		[ "$TEST_TIER" = quick ] ||
			awk -v KIND=matrix -v KNOBS="$knobs" -f tools/grading/steps.awk tools/grading/steps |
			awk -F'|' '{ print $1 "|" $3 "|" $4 }'
	} | awk -F'|' '$1 ~ /^lab[14]\./ && !seen[$1]++'
}

# wy_bytes WORD: --size's value in bytes (a number, or K, M, G).
wy_bytes() {
	local n=${1%[KMG]}
	case $1 in
	*K) echo $((n << 10)) ;; *M) echo $((n << 20)) ;; *G) echo $((n << 30)) ;; *) echo "$n" ;;
	esac
}

# wy_claims REPORT: "F K" from the why: lines (nothing when there is none).
wy_claims() {
	awk '{ l = $0; sub(/^ +/, "", l); sub(/^why: +/, "", l) }
	     match(l, /^[0-9]+ of [0-9]+ frames on fresh pages/) { split(l, w, " "); f = w[1] }
	     match(l, /^[12] a page: /) { k = substr(l, 1, 1) }
	     END { if (f != "" && k != "") print f, k }' "$1"
}

tol=$(awk -v KIND=tolerance -f tools/grading/steps.awk)
./frames --frames 1 --size 1M --alloc memset >"$TMP/tol" 2>&1
if grep -q "^  predicted: .*(exact within $tol: the grader's tolerance)$" "$TMP/tol"; then
	pass "why: 'exact' is shown with the grader's tolerance ($tol faults)"
else
	fail "why: 'exact' is shown with the grader's tolerance" \
		"want 'exact within $tol', got: $(grep predicted: "$TMP/tol")"
fi

fb=$(frame_bytes)                   # tools/lib/lib.sh: ./frames' --size default
[ -n "$fb" ] || { fail "why: ./frames --help gives the frame's bytes" "no --size default"; exit 0; }
n=0
declare -A ex=()
while read -r st e; do ex[$st]=$e; done < <(exercise_steps)
while IFS='|' read -r id envs cmd; do
	[ "$envs" = - ] && envs=
	# An exercise's run states the solution's policy: a handout's stub
	# does not do what it states (make check grades it there).
	if [ -n "${ex[$id]:-}" ] && ! needs_solution "${ex[$id]}" "why $id"; then
		n=$((n + 1)); continue
	fi
	args=() size=$fb vary=0 prev=
	for w in $cmd; do
		[ "$w" = --csv ] && continue
		[ "$prev" = --size ] && size=$(wy_bytes "$w")
		[ "$prev" = --vary ] && vary=1
		args+=("$w") prev=$w
	done
	[ "$vary" = 1 ] && continue
	n=$((n + 1))
	# shellcheck disable=SC2086
	env $envs "${args[@]}" >"$TMP/$id" 2>&1 || { fail "why $id: runs" "$(tail -n 3 "$TMP/$id")"; continue; }
	read -r f k <<<"$(wy_claims "$TMP/$id")"
	got=$(field "$TMP/$id" "minor faults")
	if [ -z "${k:-}" ]; then
		fail "why $id: states frames on fresh pages and faults a page" "$(grep -A4 'why:' "$TMP/$id")"
		continue
	fi
	p=$(( (size + PAGE - 1) / PAGE ))
	if awk -v g="$got" -v f="$f" -v p="$p" -v k="$k" 'BEGIN {
		if (g !~ /^[0-9]+$/ || f == 0) exit 1
		d = g / (f * p) - k; if (d < 0) d = -d
		exit !(d <= 0.02 * k + 1 / p) }'; then
		pass "why $id: $k a page on $f fresh frame(s) of $p pages; measured $got"
	else
		fail "why $id: $k a page on $f fresh frame(s) of $p pages" \
			"measured $got faults, $(awk -v g="$got" -v d="$((f * p))" 'BEGIN { printf "%.3f", d ? g / d : 0 }') a page: $(grep -A4 'why:' "$TMP/$id" | tr -s ' ' | tr '\n' '|')"
	fi
done < <(wy_records)
# (A floor, so that a step table that lost its rows fails here: 14 graded
# rows without --vary, 20 with the matrix's.)
cmp_num "why: Lab 1 and Lab 4 runs checked (tools/grading/steps)" "$n" -ge "$([ "$TEST_TIER" = quick ] && echo 12 || echo 15)"
full_only "why: the matrix's Lab 1 and Lab 4 rows"
