# tools/lib/exercise.awk - the exercise regions of the lab programs: the
# code a student writes, between two marker lines that this file defines
# (and nothing else does):
#   /* BEGIN EXERCISE labN.name */
#   ...the kit's solution...
#   /* END EXERCISE labN.name */
# Each marker stands alone on its line; regions do not nest.  The text
# that says what to write sits above BEGIN, outside the region, so a
# handout keeps it.  Everything outside the regions is the kit's.
#   awk -v DO=list -f tools/lib/exercise.awk FILE...
#       one line a region: NAME FILE FIRST LAST (the marker lines)
#   awk -v DO=stub -v STUBS=tools/exercises -f tools/lib/exercise.awk FILE
#       FILE with each region's lines replaced by STUBS/NAME.c (the
#       skeleton as handed out), markers kept
#   awk -v DO=show -v ONLY=NAME -f tools/lib/exercise.awk FILE
#       the lines of FILE's region NAME, markers left out
#   awk -v DO=splice -v FROM=OTHER [-v ONLY=NAME] -f tools/lib/exercise.awk FILE
#       FILE with each region's lines (ONLY: that region's) replaced by the
#       same region of OTHER (a student's copy of the program): the rest
#       stays FILE's
# A marker out of place (an END without its BEGIN, a BEGIN inside a region,
# a region left open, a name twice, a malformed name) stops with one line
# on stderr and exit 2; so does a stub or a region of FROM that is missing.
# Awk: POSIX only, plus "/dev/stderr"; mawk, gawk and busybox awk.

function marker(line, kind,    re) {
	re = "^[ \t]*/\\* " kind " EXERCISE [a-z0-9]+\\.[a-z0-9_]+ \\*/[ \t]*$"
	if (line !~ re) return ""
	sub("^[ \t]*/\\* " kind " EXERCISE ", "", line); sub(/ \*\/[ \t]*$/, "", line)
	return line
}
function loose(line) { return line ~ /(BEGIN|END) EXERCISE/ }
function bad(file, n, why) {
	printf "exercise: %s:%d: %s\n", file, n, why > "/dev/stderr"
	failed = 1; exit 2
}
# read(file, pfx): the regions of file into pfx-keyed arrays: R_NAMES[pfx]
# (blank-separated), R_LINE[pfx, name, k] (k = 1..R_LEN[pfx, name]).
function read(file, pfx,    line, n, rc, open, name, k) {
	n = 0; open = ""; R_NAMES[pfx] = ""
	while ((rc = (getline line < file)) > 0) {
		n++
		if ((name = marker(line, "BEGIN")) != "") {
			if (open != "") bad(file, n, "BEGIN EXERCISE " name " inside region " open)
			if ((pfx, name) in R_LEN) bad(file, n, "region " name " a second time")
			open = name; R_LEN[pfx, name] = 0; R_FIRST[pfx, name] = n
			R_NAMES[pfx] = R_NAMES[pfx] " " name
		} else if ((name = marker(line, "END")) != "") {
			if (name != open) bad(file, n, "END EXERCISE " name " without its BEGIN")
			R_LAST[pfx, name] = n; open = ""
		} else if (loose(line)) {
			bad(file, n, "a malformed exercise marker: " substr(line, 1, 80))
		} else if (open != "") {
			k = ++R_LEN[pfx, open]; R_LINE[pfx, open, k] = line
		}
	}
	if (rc < 0) { printf "exercise: cannot read %s\n", file > "/dev/stderr"; failed = 1; exit 2 }
	close(file)
	if (open != "") bad(file, n, "region " open " is never closed")
}
# print file with every region's lines taken from src(name)
function rewrite(file, how,    line, name, open, k, sf, rc, got) {
	open = ""
	while ((getline line < file) > 0) {
		if ((name = marker(line, "BEGIN")) != "") {
			print line; open = name
			if (how == "stub") {
				sf = STUBS "/" name ".c"; got = 0
				while ((rc = (getline line < sf)) > 0) { print line; got = 1 }
				close(sf)
				if (!got) { printf "exercise: no stub %s for region %s of %s\n", sf, name, file > "/dev/stderr"; failed = 1; exit 2 }
			} else if (ONLY != "" && name != ONLY) {
				for (k = 1; k <= R_LEN["kit", name]; k++) print R_LINE["kit", name, k]
			} else {
				if (!(("from", name) in R_LEN)) { printf "exercise: %s has no region %s\n", FROM, name > "/dev/stderr"; failed = 1; exit 2 }
				for (k = 1; k <= R_LEN["from", name]; k++) print R_LINE["from", name, k]
			}
		} else if (marker(line, "END") != "") {
			print line; open = ""
		} else if (open == "") print line
	}
	close(file)
}
BEGIN {
	if (DO == "list") {
		for (i = 1; i < ARGC; i++) {
			read(ARGV[i], i); n = split(R_NAMES[i], nm, " ")
			for (j = 1; j <= n; j++) {
				if (nm[j] in WHERE) { printf "exercise: region %s in %s and %s\n", nm[j], WHERE[nm[j]], ARGV[i] > "/dev/stderr"; exit 2 }
				WHERE[nm[j]] = ARGV[i]
				print nm[j], ARGV[i], R_FIRST[i, nm[j]], R_LAST[i, nm[j]]
			}
		}
	} else if (DO == "stub" && ARGC == 2 && STUBS != "") {
		read(ARGV[1], "kit"); rewrite(ARGV[1], "stub")
	} else if (DO == "show" && ARGC == 2 && ONLY != "") {
		read(ARGV[1], "kit")
		if (!(("kit", ONLY) in R_LEN)) { printf "exercise: %s has no region %s\n", ARGV[1], ONLY > "/dev/stderr"; exit 2 }
		for (k = 1; k <= R_LEN["kit", ONLY]; k++) print R_LINE["kit", ONLY, k]
	} else if (DO == "splice" && ARGC == 2 && FROM != "") {
		read(ARGV[1], "kit"); read(FROM, "from"); rewrite(ARGV[1], "splice")
	} else {
		print "usage: awk -v DO=list|stub|show|splice [-v STUBS=DIR | -v ONLY=NAME | -v FROM=FILE] -f tools/lib/exercise.awk FILE..." > "/dev/stderr"
		exit 2
	}
	exit 0
}
