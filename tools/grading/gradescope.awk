# tools/grading/gradescope.awk - Gradescope's results.json for one graded
# submission, and for an upload that could not be graded.  Loaded by
# tools/grade.sh after tools/grading/grade.awk, which calls gradescope() at
# its end with the checks it made (O_* arrays: status, step, check, got,
# want, why, points, answer or run, visibility); run_autograder calls
# gradescope_error() alone (awk -f gradescope.awk, BEGIN only).
#
# Run it in the C locale (grade.sh and run_autograder do): strings are
# walked byte by byte, and every byte sequence that is not UTF-8 becomes
# U+FFFD, so results.json is valid UTF-8 JSON whatever a student's file
# holds (a Latin-1 name, a backslash, a binary upload).
#
# Variables (from the environment, never -v, which would read a backslash
# in a value as an escape):
#   GS_EXECUTION_TIME  whole seconds run_autograder had run when it started
#                      the grader (0 outside it: grade.sh's own time
#                      rounds to 0)
#   GS_MESSAGE         gradescope_error()'s reason
#   GS_UNSEALED        the re-run's code ran without the sandbox's whole
#                      isolation: how (recheck.sh's "isolation:" line),
#                      said after the code's score
# The top-level visibility is "visible" (each test carries its own);
# stdout_visibility is "hidden": run_autograder's console holds the build
# and the instructor's logs, not feedback.

# The byte values, once: ORD[c] for a one-character string c.
function gs_init(    i) {
	if (GS_READY) return
	for (i = 1; i < 256; i++) ORD[sprintf("%c", i)] = i
	GS_READY = 1
}

# How many continuation bytes a UTF-8 lead byte B wants (-1: not a lead),
# and the range its first continuation must fall in (no overlong forms,
# no surrogates, nothing above U+10FFFF).
function gs_need(b) {
	if (b >= 194 && b <= 223) { LO = 128; HI = 191; return 1 }
	if (b == 224) { LO = 160; HI = 191; return 2 }
	if (b == 237) { LO = 128; HI = 159; return 2 }
	if (b >= 225 && b <= 239) { LO = 128; HI = 191; return 2 }
	if (b == 240) { LO = 144; HI = 191; return 3 }
	if (b >= 241 && b <= 243) { LO = 128; HI = 191; return 3 }
	if (b == 244) { LO = 128; HI = 143; return 3 }
	return -1
}

# S as a JSON string: quote and backslash escaped, control characters as
# \n, \t or \u00XX, invalid UTF-8 as \ufffd.
function json_str(s,    o, i, n, c, b, k, j, ok) {
	gs_init()
	o = ""; n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1); b = ORD[c]
		if (c == "\"" || c == "\\") { o = o "\\" c; continue }
		if (c == "\n") { o = o "\\n"; continue }
		if (c == "\t") { o = o "\\t"; continue }
		if (b < 32 || b == 127) { o = o sprintf("\\u%04x", b); continue }
		if (b < 128) { o = o c; continue }
		k = gs_need(b); ok = k > 0 && i + k <= n
		for (j = 1; ok && j <= k; j++) {
			b = ORD[substr(s, i + j, 1)]
			ok = (j == 1) ? (b >= LO && b <= HI) : (b >= 128 && b <= 191)
		}
		if (ok) { o = o substr(s, i, k + 1); i += k }
		else o = o "\\ufffd"
	}
	return "\"" o "\""
}

# run_autograder's call: awk -v GS_ERROR_ONLY=1 -f gradescope.awk, no
# input; tools/grading/recheck.sh's: -v GS_EXERCISES=TSV -v GS_CHECK=FILE;
# run_autograder's, the code and the sheet: -v GS_MERGE=JSON -v GS_SHEET=JSON.
BEGIN {
	if (GS_ERROR_ONLY) { gradescope_error(); exit }
	if (GS_EXERCISES != "") { gradescope_exercises(); exit }
	if (GS_MERGE != "") { gradescope_merge(); exit }
}

# Gradescope's rank of a visibility: a test made of several checks takes
# the most hidden of theirs.
function gs_rank(v) {
	return v == "hidden" ? 3 : v == "after_due_date" ? 2 : v == "after_published" ? 1 : 0
}

# The fields every results.json starts with.
function gs_head(score, output, vis,    t) {
	if (ENVIRON["GS_UNSEALED"] != "") output = output " (" ENVIRON["GS_UNSEALED"] ")"
	t = ENVIRON["GS_EXECUTION_TIME"]
	if (t !~ /^[0-9]+$/) t = 0
	print "{"
	printf "  \"score\": %d,\n", score
	printf "  \"execution_time\": %d,\n", t
	printf "  \"visibility\": \"%s\",\n", (vis == "" ? "visible" : vis)
	print "  \"stdout_visibility\": \"hidden\","
	printf "  \"output\": %s,\n", json_str(output)
}

# An upload that could not be graded: no points, the reason (ENVIRON
# GS_MESSAGE), no tests.
function gradescope_error() {
	gs_head(0, ENVIRON["GS_MESSAGE"])
	print "  \"tests\": []"
	print "}"
}

# A test a step (its checks' lines as output), a test an answer of the
# sheet ("answer: NAME"); the runs at the sheet's parameters (lab1.q-...)
# are steps, scored with the answers and hidden as they are (O_VIS).  The
# top-level score is the tests' sum (runs + answers): 0 under INTEGRITY,
# as grade.awk withholds the whole score, so every test scores 0 then.
function gradescope(    i, g, n, name, key, GN, GS, GM, GB, GO, GV, v, line, sep) {
	n = 0
	for (i = 1; i <= NOUT; i++) {
		key = (O_ANS[i] && O_STEP[i] == "answers") ? "answer: " O_CHK[i] : O_STEP[i]
		if (!(key in GM)) { GN[++n] = key; GM[key] = 0; GS[key] = 0; GV[key] = "visible" }
		if (O_ST[i] != "SKIP") GM[key] += O_PTS[i]
		if (O_ST[i] == "PASS" && !integ) GS[key] += O_PTS[i]
		if (O_ST[i] == "FAIL" || O_ST[i] == "ENV" || O_ST[i] == "INTEGRITY") GB[key] = 1
		v = O_VIS[i]
		if (gs_rank(v) > gs_rank(GV[key])) GV[key] = v
		line = sprintf("%s %s: got %s, want %s", O_ST[i], O_CHK[i], O_GOT[i], O_WANT[i]) (O_WHY[i] != "" ? " (" O_WHY[i] ")" : "")
		GO[key] = GO[key] (GO[key] == "" ? "" : "\n") line
	}
	gs_head(score + ascore, sprintf("%s: %s, runs %d/%d, answers %s; %d FAIL, %d ENV, %d INTEGRITY", \
		H["student"], STATUS, score, total, HAVE_ANS ? ascore + 0 "/" atotal : "none", fails + 0, envs + 0, integ + 0))
	print "  \"tests\": ["
	for (g = 1; g <= n; g++) {
		key = GN[g]; name = key
		# (the row "file" is named as before it was a row: a course's
		# Gradescope history keys on the names)
		if ((key in STEP_N) && key != "file") name = key " (" STEP_LABEL[STEP_N[key]] ")"
		sep = (g < n) ? "," : ""
		printf "    {\"name\": %s, \"score\": %d, \"max_score\": %d, \"status\": \"%s\", \"visibility\": \"%s\", \"output\": %s}%s\n", \
			json_str(name), GS[key], GM[key], (GB[key] ? "failed" : "passed"), GV[key], json_str(GO[key]), sep
	}
	print "  ]"
	print "}"
}

# The grade of a student's code (tools/grading/recheck.sh): a test an
# exercise.  GS_EXERCISES holds a line an exercise, NAME FILE GOT MAX WHY
# (tab-separated; WHY: why its region was refused, its stub graded in its
# place, or empty); GS_CHECK is
# make check's output, whose lines under "NAME (FILE)" are that test's.
function gradescope_exercises(    line, f, n, ne, E, F, G, M, Y, O, cur, s, m, i, e) {
	while ((getline line < GS_EXERCISES) > 0) {
		n = split(line, f, "\t"); e = f[1]
		E[++ne] = e; F[e] = f[2]; G[e] = f[3] + 0; M[e] = f[4] + 0; Y[e] = (n >= 5) ? f[5] : ""
		s += G[e]; m += M[e]
	}
	close(GS_EXERCISES)
	cur = ""
	while ((getline line < GS_CHECK) > 0) {
		if (line ~ /^lab[0-9]+\.[a-z0-9_]+ [(]/) { cur = substr(line, 1, index(line, " ") - 1); continue }
		if (cur != "" && line ~ /^  /) O[cur] = O[cur] (O[cur] == "" ? "" : "\n") substr(line, 3)
		else cur = ""
	}
	close(GS_CHECK)
	gs_head(s, sprintf("The code re-run by the grader: %d/%d", s, m))
	print "  \"tests\": ["
	for (i = 1; i <= ne; i++) {
		e = E[i]
		printf "    {\"name\": %s, \"score\": %d, \"max_score\": %d, \"status\": \"%s\", \"visibility\": \"visible\", \"output\": %s}%s\n", \
			json_str(e " (" F[e] ")"), G[e], M[e], (G[e] == M[e] ? "passed" : "failed"), \
			json_str(Y[e] != "" ? "refused: " Y[e] "\nits stub (the skeleton as shipped) graded instead:\n" O[e] : O[e]), (i < ne ? "," : "")
	}
	print "  ]"
	print "}"
}

# run_autograder's grade of code and sheet: the tests of GS_MERGE (the
# code's results.json, tools/grading/recheck.sh), then those of GS_SHEET
# (tools/grade.sh's for the sheet re-run here) that wait for the due date:
# its answers and the runs at its parameters.  With them the whole result
# waits too: its total would tell right answers from wrong.  GS_MESSAGE
# (ENVIRON): why the sheet was not marked, a test of its own instead.
function gradescope_merge(    line, n, T, s, a, why, v, i) {
	while ((getline line < GS_MERGE) > 0) {
		if (line ~ /^  "score": [0-9]+,$/) { v = line; gsub(/[^0-9]/, "", v); s = v + 0 }

		else if (line ~ /^    [{]"name": /) { sub(/,$/, "", line); T[++n] = line }
	}
	close(GS_MERGE)
	why = ENVIRON["GS_MESSAGE"]; a = 0
	if (why == "") {
		while ((getline line < GS_SHEET) > 0) {
			if (line !~ /^    [{]"name": / || line !~ /"visibility": "after_due_date"/) continue
			sub(/,$/, "", line); T[++n] = line
			v = line; sub(/^.*"score": /, "", v); sub(/,.*/, "", v); a += v + 0
		}
		close(GS_SHEET)
	} else
		T[++n] = sprintf("    {\"name\": \"answer sheet\", \"score\": 0, \"max_score\": 0, \"status\": \"failed\", \"visibility\": \"visible\", \"output\": %s}", json_str(why))
	gs_head(s + a, sprintf("The code re-run by the grader: %d; the answer sheet: %s", s, \
		why == "" ? "marked, shown after the due date" : "not marked"), why == "" ? "after_due_date" : "")
	print "  \"tests\": ["
	for (i = 1; i <= n; i++) print T[i] (i < n ? "," : "")
	print "  ]"
	print "}"
}
