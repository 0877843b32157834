# Shell vocabulary of the guest scenarios (sourced by /init; busybox ash).
# Assertions print TAP to fd 3; every number comes from the kernel's own
# evidence: exit signals, memory.events, the kernel log.

RESULTS=/run/results
mkdir -p "$RESULTS"
[ -f /run/tap-count ] || echo 0 >/run/tap-count

_tap() {
	n=$(( $(cat /run/tap-count) + 1 ))
	echo $n >/run/tap-count
	echo "$1 $n - $2" >&3
}
tap_ok() { _tap ok "$1"; }
tap_fail() { _tap "not ok" "$1"; }
# diag TEXT: a TAP comment; every line of a multi-line TEXT is one
diag() { printf '%s\n' "$*" | sed 's/^/# /' >&3; }

# check DESCRIPTION COMMAND...: ok when the command succeeds
check() {
	desc=$1; shift
	if "$@"; then tap_ok "$desc"; else tap_fail "$desc"; fi
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		tap_ok "$1"
	else
		tap_fail "$1"
		diag "expected '$2', got '$3'"
	fi
}

# memcg NAME MAX: a fresh memory cgroup limited to MAX (no swap here)
memcg() {
	cg=/sys/fs/cgroup/$1
	mkdir -p "$cg"
	echo "$2" >"$cg/memory.max"
	echo "$cg"
}

# memcg_event CGROUP KEY: a counter from memory.events (e.g. oom_kill)
memcg_event() {
	sed -n "s/^$2 //p" "$1/memory.events"
}

# start NAME TYPE CGROUP PROGRAM ARGS...: run PROGRAM in SELinux domain TYPE
# (- : in the caller's label, as on a boot without SELinux; @LABEL: in
# LABEL of the boot's major LSM, a Smack label or an AppArmor profile)
# inside CGROUP, in the background; its fate is recorded in $RESULTS/NAME.
start() {
	name=$1 type=$2 cg=$3; shift 3
	case "$type" in
	-) typeopt= ;;
	@*) typeopt="--label ${type#@}" ;;
	*) typeopt="--type $type" ;;
	esac
	tr-run --name "$name" $typeopt --cgroup "$cg" --results "$RESULTS" -- "$@" >>/run/tr-run.log 2>&1 &
}

# hog NAME TYPE CGROUP MIB: a process holding MIB MiB, waited for until resident
hog() {
	start "$1" "$2" "$3" tr-hog --mib "$4" --ready "/run/$1.ready"
	tr-waitfile --timeout-ms 30000 "/run/$1.ready" ||
		diag "hog $1 ($2, $4 MiB) never became ready"
}

# push NAME TYPE CGROUP MIB: a process that grows by 2 MiB every 10 ms up to
# MIB MiB, to bring CGROUP to its OOM; waited for until it is done growing
# or dead
push() {
	start "$1" "$2" "$3" tr-hog --mib "$4" --step-mib 2 --step-ms 10 --ready "/run/$1.ready"
	tr-waitfile --timeout-ms 30000 "/run/$1.ready"
}

pid_of() { cat "$RESULTS/$1.pid" 2>/dev/null; }

# status NAME: waits up to 10s for NAME to end, prints e.g. killed:9 or exited:0
status() {
	tr-waitfile --timeout-ms 10000 "$RESULTS/$1" >/dev/null 2>&1
	sed -n 's/^status=//p' "$RESULTS/$1" 2>/dev/null || echo running
}

# context_of NAME: the SELinux context NAME ran in
context_of() { sed -n 's/^context=//p' "$RESULTS/$1" 2>/dev/null; }

# alive NAME: NAME's process still exists
alive() { [ -d "/proc/$(pid_of "$1")" ] && [ ! -f "$RESULTS/$1" ]; }

# oom_killed_in_log NAME: the kernel logged NAME's pid as an OOM victim
oom_killed_in_log() {
	dmesg | grep -q "Killed process $(pid_of "$1") "
}

# stop_all: kill what a scenario started, so the next one starts clean
stop_all() {
	for f in "$RESULTS"/*.pid; do
		[ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
	done
	sleep 0.2
}

# status_now NAME: like status, without waiting
status_now() { sed -n 's/^status=//p' "$RESULTS/$1" 2>/dev/null || echo running; }

TRIAGE=/sys/kernel/security/triage

# load_policy TEXT: write TEXT to the triage policy file in one write
load_policy() {
	printf '%s\n' "$1" >/tmp/policy.txt
	dd if=/tmp/policy.txt of=$TRIAGE/policy bs=64k 2>/tmp/load.err
}

# ranked_first: the pid the ranking file puts first
ranked_first() { awk -F'\t' '$1 == "1" {print $2}' $TRIAGE/ranking; }

# decision_for NAME FIELD: a column of NAME's line in the decisions file
decision_for() {
	awk -F'\t' -v pid="$(pid_of "$1")" -v col="$2" '
		NR == 1 { for (i = 2; i <= NF; i++) c[$i] = i; c["seq"] = 1; next }
		$5 == pid { print $c[col] }' $TRIAGE/decisions | tail -n 1
}

# domain_of NAME: the SELinux type NAME runs (or ran) in
domain_of() {
	cut -d: -f3 "/proc/$(pid_of "$1")/attr/current" 2>/dev/null ||
		context_of "$1" | cut -d: -f3
}

# first_victim: the pid of the first OOM kill in the kernel log. A second
# OOM can follow the first before the first victim's pages are uncharged:
# exit_mmap() sets MMF_OOM_SKIP after unmapping but before freeing, and
# under emulation that window is tens of milliseconds; the stock kernel
# then kills again. Scenarios judge the decision by the first victim.
first_victim() {
	dmesg | sed -n 's/.*Killed process \([0-9]*\) .*/\1/p' | head -n 1
}
