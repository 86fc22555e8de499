# tools/grading/alike.awk - when two files are copies of one run, the one
# rule both the batch's copies (tools/grading/copies.awk) and a copy of a
# shipped file (tools/grading/grade.awk: copy_of_shipped) use.  A file's
# fingerprint is the values no second run of make submit repeats (its
# recorded times, its temporary directory, its date: grade.awk's feature()).
# alike(SHARED, NA, NB): two files with NA and NB such values, SHARED of
# them alike, are one run's: at least 8 alike (a few values
# agreeing by chance is not a copy) and at least half of the smaller
# file's (a copy with a few values edited is still one).
function alike(shared, na, nb,    small) {
	small = na < nb ? na : nb
	return small > 0 && shared >= 8 && 2 * shared >= small
}
