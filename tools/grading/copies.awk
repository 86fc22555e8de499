# tools/grading/copies.awk - the gradebook's rows, and copies of one run.
# Reads tools/grade.sh's summary (after tools/lib/csv.awk), a line a file:
#   FEATURES<TAB>CSV row     (grade.awk's csv_row: a graded file)
#   none<TAB>NAME            (not a submission)
# FEATURES are the values no second run of make submit repeats: each
# recorded time (tagged with its record and column), the run's temporary
# directory, the date.  Two files whose shared values are alike()
# (tools/grading/alike.awk, loaded first) are copies of one run, even
# after a few values were edited; two honest runs share next to none.
# Linear: each value remembers the first file that had it (its owner), so
# a file is compared only with the owners of its own values, whatever the
# number of files.  Prints each row with same_run_as (the group: "copy
# group N of M files", or empty) and, on stderr, each file found a copy
# with the earlier file it copies and how alike they are; exits 1 when any.
# A copy's status becomes REVIEW and its score 0 (the score it would have
# had is in same_run_as): no copy scores until a person has looked.
# One student with several files (make submit run twice, both handed in):
# each of their rows gets "duplicate" added to its flags, the row's last
# field, and a line on stderr names the files; not a failure by itself.
# None is picked: which is newer only the files themselves say (their
# date lines; their mtimes are the student's machine's too), so the
# instructor decides.
function find(i) { while (up[i] != i) i = up[i]; return i }
{
	n++; name[n] = ""
	# (a file not graded: its reason, or "not a submission", as its flags)
	if ($1 == "none") { row[n] = csv_field($2) ",,,none,,,,,,,,,,,,,,,," csv_field(NF >= 3 && $3 != "" ? $3 : "not a submission"); next }
	row[n] = $2; nc = csv_split($2, cf); name[n] = cf[1]
	head[n] = csv_field(cf[1]) "," csv_field(cf[2]) "," csv_field(cf[3]) ","; stat[n] = cf[4]; sc[n] = cf[5]
	who[n] = cf[2]; when[n] = cf[3]; flags[n] = cf[nc]
	if (who[n] != "") {
		if (!(who[n] in files)) wseen[++nw] = who[n]
		files[who[n]]++
	}
	up[n] = n
	split("", mine); split("", shared); no = 0
	m = split($1, f, " ")
	nf[n] = 0
	for (i = 1; i <= m; i++) {
		if (f[i] == "none" || (f[i] in mine)) continue
		mine[f[i]] = 1; nf[n]++
		if (f[i] in owner) { o = owner[f[i]]; if (!(o in shared)) oseen[++no] = o; shared[o]++ }
		else owner[f[i]] = n
	}
	for (k = 1; k <= no; k++) {
		o = oseen[k]; small = nf[n] < nf[o] ? nf[n] : nf[o]
		if (alike(shared[o], nf[n], nf[o])) {
			a = find(n); b = find(o)
			if (a != b) up[a < b ? b : a] = (a < b ? a : b)
			printf "grade: copies of one run: %s ~ %s: %d of %d values alike (%d%%)\n", name[n], name[o], \
				shared[o], small, int(100 * shared[o] / small) > "/dev/stderr"
		}
	}
}
END {
	for (k = 1; k <= nw; k++) {
		w = wseen[k]
		if (files[w] < 2) continue
		l = ""
		for (i = 1; i <= n; i++) if (name[i] != "" && who[i] == w) {
			l = l (l == "" ? "" : ", ") name[i]
			row[i] = substr(row[i], 1, length(row[i]) - length(csv_field(flags[i]))) \
				csv_field(flags[i] (flags[i] == "" ? "" : ";") "duplicate")
		}
		printf "grade: %d files of one student, %s: %s; none picked (a date line is the file's own word)\n", \
			files[w], w, l > "/dev/stderr"
	}
	for (i = 1; i <= n; i++) if (name[i] != "") { r = find(i); size[r]++ }
	for (i = 1; i <= n; i++) if (name[i] != "" && size[find(i)] > 1 && !(find(i) in gno)) gno[find(i)] = ++groups
	for (i = 1; i <= n; i++) {
		g = ""
		if (name[i] != "" && size[find(i)] > 1) {
			g = "copy group " gno[find(i)] " of " size[find(i)] " files"; copies++
			# Which of them ran it, a text cannot tell: each copy's score is
			# withheld (status REVIEW, score 0) and named here for whoever
			# reviews the group; an INTEGRITY row scores 0 already.
			if (stat[i] != "INTEGRITY") {
				g = g "; score " sc[i] " withheld for review"
				row[i] = head[i] "REVIEW,0," substr(row[i], length(head[i]) + length(stat[i]) + length(sc[i]) + 3)
			}
		}
		print row[i] "," g
	}
	if (copies) {
		printf "grade: %d files in %d group(s) are copies of one run (same_run_as)\n", copies, groups > "/dev/stderr"
		exit 1
	}
}
