#!/usr/bin/env bash
# tests/lab2.sh - malloc_variance, tools/labs/pin.sh and bench.h's percentiles.
#
# Nothing here asserts a time.  What is asserted, and why it is predictable:
# - forced mmap (M_MMAP_THRESHOLD 512 KiB < 1 MiB): every call maps a fresh
#   block, glibc writes the chunk header into its first page: exactly 1
#   minor fault per call, one mmap and one munmap per call.
# - every other row reuses memory after its first call (the tcache, the
#   bins, a heap top the dynamic threshold or the thresholds keep): about 0
#   faults per call.  The limit, 0.01 a call, leaves room for the one-time
#   faults of a fresh process (first touch, copy-on-write after fork).
# - with mlockall(MCL_FUTURE) each forced mmap is populated in full: 1 MiB
#   + 16 B of header rounds up to 257 pages, 257 faults per call.
# - --history runs the rows in one process: the heap top the 1 MiB default
#   row leaves serves the forced-mmap row, which then maps nothing.
. "$(dirname "$0")/lib.sh" || exit 1

L2N=3000                                # samples a row: small and quick
L2MV=./malloc_variance

# l2_col FILE LABEL N: column N of the CSV row whose label is LABEL.  The
# label is quoted (one holds a comma), so it is matched whole and the rest
# of the line split.
l2_col() {
	awk -v l="\"$2\"," -v c="$3" 'index($0, l) == 1 {
		split(substr($0, length(l) + 1), a, ","); print a[c - 1]; exit }' "$1"
}

# l2_lt NAME GOT LIMIT: GOT is a number below LIMIT (fractions allowed).
l2_lt() {
	if awk -v g="$2" -v m="$3" 'BEGIN { exit !(g ~ /^[0-9.]+$/ && g + 0 < m + 0) }'; then
		pass "$1 ($2 < $3)"
	else
		fail "$1" "got '$2', want < $3"
	fi
}

# l2_eq NAME GOT WANT: the same string.
l2_eq() {
	if [ "$2" = "$3" ]; then pass "$1 ($2)"; else fail "$1" "got '$2', want '$3'"; fi
}

# --- bench.h: percentiles, sort, median, TSC calibration (tests/bin/test_bench)
if [ -x tests/bin/test_bench ]; then
	tests/bin/test_bench >"$TMP/l2_unit" 2>&1
	l2_rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*)   pass "lab2 bench.h: ${line#ok }" ;;
		"FAIL "*) fail "lab2 bench.h: ${line#FAIL }" "see tests/test_bench.c" ;;
		*)        fail "lab2 bench.h: unexpected output" "$line" ;;
		esac
	done <"$TMP/l2_unit"
	cmp_num "lab2 bench.h: test_bench exit status" "$l2_rc" -eq 0
else
	fail "lab2 bench.h unit tests" "tests/bin/test_bench is missing (make tests/bin/test_bench)"
fi

# --- the command line
check_exit "lab2 --help exits 0" 0 $L2MV --help
if grep -q '^usage' "$TMP/out" && [ ! -s "$TMP/err" ]; then pass "lab2 --help: usage on stdout"
else fail "lab2 --help: usage on stdout" "stdout: $(head -c 100 "$TMP/out")"; fi
check_usage_error "lab2 unknown mode"          $L2MV huge
check_usage_error "lab2 two modes"             $L2MV small pool
check_usage_error "lab2 --iters 0"             $L2MV --iters 0
check_usage_error "lab2 --iters abc"           $L2MV --iters abc
check_usage_error "lab2 --iters -5"            $L2MV --iters -5
check_usage_error "lab2 --iters without value" $L2MV --iters
check_usage_error "lab2 --threads 0"           $L2MV --threads 0
check_usage_error "lab2 --threads 65"          $L2MV --threads 65
check_usage_error "lab2 unknown option"        $L2MV --bogus
check_usage_error "lab2 --hist with --csv"     $L2MV --hist --csv

# --- the pool hands out distinct, reusable blocks
if needs_solution lab2.pool "lab2 --self-test: the pool passes"; then
	check_exit "lab2 --self-test exits 0" 0 $L2MV --self-test
	if grep -q 'pool self-test: *ok' "$TMP/out"; then pass "lab2 pool self-test says ok"
	else fail "lab2 pool self-test says ok" "$(head -c 200 "$TMP/out")"; fi
fi

# --- each mode runs, prints the timer floor and its own row
for l2_m in small:"malloc 32 B" medium:"malloc 4 KiB" large:"malloc 1 MiB (default)" \
	    large-mmap:"malloc 1 MiB (forced mmap)" large-heap:"malloc 1 MiB (heap, no trim)" \
	    pool:"pool 64 B"; do
	l2_mode=${l2_m%%:*} l2_label=${l2_m#*:}
	check_exit "lab2 mode $l2_mode runs" 0 $L2MV "$l2_mode" --iters 500
	# two rows in each table: the times, then the means
	if grep -q "^$l2_label " "$TMP/out" && grep -q '^timer floor ' "$TMP/out" &&
	   [ "$(awk '/^(times \(ns\)|label) / { t++; in_t = 1; next } NF == 0 { in_t = 0 }
		in_t && /^[a-z]/ { n[t]++ } END { print n[1] + 0, n[2] + 0 }' "$TMP/out")" = "2 2" ]; then
		pass "lab2 mode $l2_mode: timer floor and '$l2_label' rows, nothing else"
	else
		fail "lab2 mode $l2_mode: rows" "$(grep -v '^#' "$TMP/out" | head -c 300)"
	fi
done
check_exit "lab2 mode all runs" 0 $L2MV all --iters 500
if grep -q 'nearest rank' "$TMP/out"; then pass "lab2 output says the percentiles are nearest-rank"
else fail "lab2 output says the percentiles are nearest-rank" "no 'nearest rank' line"; fi
if grep -q '^  timer step: ' "$TMP/out"; then pass "lab2 prints the timer step"
else fail "lab2 prints the timer step" "no 'timer step:' line"; fi
if grep -q '^# glibc ' "$TMP/out"; then pass "lab2 prints the environment line first"
else fail "lab2 prints the environment line first" "$(head -n 1 "$TMP/out")"; fi

# --- isolated rows measure what their labels say (faults and path taken)
$L2MV all --csv --iters $L2N >"$TMP/l2_all" 2>"$TMP/err"
cmp_num "lab2 all --csv: header and 7 rows" "$(wc -l <"$TMP/l2_all")" -eq 8
l2_f="malloc 1 MiB (forced mmap)"
near "lab2 forced mmap: 1 fault a call" "$(l2_col "$TMP/l2_all" "$l2_f" 9)" 1 2
l2_eq "lab2 forced mmap: blocks come from mmap" "$(l2_col "$TMP/l2_all" "$l2_f" 10)" mmap
for l2_l in "malloc 32 B" "malloc 4 KiB" "malloc 1 MiB (default)" "malloc 1 MiB (heap, no trim)" "pool 64 B"; do
	l2_lt "lab2 $l2_l: ~0 faults a call" "$(l2_col "$TMP/l2_all" "$l2_l" 9)" 0.01
done
# The dynamic threshold: the first 1 MiB block is mmapped, its free raises
# the threshold above 1 MiB, so the rest come from the heap.
l2_eq "lab2 1 MiB default: heap after the first call" "$(l2_col "$TMP/l2_all" "malloc 1 MiB (default)" 10)" heap
l2_eq "lab2 1 MiB no trim: heap" "$(l2_col "$TMP/l2_all" "malloc 1 MiB (heap, no trim)" 10)" heap

# --- --history: the forced-mmap row inherits the heap and maps nothing
$L2MV all --csv --history --iters $L2N >"$TMP/l2_hist" 2>"$TMP/err"
l2_eq "lab2 --history: forced mmap row served by the inherited heap" \
	"$(l2_col "$TMP/l2_hist" "$l2_f" 10)" heap
l2_lt "lab2 --history: forced mmap row ~0 faults a call" "$(l2_col "$TMP/l2_hist" "$l2_f" 9)" 0.01

# --- --hist: every sample lands in one bucket
$L2MV small --hist --iters $L2N >"$TMP/l2_h" 2>"$TMP/err"
l2_sum=$(awk '/malloc 32 B: samples per bucket/ { on = 1; next }
	on && NF == 0 { exit } on { s += $4 } END { print s + 0 }' "$TMP/l2_h")
cmp_num "lab2 --hist: the 32 B buckets hold every sample" "$l2_sum" -eq $L2N

# --- --threads: one row per thread under the total
check_exit "lab2 --threads 2 runs" 0 $L2MV small --threads 2 --iters 500
if grep -q '^  thread 1 ' "$TMP/out"; then pass "lab2 --threads 2: per-thread rows"
else fail "lab2 --threads 2: per-thread rows" "no '  thread 1' row"; fi
$L2MV pool --threads 2 --iters 500 --csv >"$TMP/l2_t" 2>"$TMP/err"
l2_eq "lab2 --threads 2 --csv: threads column" "$(l2_col "$TMP/l2_t" "pool 64 B" 12)" 2

# --- --mlock: each locked forced mmap is populated in full
$L2MV large-mmap --mlock --iters 200 >"$TMP/l2_m" 2>"$TMP/err"
if grep -q '^  mlock: *ok' "$TMP/l2_m"; then
	l2_fl=$(awk '/^label / { t = 1 } t && /forced mmap/ { print $(NF - 1) }' "$TMP/l2_m")
	near "lab2 --mlock: forced mmap populates 257 pages a call" "$l2_fl" 257 1
elif grep -q '^  mlock: *FAILED' "$TMP/l2_m"; then
	skip "lab2 --mlock: 257 faults a call" "mlockall failed here: $(grep -o 'mlockall: [^(]*' "$TMP/l2_m")"
else
	fail "lab2 --mlock: reports the outcome" "no 'mlock:' line"
fi

# --- system calls: forced mmap makes one mmap and one munmap a call; the
# no-trim heap row makes none in steady state
if strace_ok; then
	strace -f -c -o "$TMP/l2_st" $L2MV large-mmap --iters 2000 >/dev/null 2>&1
	cmp_num "lab2 strace large-mmap: mmap calls >= iters" "$(syscall_count "$TMP/l2_st" mmap)" -ge 2000
	cmp_num "lab2 strace large-mmap: munmap calls >= iters" "$(syscall_count "$TMP/l2_st" munmap)" -ge 2000
	strace -f -c -o "$TMP/l2_st" $L2MV large-heap --iters 2000 >/dev/null 2>&1
	l2_sys=$(( $(syscall_count "$TMP/l2_st" mmap) + $(syscall_count "$TMP/l2_st" munmap) + $(syscall_count "$TMP/l2_st" brk) ))
	cmp_num "lab2 strace large-heap: mmap+munmap+brk stay start-up only" "$l2_sys" -lt 50
else
	skip "lab2 strace checks" "$STRACE_WHY"
fi

# --- tools/labs/pin.sh
check_exit "lab2 pin.sh -h exits 0" 0 tools/labs/pin.sh -h
check_usage_error "lab2 pin.sh without a command" tools/labs/pin.sh
check_usage_error "lab2 pin.sh -c x"              tools/labs/pin.sh -c x true
check_usage_error "lab2 pin.sh -c 99999"          tools/labs/pin.sh -c 99999 true
check_usage_error "lab2 pin.sh unknown option"    tools/labs/pin.sh -z true
check_exit "lab2 pin.sh passes the exit status on" 1 tools/labs/pin.sh -q false
tools/labs/pin.sh -q true >"$TMP/out" 2>"$TMP/err"
if [ ! -s "$TMP/err" ] && [ ! -s "$TMP/out" ]; then pass "lab2 pin.sh -q is quiet"
else fail "lab2 pin.sh -q is quiet" "$(head -c 200 "$TMP/err")"; fi
tools/labs/pin.sh true >"$TMP/out" 2>"$TMP/err"
if grep -q '^pin.sh: THP: ' "$TMP/err" && grep -q '^pin.sh: virtual machine: ' "$TMP/err" &&
   [ ! -s "$TMP/out" ]; then pass "lab2 pin.sh reports the noise on stderr"
else fail "lab2 pin.sh reports the noise on stderr" "$(head -c 300 "$TMP/err")"; fi
if command -v taskset >/dev/null 2>&1; then
	l2_cpu=$(awk '/^Cpus_allowed_list:/ { n = split($2, a, /[,-]/); print a[n] }' /proc/self/status)
	l2_got=$(tools/labs/pin.sh -q awk '/^Cpus_allowed_list:/ { print $2 }' /proc/self/status)
	l2_eq "lab2 pin.sh pins to the last allowed CPU" "$l2_got" "$l2_cpu"
else
	skip "lab2 pin.sh pins" "taskset is not installed"
fi
# Without taskset: a PATH holding only what pin.sh itself needs.
mkdir -p "$TMP/l2_path"
for l2_c in awk tr head tail cut sed grep wc getconf cat; do
	l2_p=$(command -v "$l2_c") && ln -sf "$l2_p" "$TMP/l2_path/$l2_c"
done
PATH=$TMP/l2_path "$BASH" tools/labs/pin.sh -c 0 cat /proc/self/status >"$TMP/out" 2>"$TMP/err"
l2_rc=$?
if [ "$l2_rc" -eq 0 ] && grep -q 'taskset not found' "$TMP/err" && grep -q '^Cpus_allowed' "$TMP/out"; then
	pass "lab2 pin.sh without taskset says so and runs unpinned"
else
	fail "lab2 pin.sh without taskset" "exit $l2_rc: $(head -c 200 "$TMP/err")"
fi
