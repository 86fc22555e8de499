# tools/grading/copies.awk - the gradebook's rows, and copies of one run.
# Reads tools/grade.sh's summary (after tools/lib/csv.awk), a line a file:
#   FEATURES<TAB>CSV row     (grade.awk's csv_row: a graded file)
#   none<TAB>NAME            (not a submission)
# FEATURES are the values no second run of make submit repeats: each
# recorded time (tagged with its record and column), the run's temporary
# directory, the date.  Two files sharing at least MIN_SHARED of them and
# at least half of the smaller file's are copies of one run, even after a
# few values were edited; two honest runs share next to none.
# Linear: each value remembers the first file that had it (its owner), so
# a file is compared only with the owners of its own values, whatever the
# number of files.  Prints each row with same_run_as (the group: "copy
# group N of M files", or empty) and, on stderr, each file found a copy
# with the earlier file it copies and how alike they are; exits 1 when any.
BEGIN { MIN_SHARED = 8 }
function find(i) { while (up[i] != i) i = up[i]; return i }
{
	n++; name[n] = ""
	if ($1 == "none") { row[n] = csv_field($2) ",,,none,,,,,,,,,,,,,,,,not a submission"; next }
	row[n] = $2; csv_split($2, cf); name[n] = cf[1]
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
		if (small > 0 && shared[o] >= MIN_SHARED && 2 * shared[o] >= small) {
			a = find(n); b = find(o)
			if (a != b) up[a < b ? b : a] = (a < b ? a : b)
			printf "grade: copies of one run: %s ~ %s: %d of %d values alike (%d%%)\n", name[n], name[o], \
				shared[o], small, int(100 * shared[o] / small) > "/dev/stderr"
		}
	}
}
END {
	for (i = 1; i <= n; i++) if (name[i] != "") { r = find(i); size[r]++ }
	for (i = 1; i <= n; i++) if (name[i] != "" && size[find(i)] > 1 && !(find(i) in gno)) gno[find(i)] = ++groups
	for (i = 1; i <= n; i++) {
		g = ""
		if (name[i] != "" && size[find(i)] > 1) { g = "copy group " gno[find(i)] " of " size[find(i)] " files"; copies++ }
		print row[i] "," g
	}
	if (copies) {
		printf "grade: %d files in %d group(s) are copies of one run (same_run_as)\n", copies, groups > "/dev/stderr"
		exit 1
	}
}
