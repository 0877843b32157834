# Early action: a pressure statement ("pressure some 10% 1s") makes
# triage kill before the machine thrashes, choosing by labels.  With swap
# on zram a sacrificed job's working set larger than memory thrashes: the
# stock kernel does not kill it (swap is not full); with the statement,
# triage-pressured (protected) sees the PSI trigger fire and the kernel
# kills the sacrificed job, never the protected database or the daemon.
# A memory cgroup's statement kills inside that cgroup only; a short spike
# kills nothing; permissive mode kills nothing.
# mem: 256M
# timeout: 420
# plan: 17
check "swap on zram" zram_swap 512M
check "triage policy loaded" load_policy "protect type=protected_t
sacrifice type=batch_t"
set_oom_policy "triage classic"
kills0=$(vm_oom_kills)

# --- the stock kernel: the thrash goes on, nobody is killed
hog database protected_t /sys/fs/cgroup 32
start thrash0 batch_t /sys/fs/cgroup tr-hog --mib 300 --thrash --ready /run/thrash0.ready
waitfile 120000 /run/thrash0.ready || diag "thrash0 never became ready"
nap 15
avg=$(psi_avg10 /proc/pressure/memory some)
diag "without a pressure statement, 15 s into the thrash: memory some avg10=$avg, $(grep -E '^(pswpin|pswpout) ' /proc/vmstat | tr '\n' ' ')"
check "without a pressure statement the thrashing job is still running after 15 s" alive thrash0
check_eq "and no OOM kill happened" "$kills0" "$(vm_oom_kills)"
check "while memory pressure was above 10% (some avg10)" awk -v a="$avg" 'BEGIN { exit !(a > 10) }'
kill -9 "$(pid_of thrash0)"
nap 2

# --- a pressure statement: triage-pressured asks, the kernel kills by label
check "a policy with a pressure statement loads" load_policy "protect type=protected_t
sacrifice type=batch_t
pressure some 10% 1s"
check_eq "the pressure file lists the statement as a PSI trigger" "1 some 100000 1000000 - 0" \
	"$(sed -n 2p $TRIAGE/pressure)"
start pressured protected_t /sys/fs/cgroup sh -c 'exec triage-pressured --verbose 2>/run/pressured.log'
nap 2
diag "$(cat /run/pressured.log)"
dmesg -c >/dev/null
t0=$(cut -d' ' -f1 /proc/uptime)
start thrash batch_t /sys/fs/cgroup tr-hog --mib 300 --thrash --ready /run/thrash.ready
check_eq "the thrashing sacrificed job was SIGKILLed" killed:9 "$(waitfile 90000 "$RESULTS/thrash"; status_now thrash)"
t1=$(cut -d' ' -f1 /proc/uptime)
diag "killed $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s after it started"
diag "$(cat /run/pressured.log)"
check "the kill line says memory pressure" sh -c "dmesg | grep -q 'Memory pressure (some avg10=.*pressure statement 1).*Killed process $(pid_of thrash) '"
check_eq "decisions: scope pressure, killed" "pressure killed" "$(decision_for thrash scope) $(decision_for thrash outcome)"
check "the protected database survived" alive database
check "triage-pressured (protected) survived its own pressure" alive pressured
check_eq "one kill in all" "$((kills0 + 1))" "$(vm_oom_kills)"
check_eq "stats: one early kill" 1 "$(sed -n 's/^early_kills //p' $TRIAGE/stats)"
check_eq "the pressure file counts it" "1 some 100000 1000000 - 1" "$(sed -n 2p $TRIAGE/pressure)"
check "an AUDIT_TRIAGE_DECISION (1427) record says scope=pressure and the PSI figure" \
	audit_logged "type=1427 .*scope=pressure opid=$(pid_of thrash) .*outcome=killed pressure=1 psi=some:[0-9]+\.[0-9]{2}"
check "triage-pressured logged the kill" grep -q "statement 1 .*killed" /run/pressured.log
stop_all
nap 2
