#!/usr/bin/env bash
# tests/thp.sh - transparent huge pages read first: the start-up probe's
# header line, and Lab 1 step 9 (calloc frames under glibc.malloc.hugetlb=1)
# against frames' per-mapping prediction.
#
# The probe (tools/include/env.h, env_thp_probe) reads, then writes, one
# aligned MADV_HUGEPAGE huge page and prints what it cost: "1+1 faults"
# where the write allocates a huge page (Linux 6.13+), "1+N" (N the huge
# page's base pages) where it splits the huge zero page, "1+0" where the
# read allocates.  Its line names the PMD size hpage_pmd_size gives, so
# this holds at any page size.  Step 9's untuned frames are all mapped:
# frames predicts each from its mapping's address, exact within the
# grader's tolerance, on any kernel whose probe found huge pages; where
# the kernel could not find one (thp fallbacks over 0) the count is above
# it, and the check is skipped with that reason.  Kernels before 6.13
# (the write splits the huge zero page) are checked through a build that
# takes that outcome, against the counts results/kernels.txt recorded.
. "$(dirname "$0")/lib.sh" || exit 1

THP=/sys/kernel/mm/transparent_hugepage
PAGE=$(getconf PAGESIZE)
PMD=$(cat "$THP/hpage_pmd_size" 2>/dev/null)
MODE=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$THP/enabled" 2>/dev/null)
./frames --env >"$TMP/env" 2>&1
LINE=$(sed -n 's/^# THP read+write: //p' "$TMP/env")

# --------------------------------------------------- the probe's line
if [ -z "$PMD" ] || [ "$MODE" = never ] || [ -z "$MODE" ]; then
	if [ -z "$LINE" ]; then
		pass "thp: no probe and no THP read+write line where THP is ${MODE:-absent}"
	else
		fail "thp: no probe where THP is ${MODE:-absent}" "got '$LINE'"
	fi
	skip "thp: the probe's outcome" "THP is ${MODE:-absent} here"
	skip "thp: step 9 against frames' prediction" "THP is ${MODE:-absent} here"
	STEP9=
else
	STEP9=yes
	# "2 MiB", "32 MiB", "512 MiB": as env_bytes_unit() writes the PMD size.
	if [ $((PMD % 1048576)) -eq 0 ]; then size="$((PMD / 1048576)) MiB"; else size="$((PMD / 1024)) KiB"; fi
	base=$((PMD / PAGE))
	case $LINE in
	"1+1 faults a $size page: the write allocates it (6.13+)" | \
	"1+$base faults a $size page: the write splits the zero page" | \
	"1+0 faults a $size page: the read allocates it" | \
	"no huge page to be had (thp_fault_fallback +"[1-9]*")" | \
	"no huge page: the read faulted a base page" | \
	"not probed ("*")")
		pass "thp: the probe's line parses: $LINE" ;;
	*)	fail "thp: the probe's line parses" "got '# THP read+write: $LINE' (PMD $size, $base base pages)" ;;
	esac
	# A huge page up to 32 MiB is probed; a larger one never, and says why.
	if [ "$PMD" -le $((32 << 20)) ]; then
		case $LINE in
		"not probed"* | "") fail "thp: a $size huge page is probed" "got '$LINE'" ;;
		*) pass "thp: a $size huge page is probed" ;;
		esac
	else
		case $LINE in
		"not probed (a huge page this big costs too much to probe)")
			pass "thp: a $size huge page is not probed, and the line says why" ;;
		*) fail "thp: a $size huge page is not probed" "got '$LINE'" ;;
		esac
	fi
fi

# ------------------------------------------ step 9 against the prediction
glibc=$(sed -n 's/^# glibc \([0-9.]*\) .*/\1/p' "$TMP/env")
tol=$(awk -v KIND=tolerance -f tools/grading/steps.awk)
if [ -z "$STEP9" ]; then
	:
elif [ "${glibc#2.}" -lt 35 ] 2>/dev/null; then
	skip "thp: step 9 against frames' prediction" "glibc $glibc has no glibc.malloc.hugetlb"
else
	case $LINE in
	"no huge page"*)
		skip "thp: step 9 against frames' prediction" "the probe found no huge page: $LINE" ;;
	*)
		# Three runs: ASLR decides how many huge pages fit each (30 or
		# 31 at 4 KiB pages), and each run's prediction must say.
		bad= seen= fb=0
		for i in 1 2 3; do
			GLIBC_TUNABLES=glibc.malloc.hugetlb=1 ./frames --frames 3 >"$TMP/s9" 2>&1
			got=$(sed -n 's/^  minor faults: *//p' "$TMP/s9")
			want=$(sed -n 's/^  predicted: *\([0-9]*\) (exact.*/\1/p' "$TMP/s9")
			f=$(sed -n 's/^  thp fallbacks: *\([0-9]*\) .*/\1/p' "$TMP/s9")
			fb=$((fb + ${f:-0}))
			seen="$seen $got/${want:-bound}"
			if [ -z "$want" ] || [ -z "$got" ] ||
			   [ $((got - want)) -gt "$tol" ] || [ $((want - got)) -gt "$tol" ]; then
				bad="$bad $got/${want:-bound}"
			fi
		done
		if grep -q 'smaller huge pages (mTHP) apply' "$TMP/s9"; then
			skip "thp: step 9 within $tol of its prediction" "mTHP sizes below the PMD apply here: a bound"
		elif [ "$fb" -gt 0 ] && [ -n "$bad" ]; then
			skip "thp: step 9 within $tol of its prediction" "$fb huge page(s) not to be had"
		elif [ -z "$bad" ]; then
			pass "thp: step 9 within $tol of its prediction, 3 runs (faults/predicted:$seen)"
		else
			fail "thp: step 9 within $tol of its prediction" "faults/predicted:$seen; $(grep -A5 '^  why:' "$TMP/s9" | tr -s ' ')"
		fi
		# Where a huge page fits a frame, the why: lines count them.
		if [ "$PMD" -le $((32 << 20)) ]; then
			if grep -q '^ *[0-9][0-9]* huge pages of ' "$TMP/s9"; then
				pass "thp: step 9's why: counts the frames' huge pages"
			else
				fail "thp: step 9's why: counts the frames' huge pages" "$(grep -A6 '^  why:' "$TMP/s9")"
			fi
		fi
		# The heap is madvised too, but not modelled: a bound, said so.
		GLIBC_TUNABLES=glibc.malloc.hugetlb=1 ./frames --frames 2 --tune >"$TMP/s9t" 2>&1
		if ! needs_solution lab1.tune_allocator "thp: step 9's tuned (heap) frames are a bound"; then
			:
		elif [ "$PMD" -gt $((32 << 20)) ] || grep -q 'huge pages in the heap are not modelled' "$TMP/s9t"; then
			pass "thp: step 9's tuned (heap) frames are a bound, and say why"
		else
			fail "thp: step 9's tuned frames are a bound" "$(grep -A3 '^  predicted:' "$TMP/s9t")"
		fi ;;
	esac
fi

# ------------------------------ the model on a kernel that splits (< 6.13)
# This machine cannot show what older kernels do, but results/kernels.txt
# recorded it: Debian's 6.1 and 6.12 under THP always, where the write
# splits the huge zero page.  frames built to take that outcome for its
# probe's (ENV_THP_PROBE_FORCE) must predict those counts for read-first
# calloc frames: 4 frames, 31 or 30 huge pages each as ASLR placed them.
# Recorded at 4 KiB pages, so checked there; and with the recording
# guests' read faults a page (their row in kernels.txt), not this
# machine's: a VM without the zero page (1 a page) predicts other counts.
# Columns: L1 NAME predicted, then 6.1 never, madvise, always, 6.12 the same.
rec=$(awk '$1 == "L1" && $2 == "default-calloc" { gsub(/[~+]/, ""); print $6, $9 }' results/kernels.txt)
rf=$(awk '/^read faults a page / { print ($8 == $11 && $8 ~ /^[12]$/) ? $8 : "" }' results/kernels.txt)
if [ -z "$STEP9" ] || [ "$PAGE" != 4096 ]; then
	skip "thp: the split model against kernels.txt's 6.1 and 6.12" "THP is ${MODE:-absent} here, or pages are not 4 KiB"
elif [ "${glibc#2.}" -lt 35 ] 2>/dev/null; then
	skip "thp: the split model against kernels.txt's 6.1 and 6.12" "glibc $glibc has no glibc.malloc.hugetlb"
elif [ -z "$rf" ]; then
	fail "thp: kernels.txt's read faults a page under THP always" "no one count (1 or 2) for 6.1 and 6.12 in results/kernels.txt"
elif ! ${CC:-cc} -std=gnu11 -O2 -DENV_THP_PROBE_FORCE=ENV_THP_WRITE_SPLITS \
	-DENV_READ_FAULTS_FORCE="$rf" -o "$TMP/frames-split" \
	frames.c $(kit_sources frames) -pthread -ldl 2>"$TMP/cc.err"; then
	fail "thp: frames builds with ENV_THP_PROBE_FORCE and ENV_READ_FAULTS_FORCE" "$(head -n 3 "$TMP/cc.err")"
else
	GLIBC_TUNABLES=glibc.malloc.hugetlb=1 "$TMP/frames-split" --frames 4 >"$TMP/split" 2>&1
	want=$(sed -n 's/^  predicted: *\([0-9]*\) (exact.*/\1/p' "$TMP/split")
	if grep -q 'of them a chunk header writes first' "$TMP/split"; then
		skip "thp: the split model against kernels.txt's 6.1 and 6.12" "this run's mapping began on a huge-page boundary; kernels.txt has no such run"
	elif [ -n "$want" ] && [ -n "$rec" ] && case " $rec " in *" $want "*) true ;; *) false ;; esac; then
		pass "thp: the split model predicts kernels.txt's 6.1/6.12 counts ($want, recorded: $rec; $rf read faults a page, as recorded)"
	else
		fail "thp: the split model predicts kernels.txt's 6.1/6.12 counts" "predicted '$want', recorded '$rec'"
	fi
fi

# ------------------------------------------------------ the old claim
# Before 6.13 a write split the huge zero page; since then it allocates a
# huge page.  No text may say the split is what read-first memory does.
old=$(grep -n -e 'split by the first' -e 'about 1 fault a page' \
	-e 'THP always: a read maps the huge zero page' \
	README.md docs/*.md FURTHER.md frames.c tools/include/*.h tools/labs/lab1.sh)
if [ -z "$old" ]; then
	pass "thp: the old 'split by the first write' text is gone"
else
	fail "thp: the old 'split by the first write' text is gone" "$old"
fi
if grep -q '1ced09e0331f' docs/platforms.md && grep -q '1ced09e0331f' tools/include/env.h; then
	pass "thp: docs/platforms.md (Which kernel?) and env.h cite commit 1ced09e0331f"
else
	fail "thp: docs/platforms.md (Which kernel?) and env.h cite commit 1ced09e0331f" "a citation is missing"
fi
