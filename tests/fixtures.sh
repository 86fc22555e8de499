#!/usr/bin/env bash
# tests/fixtures.sh - the grader against submissions recorded on other
# kernels and page sizes (tests/fixtures/, see its README): each grades
# clean, and every expectation the grader prints for it is the one the awk
# model it replaced derived on its own (tests/fixtures/wants.txt, frozen at
# c09efaf: the one model, tools/include/model.h, asked through grade.awk
# from each record's own heap, command and environment); and on a
# submission made here, for every frames record, the grader's expected
# faults equal the predicted_faults frames printed (the model asked with
# what the file recorded, and as the program asks it).
. "$(dirname "$0")/lib.sh" || exit 1

: >"$TMP/wants.now"
for f in tests/fixtures/*/submission-*.txt; do
	name=${f#tests/fixtures/}
	tools/grade.sh "$f" >"$TMP/fx_out" 2>"$TMP/fx_err"; rc=$?
	awk -v F="$f" '$1 ~ /^(PASS|FAIL|ENV|INTEGRITY)$/ && $2 != "file" && $3 != "commands" {
		print F "\t" $2 "\t" $3 "\t" $5 }' "$TMP/fx_out" >>"$TMP/wants.now"
	bad=$(grep -cE '^(FAIL|ENV|INTEGRITY) ' "$TMP/fx_out")
	if [ $rc -eq 0 ] && [ "$bad" -eq 0 ] && grep -q '^Status: CLEAN$' "$TMP/fx_out"; then
		pass "fixture $name grades clean ($(tail -n 1 "$TMP/fx_out"))"
	else
		fail "fixture $name" "exit $rc: $(grep -m 3 -A1 -E '^(FAIL|ENV|INTEGRITY)' "$TMP/fx_out") $(head -c 200 "$TMP/fx_err")"
	fi
done

grep -v '^#' tests/fixtures/wants.txt >"$TMP/wants.then"
differ=$(diff "$TMP/wants.then" "$TMP/wants.now" | grep -c '^[<>]')
if [ ! -s "$TMP/wants.then" ] || [ ! -s "$TMP/wants.now" ]; then
	fail "the grader's expectations of the fixtures, as the awk model had them" "nothing compared"
elif [ "$differ" -eq 0 ]; then
	pass "the grader's expectations of the fixtures are the awk model's ($(grep -c . "$TMP/wants.then") checks)"
else
	fail "the grader's expectations of the fixtures, as the awk model had them" "$differ lines differ:
$(diff "$TMP/wants.then" "$TMP/wants.now" | head -n 8)"
fi

# The loader model: Debian's arm64 libc aligns its segments to 64 KiB.
# Below 64 KiB pages each run unmaps 1 or 2 leftover pieces at start-up,
# so the munmap difference of two runs is allowed +-1, and said why; at
# 64 KiB pages (and on x86-64) there are none: exact.
for ps in 4k 16k 64k; do
	f=tests/fixtures/arm64-6.12-$ps/submission-frames2.txt
	tools/grade.sh "$f" >"$TMP/fx_out" 2>&1
	n=$(grep -c '^PASS  lab1\.[a-z0-9-]*  *munmap/2frames .* +-1 ' "$TMP/fx_out")
	e=$(grep -c '^PASS  lab1\.[a-z0-9-]*  *munmap/2frames .* exact ' "$TMP/fx_out")
	w=$(grep -A1 '^PASS  lab1\.[a-z0-9-]*  *munmap/2frames ' "$TMP/fx_out" |
		grep -c "the loader unmaps 1 or 2 pieces of libc's 65536-byte-aligned segments")
	case $ps in
	64k) want="0 9 0" ;;
	*) want="9 0 9" ;;
	esac
	if [ "$n $e $w" = "$want" ]; then
		pass "fixture arm64 $ps: Lab 1's munmap checks $( [ $ps = 64k ] && echo exact || echo '+-1 with the loader named')"
	else
		fail "fixture arm64 $ps: munmap model" "+-1: $n, exact: $e, loader why: $w (want $want)"
	fi
done
# fx_munmap FILE RUN DELTA: the file with RUN's munmap count moved by DELTA
fx_munmap() {
	awk -v s="@run $2" -v d="$3" '$0 == s { r = 1 } r && /^syscalls: / { n = split($0, a, "munmap="); $0 = a[1] "munmap=" a[2] + d; r = 0 } { print }' "$1"
}
# fx_munmap_fails PAGE DELTA WHY: that arm64 fixture with lab1.tune-malloc's
# 4-frame munmap count moved by DELTA fails the check, exit 1.
fx_munmap_fails() {
	fx_munmap "tests/fixtures/arm64-6.12-$1/submission-frames2.txt" lab1.tune-malloc.strace4 "$2" >"$TMP/fx_m.txt"
	tools/grade.sh "$TMP/fx_m.txt" >"$TMP/fx_out" 2>&1; rc=$?
	if [ $rc -eq 1 ] && grep -q '^FAIL  lab1\.tune-malloc  *munmap/2frames ' "$TMP/fx_out"; then
		pass "fixture arm64 $1 with $2 munmap(s) more: FAIL ($3), exit 1"
	else
		fail "fixture arm64 $1, munmap +$2" "exit $rc: $(grep -m 2 -E '^(FAIL|PASS)  lab1\.tune-malloc  *munmap' "$TMP/fx_out")"
	fi
}
fx_munmap_fails 16k 2 "more than the loader's pieces can differ by"
fx_munmap_fails 64k 1 "no loader pieces at 64 KiB pages"
# A difference below 0 is the loader too (the 2-frame run unmapped one
# piece more): -1 passes at 16 KiB pages, -2 is "a count cannot be negative".
f=tests/fixtures/arm64-6.12-16k/submission-frames2.txt
base=$(tools/grade.sh "$f" | awk '$2 == "lab1.tune-malloc" && $3 == "munmap/2frames" { print $4 }')
for d in -1 -2; do
	fx_munmap "$f" lab1.tune-malloc.strace4 $((d - ${base:-0})) >"$TMP/fx_m.txt"
	want=$([ "$d" = -1 ] && echo PASS || echo FAIL)
	if tools/grade.sh "$TMP/fx_m.txt" | grep -q "^$want  lab1\.tune-malloc  *munmap/2frames  *$d "; then
		pass "fixture arm64 16k: Lab 1's munmap difference $d: $want"
	else
		fail "fixture arm64 16k: Lab 1's munmap difference $d: $want" \
			"$(tools/grade.sh "$TMP/fx_m.txt" | grep -A1 'tune-malloc  *munmap/2frames')"
	fi
done
# Lab 2's forced-mmap munmap count (the run at VARIANCE_ITERS minus the
# run at 1) has the same slack: a make kernels guest at 4 KiB pages showed
# one piece more in one run.  +1 passes, naming the loader; +2 fails; at
# 64 KiB pages +1 fails.
fx_lab2() { # PAGE DELTA WANT(PASS|FAIL)
	fx_munmap "tests/fixtures/arm64-6.12-$1/submission-frames2.txt" lab2.mmap.straceN "$2" >"$TMP/fx_m.txt"
	tools/grade.sh "$TMP/fx_m.txt" >"$TMP/fx_out" 2>&1
	if grep -q "^$3  lab2\.mmap  *munmap_calls " "$TMP/fx_out" &&
	   { [ "$3" = FAIL ] || grep -A1 '^PASS  lab2\.mmap  *munmap_calls ' "$TMP/fx_out" | grep -q 'the loader unmaps'; }; then
		pass "fixture arm64 $1, Lab 2's munmap count +$2: $3"
	else
		fail "fixture arm64 $1, Lab 2's munmap count +$2: $3" "$(grep -A1 'lab2\.mmap  *munmap_calls' "$TMP/fx_out")"
	fi
}
fx_lab2 4k 1 PASS
fx_lab2 4k 2 FAIL
fx_lab2 64k 1 FAIL

# Lab 6's trim bound is by page size: a run that trimmed nothing fails at
# 4 and 16 KiB pages (at 64 KiB, 256 live blocks may keep every page).
for ps in 4k 16k; do
	f=tests/fixtures/arm64-6.12-$ps/submission-frames2.txt
	awk "$(cat tools/lib/csv.awk)"'
		$0 == "@run lab6.trim" { r = 1 }
		r && /^csv: / { line = substr($0, 6); n = csv_split(line, f)
			if (!k) { for (i = 1; i <= n; i++) c[f[i]] = i; k = 1 }
			else { f[c["anon_trimmed_kib"]] = f[c["anon_after_kib"]]; line = ""
				for (i = 1; i <= n; i++) line = line (i > 1 ? "," : "") (f[i] ~ /[ ,]/ ? "\"" f[i] "\"" : f[i])
				$0 = "csv: " line } }
		$0 == "@end" { r = 0 } { print }' "$f" >"$TMP/fx_t.txt"
	tools/grade.sh "$TMP/fx_t.txt" >"$TMP/fx_out" 2>&1; rc=$?
	if [ $rc -eq 1 ] && grep -q '^FAIL  lab6\.trim  *trimmed_kib ' "$TMP/fx_out"; then
		pass "fixture arm64 $ps: malloc_trim that handed nothing back fails lab6.trim"
	else
		fail "fixture arm64 $ps: untrimmed lab6.trim" "exit $rc: $(grep -m 1 'lab6\.trim  *trimmed' "$TMP/fx_out")"
	fi
done

# A submission made here (the run's shared one: tests/lib.sh): the
# grader's expectation for each frames step is exactly the program's own
# prediction.
shared_submission && cp "$SUB" "$TMP/fx_sub.txt" || fail "fixtures: make submit at small knobs" "$SUB_WHY"
if [ -f "$TMP/fx_sub.txt" ]; then
	EXPECT_OUT=$TMP/fx_expect tools/grade.sh "$TMP/fx_sub.txt" >"$TMP/fx_out" 2>&1; rc=$?
	graded_clean "fixtures: a submission made here grades clean" "$rc" "$TMP/fx_out"
	# predicted_faults of each step's main record, by header name
	awk "$(cat tools/lib/csv.awk)"'
		/^@run / { id = $2; nh = 0; next }
		/^csv: / { line = substr($0, 6)
			if (!nh) { nh = csv_split(line, h); for (i = 1; i <= nh; i++) c[h[i]] = i; next }
			csv_split(line, f); if ("predicted_faults" in c) print id, f[c["predicted_faults"]]; delete c }' \
		"$TMP/fx_sub.txt" | sort >"$TMP/fx_pred"
	sort "$TMP/fx_expect" >"$TMP/fx_want"
	both=$(join "$TMP/fx_want" "$TMP/fx_pred" | wc -l)
	differ=$(join "$TMP/fx_want" "$TMP/fx_pred" | awk '$2 != $3')
	if [ "$both" -ge 14 ] && [ -z "$differ" ]; then
		pass "fixtures: grader's model = frames' predicted_faults on all $both frames steps"
	else
		fail "fixtures: grader's model vs frames' prediction" "$both steps compared; differ: $differ"
	fi
	# The same file as if THP were "always": its fault steps ran with
	# --no-thp, so they stay comparable (an old file without it is ENV).
	# (every copy of the THP line: the header and each run's own column)
	fx_thp=$(sed -n 's/^thp: //p' "$TMP/fx_sub.txt")
	sed "s/$fx_thp/enabled=always defrag=madvise zero_page=1/g" "$TMP/fx_sub.txt" >"$TMP/fx_always.txt"
	tools/grade.sh "$TMP/fx_always.txt" >"$TMP/fx_out" 2>&1; rc=$?
	graded_clean "fixtures: under THP always, --no-thp runs still grade clean" "$rc" "$TMP/fx_out"
fi
