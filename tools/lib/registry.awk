# tools/lib/registry.awk - tools/labs/registry as one line a lab: comments
# dropped, a row's continuation lines joined, blanks squeezed, so that
# $1 .. $9 are id program driver more threads old plots record knobs and
# the rest of the line is quick.  A row with fewer than 10 fields is
# named on stderr and the exit status is 1.  With -v SEP=C, only the nine
# columns, joined by C (make reads them so: no blank inside a lab's word).
# knobs: every row's knobs column, comma-joined, for tools/lib/knobs.awk
# run after this file.  A line starting ">" is make help's text (of the
# lab row above it; before the first row, the kit's): it ends a row and
# is kept, with its row's id, in help[1 .. nhelp] for tools/lib/help.awk
# run after this file; with -v HELP=1 no row is printed, each is kept in
# rows[1 .. nrows].  Plain POSIX awk (mawk, gawk, busybox).
# Usage: awk [-v SEP=C] -f tools/lib/registry.awk tools/labs/registry
function flush() {
	if (row == "") return
	$0 = row
	row = ""
	if (NF < 10) {
		printf "registry: line %d: %d fields, want 10 or more\n", at, NF > "/dev/stderr"
		bad = 1; return
	}
	knobs = knobs "," $9
	owner = $1
	if (HELP) { $1 = $1; rows[++nrows] = $0 }
	else if (SEP != "") print $1 SEP $2 SEP $3 SEP $4 SEP $5 SEP $6 SEP $7 SEP $8 SEP $9
	else { $1 = $1; print }
}
/^[ \t]*#/ || /^[ \t]*$/ { next }
/^>/ { line = substr($0, 2); flush(); help[++nhelp] = owner "\t" line; next }
/^[ \t]/ { if (row == "") { printf "registry: line %d: goes on no row\n", NR > "/dev/stderr"; bad = 1 }
	   else row = row " " $0
	   next }
{ line = $0; flush(); row = line; at = NR }
END { flush(); if (bad) exit 1 }
