#!/usr/bin/env bash
# tests/fixtures.sh - the grader against submissions recorded on other
# kernels (tests/fixtures/, see its README), and the grader's model against
# the program's own on a submission made here: for every frames record,
# tools/grading/grade.awk's expected faults equal the predicted_faults frames
# printed, so the two models cannot drift apart.
. "$(dirname "$0")/lib.sh" || exit 1

for f in tests/fixtures/*/submission-*.txt; do
	name=${f#tests/fixtures/}
	tools/grade.sh "$f" >"$TMP/fx_out" 2>"$TMP/fx_err"; rc=$?
	envs=$(grep -c '^ENV ' "$TMP/fx_out"); fails=$(grep -c '^FAIL ' "$TMP/fx_out")
	case $name in
	*thp-always*)
		# every ENV line is a fault count that ran without --no-thp
		others=$(grep -A1 '^ENV ' "$TMP/fx_out" | grep '^      (' | grep -vc 'THP always, run without --no-thp')
		if [ $rc -eq 3 ] && [ "$fails" -eq 0 ] && [ "$envs" -gt 0 ] && [ "$others" -eq 0 ]; then
			pass "fixture $name: exit 3, $envs checks ENV (THP always without --no-thp), no FAIL"
		else
			fail "fixture $name" "exit $rc, $fails FAIL, $envs ENV ($others for another reason): $(grep -m 3 -E '^(FAIL|ENV)' "$TMP/fx_out")"
		fi ;;
	*)
		if [ $rc -eq 0 ] && [ "$fails" -eq 0 ] && [ "$envs" -eq 0 ]; then
			pass "fixture $name grades clean ($(tail -n 1 "$TMP/fx_out"))"
		else
			fail "fixture $name" "exit $rc: $(grep -m 3 -A1 -E '^(FAIL|ENV)' "$TMP/fx_out") $(head -c 200 "$TMP/fx_err")"
		fi ;;
	esac
done

# Format 1 files carry no Lab 6: those checks are skipped, not failed.
tools/grade.sh tests/fixtures/zero-page-6.18/submission-frames2.txt >"$TMP/fx_out" 2>&1
n=$(grep -c '^SKIP  lab6\.' "$TMP/fx_out")
cmp_num "fixtures: a format 1 file skips Lab 6's checks" "$n" -ge 4

# A submission made here: the grader's expectation for each frames step is
# exactly the program's own prediction.
FRAMES=3 SCALE=50 VARIANCE_ITERS=2000 COUNT_LARGE=50 BYTES=256K STUDENT=fixtures OUT=$TMP/fx_sub.txt \
	tools/submit.sh >"$TMP/fx_submit" 2>&1 || fail "fixtures: make submit at small knobs" "$(tail -n 3 "$TMP/fx_submit")"
if [ -f "$TMP/fx_sub.txt" ]; then
	EXPECT_OUT=$TMP/fx_expect tools/grade.sh "$TMP/fx_sub.txt" >"$TMP/fx_out" 2>&1; rc=$?
	cmp_num "fixtures: a submission made here grades clean (exit status)" "$rc" -eq 0
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
	cmp_num "fixtures: under THP always, --no-thp runs still grade clean (exit status)" "$rc" -eq 0
fi
