# Shell vocabulary of the guest scenarios (sourced by /init; busybox ash).
# Assertions print TAP to fd 3; every number comes from the kernel's own
# evidence: exit signals, memory.events, the kernel log.
# Every scenario declares in its header how many test points it prints
# ("# plan: N"; docs/testing.md); the runner fails a scenario that prints
# another number.  Helpers keep their variables local: a scenario's own
# name, type, cg, n... are never touched.

RESULTS=/run/results
mkdir -p "$RESULTS"
[ -f /run/tap-count ] || echo 0 >/run/tap-count

# The factor every fixed wait is multiplied by: time_scale=K on the kernel
# command line (tests/qemu/run --timeout-scale K, for the debug kernel).
TIME_SCALE=${time_scale:-1}

# shell builtins only: a test point must still print where no process can
# be started (init's check before each scenario)
_tap() {
	local n
	read -r n </run/tap-count
	n=$((n + 1))
	echo $n >/run/tap-count
	echo "$1 $n - $2" >&3
}
tap_ok() { _tap ok "$1"; }
tap_fail() { _tap "not ok" "$1"; }
# tap_skip DESCRIPTION REASON: a test point that could not be run here; the
# runner reports it as a skip, never as a pass
tap_skip() { _tap ok "$1 # SKIP $2"; }
# diag TEXT: a TAP comment; every line of a multi-line TEXT is one
diag() { printf '%s\n' "$*" | sed 's/^/# /' >&3; }

# plan N: for a scenario whose header says "# plan: dynamic" only, the
# number of test points it is about to print, worked out from evidence
# other than its own output (e.g. the plans of the KTAP it reports)
plan() { echo "# plan $1" >&3; }

# check DESCRIPTION COMMAND...: ok when the command succeeds
check() {
	local desc=$1; shift
	if "$@"; then tap_ok "$desc"; else tap_fail "$desc"; fi
}

# check_eq DESCRIPTION EXPECTED ACTUAL: ok when both are the same and not
# empty (two empty strings are most often two failed look-ups)
check_eq() {
	if [ -z "$2" ] && [ -z "$3" ]; then
		tap_fail "$1"
		diag "expected and got are both empty: nothing was compared"
	elif [ "$2" = "$3" ]; then
		tap_ok "$1"
	else
		tap_fail "$1"
		diag "expected '$2', got '$3'"
	fi
}

# check_eq_empty DESCRIPTION ACTUAL: ok when ACTUAL is empty, for the
# assertions whose evidence is the absence of something (no line of a
# file matches); make sure that a failing command cannot also print nothing
check_eq_empty() {
	if [ -z "$2" ]; then
		tap_ok "$1"
	else
		tap_fail "$1"
		diag "expected nothing, got '$2'"
	fi
}

# nap SECONDS: sleep SECONDS (fractions allowed) times the time scale
nap() { sleep "$(scaled "$1")"; }

# scaled NUMBER: NUMBER times the time scale
scaled() { awk -v x="$1" -v k="$TIME_SCALE" 'BEGIN { print x * k }'; }

# waitfile MS FILE...: wait until every FILE exists, at most MS ms times
# the time scale (tr-waitfile; fails on timeout)
waitfile() {
	local ms=$1; shift
	tr-waitfile --timeout-ms "$(scaled "$ms")" "$@"
}

# memcg NAME MAX: a fresh memory cgroup limited to MAX (no swap here)
memcg() {
	local dir=/sys/fs/cgroup/$1
	mkdir -p "$dir"
	echo "$2" >"$dir/memory.max"
	echo "$dir"
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
	local sname=$1 stype=$2 scg=$3 typeopt
	shift 3
	case "$stype" in
	-) typeopt= ;;
	@*) typeopt="--label ${stype#@}" ;;
	*) typeopt="--type $stype" ;;
	esac
	tr-run --name "$sname" $typeopt --cgroup "$scg" --results "$RESULTS" -- "$@" >>/run/tr-run.log 2>&1 &
}

# hog NAME TYPE CGROUP MIB: a process holding MIB MiB, waited for until resident
hog() {
	start "$1" "$2" "$3" tr-hog --mib "$4" --ready "/run/$1.ready"
	waitfile 30000 "/run/$1.ready" ||
		diag "hog $1 ($2, $4 MiB) never became ready"
}

# push NAME TYPE CGROUP MIB: a process that grows by 2 MiB every 10 ms up to
# MIB MiB, to bring CGROUP to its OOM; waited for until it is done growing
# or dead (an OOM victim itself)
push() {
	start "$1" "$2" "$3" tr-hog --mib "$4" --step-mib 2 --step-ms 10 --ready "/run/$1.ready"
	waitfile 30000 --any "/run/$1.ready" "$RESULTS/$1"
}

pid_of() { cat "$RESULTS/$1.pid" 2>/dev/null; }

# status NAME: waits up to 10 s (scaled) for NAME to end, prints e.g.
# killed:9 or exited:0, or running
status() {
	waitfile 10000 "$RESULTS/$1" >/dev/null 2>&1
	sed -n 's/^status=//p' "$RESULTS/$1" 2>/dev/null || echo running
}

# context_of NAME: the SELinux context NAME ran in
context_of() { sed -n 's/^context=//p' "$RESULTS/$1" 2>/dev/null; }

# alive NAME: NAME was started (its pid file exists), has not ended (no
# results file), and its process is neither a zombie nor dying: state Z or
# X, or a SIGKILL pending (an OOM kill not yet acted on), is dead
alive() {
	local pid
	pid=$(pid_of "$1")
	[ -n "$pid" ] && [ ! -f "$RESULTS/$1" ] || return 1
	alive_pid "$pid"
}

# alive_pid PID: the process is neither gone, a zombie, nor dying
alive_pid() {
	local pid=$1 state sigs
	state=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)
	case "$state" in ""|Z|X|x) return 1 ;; esac
	for sigs in $(sed -n -e 's/^SigPnd:[[:space:]]*//p' -e 's/^ShdPnd:[[:space:]]*//p' \
			"/proc/$pid/status" 2>/dev/null); do
		[ $(( 0x$sigs & 0x100 )) -eq 0 ] || return 1
	done
}

# oom_killed_in_log NAME: the kernel logged NAME's pid as an OOM victim
oom_killed_in_log() {
	dmesg | grep -q "Killed process $(pid_of "$1") "
}

# audit_logged PATTERN: an audit record matching PATTERN (grep -E) reaches
# the kernel log within 3 s times the time scale.  Without auditd, kauditd
# prints records from its own thread, after the syscall that made them has
# returned: a grep at once can run before the record is there.
audit_logged() {
	local i=0 n
	n=$(scaled 30 | cut -d. -f1)
	while ! dmesg | grep -Eq "$1"; do
		[ $i -lt "$n" ] || return 1
		sleep 0.1; i=$((i + 1))
	done
}

# stop_all: kill what a scenario started, so the next one starts clean
stop_all() {
	local f
	for f in "$RESULTS"/*.pid; do
		[ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
	done
	nap 0.2
}

# status_now NAME: like status, without waiting
status_now() { sed -n 's/^status=//p' "$RESULTS/$1" 2>/dev/null || echo running; }

TRIAGE=/sys/kernel/security/triage

# set_oom_policy ORDER: write ORDER to vm.oom_policy and read it back.  A
# write that did not take ends the scenario at once (a failed point, and
# exit 1: the judge reports both), so that no OOM after it is judged
# under another chain than the scenario meant.  Not a test point when it
# works: plans do not count it.  (Writes meant to be refused, as in
# chain-sysctl, stay plain echos.)  OOM_POLICY: another file, for the
# runner's self-test.
set_oom_policy() {
	local got f=${OOM_POLICY:-/proc/sys/vm/oom_policy}
	echo "$1" >"$f" 2>/tmp/oom_policy.err
	got=$(cat "$f" 2>/dev/null)
	[ "$got" = "$1" ] && return 0
	tap_fail "vm.oom_policy takes '$1'"
	diag "after writing '$1' vm.oom_policy reads '$got' ($(cat /tmp/oom_policy.err 2>/dev/null))"
	echo "set_oom_policy: vm.oom_policy is '$got', not '$1': scenario stopped" >/dev/console
	exit 1
}

# load_policy TEXT: write TEXT to the triage policy file in one write
load_policy() {
	printf '%s\n' "$1" >/tmp/policy.txt
	dd if=/tmp/policy.txt of=$TRIAGE/policy bs=1M 2>/tmp/load.err
}

# ranked_first: the pid the ranking file puts first
ranked_first() { awk -F'\t' '$1 == "1" {print $2}' $TRIAGE/ranking; }
# the value of a counter of the stats file
stat_of() { sed -n "s/^$1 //p" $TRIAGE/stats; }

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

# oom_score_of NAME: NAME's /proc/PID/oom_score, which looks its label up
# without learning it (ranking would learn every label first)
oom_score_of() { cat "/proc/$(pid_of "$1")/oom_score" 2>/dev/null; }

# relabel_then_oom CGROUP LABEL ORDINARY: a task of 60 MiB in the caller's
# label changes its own label to LABEL (protected by the policy in force,
# carried by no task before) without exec; at once its oom_score says so,
# and the OOM an ordinary 40 MiB pusher in ORDINARY (a start() label)
# brings kills the pusher, not the larger relabelled task.  4 points.
relabel_then_oom() {
	local cg=$1 label=$2 ordinary=$3
	start moved - "$cg" tr-hog --mib 60 --relabel "$label" --ready /run/moved.ready
	waitfile 30000 /run/moved.ready || diag "moved never became ready"
	check_eq "oom_score of a task that relabelled itself without exec: 0 (protected) at once" \
		0 "$(oom_score_of moved)"
	dmesg -c >/dev/null
	push pusher-moved "$ordinary" "$cg" 40
	check_eq "the next OOM kills the ordinary pusher" "$(pid_of pusher-moved)" "$(first_victim)"
	check "the larger task it relabelled to a protected label survived" alive moved
	check_eq "no candidate's label was missing from the table" 0 \
		"$(sed -n 's/^label_misses //p' $TRIAGE/stats)"
	stop_all
}

# lsm_order_oom LSMS POLICY PROTECTED SACRIFICED ORDINARY RELABEL: a boot
# whose LSM list (lsm= in its header) is LSMS, triage before the major
# LSM: it came up (no oops at the first fork), and a triage POLICY decides
# an OOM among a large PROTECTED task, a small SACRIFICED one and an
# ORDINARY pusher (start() labels), then a relabel without exec to
# RELABEL, a label POLICY protects that no task carried before
# (relabel_then_oom).  11 points.
lsm_order_oom() {
	local cg
	check_eq "the LSMs of this boot, triage before the major LSM" "$1" \
		"$(cat /sys/kernel/security/lsm)"
	check "a triage policy loads" load_policy "$2"
	set_oom_policy "triage classic"
	cg=$(memcg order 96M)
	hog database "$3" "$cg" 40
	hog batch "$4" "$cg" 8
	check "forks and execs in labels worked" [ -n "$(pid_of database)" -a -n "$(pid_of batch)" ]
	check_eq "ranking: the sacrificed task first" "$(pid_of batch)" "$(ranked_first)"
	dmesg -c >/dev/null
	push pusher "$5" "$cg" 56
	check_eq "the small sacrificed task was the first OOM victim" "$(pid_of batch)" "$(first_victim)"
	check "the large protected task survived" alive database
	check_eq "stats: no task unlabelled" 0 "$(sed -n 's/^unlabelled_tasks //p' $TRIAGE/stats)"
	stop_all
	relabel_then_oom "$(memcg order-relabel 96M)" "$6" "$5"
}

# zram_swap SIZE: swap of SIZE on /dev/zram0 (compressed memory), so that
# a working set larger than memory thrashes instead of meeting the OOM
# killer at once
zram_swap() {
	echo "$1" >/sys/block/zram0/disksize &&
		mkswap /dev/zram0 >/dev/null && swapon /dev/zram0
}

# psi_avg10 FILE LINE: the avg10 of LINE (some or full) in a PSI FILE
# (/proc/pressure/memory, or a cgroup's memory.pressure)
psi_avg10() {
	sed -n "s/^$2 avg10=\([0-9.]*\) .*/\1/p" "$1"
}

# vm_oom_kills: the kernel's own count of OOM kills (early ones included)
vm_oom_kills() { sed -n 's/^oom_kill //p' /proc/vmstat; }
