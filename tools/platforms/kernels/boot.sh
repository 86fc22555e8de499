# tools/platforms/kernels/boot.sh - one boot of make kernels under qemu (its initramfs, its
# console log, why it failed), the accelerator, and what this machine
# lacks for the arm64 ones.
# Sourced by tools/platforms/kernels.sh (its main, options and the
# variables they set: CACHE, FRAMES, JOBS, TIMEOUT ...); functions and
# their data only, nothing runs.

# boot SUITE MODE ACCEL PROBE LOG: one boot; the console in LOG.  0 when
# the guest reached its end marker; else 1 and the reason in WHY.
boot() {
	local suite=$1 mode=$2 accel=$3 probe=$4 log=$5 r=$CACHE/$1/ready job cpu=max limit=$TIMEOUT rc
	local kit=$PWD prebuilt= qemu
	job=$(mktemp -d) || die "mktemp failed"
	is_arm "$suite" && kit=/kit prebuilt=1
	write_init "$(is_arm "$suite" && echo arm64 || echo amd64)" >"$job/init"
	chmod 755 "$job/init"
	printf 'ML_KIT=%q\nML_THP=%q\nML_FRAMES=%q\nML_PROBE=%q\nML_PREBUILT=%q\n' "$kit" "$mode" "$FRAMES" \
		"$probe" "$prebuilt" >"$job/job"
	# The boot's own files first, uncompressed: the kernel reads a plain
	# archive followed by a compressed one (not the other way round).
	if is_arm "$suite"; then
		(cd "$job" && printf '%s\n' init job | cpio -o -H newc --quiet) >"$job/run.img" &&
			cat "$LOGS/kit.cpio" "$CACHE/arm64-root/ready/base.cpio.gz" >>"$job/run.img"
	else
		(cd "$job" && printf '%s\n' . init job | "$r/busybox" cpio -o -H newc 2>/dev/null) >"$job/run.img" &&
			cat "$r/base.cpio.gz" >>"$job/run.img"
	fi || die "could not write the boot's initramfs"
	[ "$accel" = kvm ] && cpu=host
	[ "$probe" = 1 ] && limit=30
	if is_arm "$suite"; then
		# virt's PL011 is ttyAMA0; pauth-impdef: TCG's cheaper pointer
		# authentication, as the architected one is slow to emulate.
		qemu=("$QEMU_ARM" -machine virt -accel tcg -cpu max,pauth-impdef=on
			-append "console=ttyAMA0 quiet panic=-1")
	else
		qemu=("$QEMU" -accel "$accel" -cpu "$cpu" -append "console=ttyS0 quiet panic=-1"
			-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap)
	fi
	timeout "$limit" "${qemu[@]}" -smp 2 -m 2048 \
		-nodefaults -no-user-config -display none -monitor none -no-reboot \
		-serial "file:$log" -kernel "$r/vmlinuz" -initrd "$job/run.img" \
		</dev/null >"$job/qemu.out" 2>&1
	rc=$?
	WHY=
	if grep -q '^ML|end|' <(tr -d '\r' <"$log" 2>/dev/null); then
		:
	elif [ "$rc" = 124 ]; then
		WHY="no end marker within $limit s (timeout)"
	elif [ "$rc" != 0 ]; then
		WHY="qemu exited $rc: $(head -n 1 "$job/qemu.out")"
	else
		WHY=$(tr -d '\r' <"$log" | sed -n 's/^ML|boot-failed|/the guest could not /p' | head -n 1)
		[ -n "$WHY" ] || WHY="the guest stopped early: $(tr -d '\r' <"$log" | grep -v '^ *$' | tail -n 1 | cut -c1-70)"
	fi
	rm -rf "$job"
	[ -z "$WHY" ]
}

# pick_accel SUITE: ACCEL=kvm when /dev/kvm opens and a probe boot (no
# checks) reaches its end marker, else tcg.  Some hosts offer /dev/kvm and
# then cannot run the guest (it hangs, or qemu stops on an MSR): the probe
# costs 30 s there, once.
pick_accel() {
	ACCEL=tcg
	[ "$ACCEL_WANT" = tcg ] && return 0
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		if boot "$1" never kvm 1 "$LOGS/kvm-probe.console"; then
			ACCEL=kvm
			return 0
		fi
		echo "$prog: KVM: $WHY; using TCG" >&2
	fi
	[ "$ACCEL_WANT" = kvm ] && cannot "KVM was asked for and does not work here"
	return 0
}

# arm_missing: why this machine cannot boot the arm64 guests ("" if it can).
arm_missing() {
	local t
	for t in "$QEMU_ARM:qemu-system-arm" aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu cpio:cpio; do
		command -v "${t%%:*}" >/dev/null 2>&1 || { echo "${t%%:*} is not installed (apt-get install ${t#*:})"; return; }
	done
}
