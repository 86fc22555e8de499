# tools/lib/registry.awk - tools/labs/registry as one line a lab: comments
# dropped, a row's continuation lines joined, blanks squeezed, so that
# $1 .. $9 are id program driver more threads old plots record knobs and
# the rest of the line is quick.  knobs comes from the second file,
# tools/labs/knobs (the lab's knob names, comma-joined; "-" for none): a
# row of the registry itself has no knobs column.  A row with fewer than 9
# fields, or a knob line that is no lab's or has no range the Makefile
# reads, is named on stderr and the exit status is 1.  With -v SEP=C,
# only the nine columns, joined by C (make reads them so: no blank inside
# a lab's word), then a word knob:LAB|NAME|DEFAULT|RANGE for each line of
# tools/labs/knobs.
# knobs: every knob's name, comma-joined, for tools/lib/knobs.awk run after
# this file; kdef[LAB, NAME] and kmean[LAB, NAME], each lab's knob's
# default and meaning, for tools/lib/help.awk.  A registry line starting
# ">" is make help's text (of the lab row above it; before the first row,
# the kit's): it ends a row and is kept, with its row's id, in
# help[1 .. nhelp] for tools/lib/help.awk run after this file; with
# -v HELP=1 no row is printed, each is kept in rows[1 .. nrows], its
# knobs column filled.  Plain POSIX awk (mawk, gawk, busybox).
# Usage: awk [-v SEP=C] -f tools/lib/registry.awk tools/labs/registry \
#            tools/labs/knobs
function flush() {
	if (row == "") return
	$0 = row
	row = ""
	if (NF < 9) {
		printf "registry: line %d: %d fields, want 9 or more\n", at, NF > "/dev/stderr"
		bad = 1; return
	}
	owner = $1
	ids[++nrows] = $1
	rows[nrows] = $0
}
# The knob lines come after the registry: the second file.
FNR == 1 { file++; if (file == 2) { line = $0; flush(); $0 = line } }
/^[ \t]*#/ || /^[ \t]*$/ { next }
file >= 2 {
	if (NF < 4 || $2 !~ /^[A-Z][A-Z0-9_]*$/ ||
	    $4 != "-" && $4 !~ /^[0-9]+[KMG]?\.\.[0-9]+[KMG]?$/) {
		printf "knobs: line %d: want LAB KNOB DEFAULT MIN..MAX (or -)\n", FNR > "/dev/stderr"
		bad = 1; next
	}
	kid = $1; sub(/-.*/, "", kid)
	klines[++nk] = $1 "|" $2 "|" $3 "|" $4
	klab[nk] = kid; kname[nk] = $2; kfile[nk] = FNR
	if ($1 == kid) {
		kdef[kid, $2] = $3
		m = $0; for (i = 1; i <= 4; i++) sub(/^[ \t]*[^ \t]+/, "", m)
		sub(/^[ \t]+/, "", m); kmean[kid, $2] = m
	}
	if (!(("," knobs ",") ~ ("," $2 ","))) knobs = knobs (knobs == "" ? "" : ",") $2
	next
}
/^>/ { line = substr($0, 2); flush(); help[++nhelp] = owner "\t" line; next }
/^[ \t]/ { if (row == "") { printf "registry: line %d: goes on no row\n", NR > "/dev/stderr"; bad = 1 }
	   else row = row " " $0
	   next }
{ line = $0; flush(); row = line; at = NR }
END {
	flush()
	for (i = 1; i <= nrows; i++) isid[ids[i]] = 1
	for (k = 1; k <= nk; k++)
		if (!(klab[k] in isid)) {
			printf "knobs: line %d: no lab %s in the registry\n", kfile[k], klab[k] > "/dev/stderr"
			bad = 1
		}
	for (i = 1; i <= nrows; i++) {
		# The row's knobs: its lab's lines and its modes' (ID-MODE), once.
		own = ""
		for (k = 1; k <= nk; k++)
			if (klab[k] == ids[i] && !(("," own ",") ~ ("," kname[k] ",")))
				own = own (own == "" ? "" : ",") kname[k]
		$0 = rows[i]
		$9 = (own == "" ? "-" : own) " " $9
		$0 = $0
		if (HELP) rows[i] = $0
		else if (SEP != "") print $1 SEP $2 SEP $3 SEP $4 SEP $5 SEP $6 SEP $7 SEP $8 SEP $9
		else print
	}
	if (SEP != "") for (k = 1; k <= nk; k++) print "knob:" klines[k]
	if (bad) exit 1
}
