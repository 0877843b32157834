# Early action: a pressure statement ("pressure some 10% 1s") makes
# triage kill before the machine thrashes, choosing by labels.  With swap
# on zram a sacrificed job's working set larger than memory thrashes: the
# stock kernel does not kill it (swap is not full); with the statement,
# triage-pressured (protected) sees the PSI trigger fire and the kernel
# kills the sacrificed job, never the protected database or the daemon.
# After a kill early action holds off for 10 s: a second request 2 s
# later (past the 1 s window) is refused and the sacrificed bystander
# lives, and so is one right after a real OOM kill.  Early action takes
# sacrificed tasks only (an ordinary thrashing job lives); a tenant
# stalling behind its own memory.high with memory free kills nothing
# outside its cgroup.  A memory cgroup's statement kills inside that
# cgroup only; a short spike kills nothing; permissive mode kills
# nothing and records what it would have killed.
# mem: 256M
# timeout: 540
# plan: 51
check "swap on zram" zram_swap 512M
check "triage policy loaded" load_policy "protect type=protected_t
sacrifice type=batch_t"
set_oom_policy "triage classic"
kills0=$(vm_oom_kills)

# --- the stock kernel: the thrash goes on, nobody is killed
hog database protected_t /sys/fs/cgroup 32
start thrash0 batch_t /sys/fs/cgroup tr-hog --mib 300 --thrash --ready /run/thrash0.ready
waitfile 120000 /run/thrash0.ready || diag "thrash0 never became ready"
nap 10
avg=$(psi_avg10 /proc/pressure/memory some)
diag "without a pressure statement, 10 s into the thrash: memory some avg10=$avg, $(grep -E '^(pswpin|pswpout) ' /proc/vmstat | tr '\n' ' ')"
check "without a pressure statement the thrashing job is still running after 10 s" alive thrash0
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
# sacrificed too, but smaller: the thrashing job goes first
hog bystander batch_t /sys/fs/cgroup 8
dmesg -c >/dev/null
t0=$(cut -d' ' -f1 /proc/uptime)
start thrash batch_t /sys/fs/cgroup tr-hog --mib 300 --thrash --ready /run/thrash.ready
check_eq "the thrashing sacrificed job was SIGKILLed" killed:9 "$(waitfile 90000 "$RESULTS/thrash"; status_now thrash)"
t1=$(cut -d' ' -f1 /proc/uptime)
diag "killed $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s after it started"
diag "$(cat /run/pressured.log)"
check "the kill line says memory pressure and names the sacrifice rule (rule 2)" \
	sh -c "dmesg | grep -q 'Memory pressure (some avg10=.*pressure statement 1) (oom policy triage: rule 2: sacrifice type=batch_t): Killed process $(pid_of thrash) '"
check_eq "decisions: scope pressure, killed" "pressure killed" "$(decision_for thrash scope) $(decision_for thrash outcome)"
check "the protected database survived" alive database
check "triage-pressured (protected) survived its own pressure" alive pressured
check_eq "one kill in all" "$((kills0 + 1))" "$(vm_oom_kills)"
check_eq "stats: one early kill" 1 "$(sed -n 's/^early_kills //p' $TRIAGE/stats)"
check_eq "the pressure file counts it" "1 some 100000 1000000 - 1" "$(sed -n 2p $TRIAGE/pressure)"
check "an AUDIT_TRIAGE_DECISION (1427) record says scope=pressure and the PSI figure" \
	audit_logged "type=1427 .*scope=pressure opid=$(pid_of thrash) .*outcome=killed pressure=1 psi=some:[0-9]+\.[0-9]{2}"
check "triage-pressured logged the kill" grep -q "statement 1 .*killed" /run/pressured.log
check "the kill came within 1 s of the trigger firing" sh -c "awk '
	/statement 1 .*: pressure: fire/ && !f { gsub(/[][]/, \"\", \$2); f = \$2 }
	/statement 1 .*: killed/ && !k { gsub(/[][]/, \"\", \$2); k = \$2 }
	END { exit !(f && k && k - f >= 0 && k - f <= 1) }' /run/pressured.log"
# the hold-off: past the statement's 1 s window, within 10 s of the kill
nap 2
gen=$(sed -n 's/^generation //p' $TRIAGE/pressure)
check "2 s after the kill a second request is refused: the hold-off (EAGAIN)" sh -c \
	"echo 'fire $gen 1' 2>&1 >$TRIAGE/pressure | grep -q 'temporarily unavailable'"
check "the sacrificed bystander lives" alive bystander
check_eq "still one early kill" 1 "$(sed -n 's/^early_kills //p' $TRIAGE/stats)"
kill -9 "$(pid_of thrash0)" "$(pid_of bystander)" 2>/dev/null

# --- early action takes sacrificed tasks only: an ordinary job that
# thrashes is the OOM killer's business, not a guess's
nap 9	# past the hold-off of the kill above
lines0=$(wc -l </run/pressured.log)
start plainthrash user_t /sys/fs/cgroup tr-hog --mib 300 --thrash --ready /run/plainthrash.ready
waitfile 120000 /run/plainthrash.ready || diag "plainthrash never became ready"
nap 8
check "an ordinary job that thrashes is not taken early" alive plainthrash
check "triage-pressured asked and was refused: nothing sacrificed to take (ESRCH)" sh -c \
	"tail -n +$((lines0 + 1)) /run/pressured.log | grep -q 'statement 1 .*ESRCH'"
check "the protected database lives" alive database
kill -9 "$(pid_of plainthrash)"
nap 3

# --- a tenant stalling behind its own memory.high, with memory free,
# kills nothing outside its cgroup: the system is not short
hog idle2 batch_t /sys/fs/cgroup 8
tenant=$(memcg tenant max)
echo 8M >"$tenant/memory.high"
lines0=$(wc -l </run/pressured.log)
start tenantjob user_t "$tenant" tr-hog --mib 64 --thrash
nap 8
diag "tenant stalling: memory some avg10=$(psi_avg10 /proc/pressure/memory some), $(grep MemAvailable /proc/meminfo)"
check "the sacrificed idle job outside the tenant's cgroup lives" alive idle2
check "the tenant's stall made triage-pressured ask; the kernel refused: not short (ENODATA)" sh -c \
	"tail -n +$((lines0 + 1)) /run/pressured.log | grep -q 'statement 1 .*ENODATA'"
kill -9 "$(pid_of tenantjob)"
nap 2

# --- the hold-off follows every kill, not only the statement's own: a
# request right after a real OOM kill is refused
hog bystander2 batch_t /sys/fs/cgroup 8
realcg=$(memcg realoom 32M)
echo 0 >"$realcg/memory.swap.max"	# no zram behind the limit: an OOM
push realoom user_t "$realcg" 64
check_eq "a memory cgroup OOM killed its pusher" killed:9 "$(status realoom)"
gen=$(sed -n 's/^generation //p' $TRIAGE/pressure)
check "a fire request right after that OOM kill is refused: the hold-off (EAGAIN)" sh -c \
	"echo 'fire $gen 1' 2>&1 >$TRIAGE/pressure | grep -q 'temporarily unavailable'"
check "the sacrificed bystander lives" alive bystander2
kill -9 "$(pid_of bystander2)" "$(pid_of idle2)" 2>/dev/null

# --- a spike shorter than the statement's stall threshold kills nothing
check "a policy asking for 1 s of stall in 2 s loads" load_policy "protect type=protected_t
sacrifice type=batch_t
pressure some 50% 2s"
hog idle batch_t /sys/fs/cgroup 8
early0=$(sed -n 's/^early_kills //p' $TRIAGE/stats)
lines0=$(wc -l </run/pressured.log)
start spike user_t /sys/fs/cgroup tr-hog --mib 300 --thrash
nap 0.5
kill -9 "$(pid_of spike)"
nap 4
check "after a 0.5 s spike the sacrificed idle task lives" alive idle
check_eq "and no early kill happened" "$early0" "$(sed -n 's/^early_kills //p' $TRIAGE/stats)"
check_eq_empty "triage-pressured was not even asked" "$(tail -n +$((lines0 + 1)) /run/pressured.log | grep 'pressure: fire')"

# --- a memory cgroup's statement kills inside that cgroup only
check "a policy with a statement for /batch loads" load_policy "protect type=protected_t
sacrifice type=web_t rank=900
sacrifice type=batch_t
pressure some 10% 1s cgroup=/batch"
cg=$(memcg batch 64M)
# outside /batch, a task a system-wide kill would take first
hog first web_t /sys/fs/cgroup 8
start memthrash batch_t "$cg" tr-hog --mib 128 --thrash --ready /run/memthrash.ready
check_eq "the job thrashing in /batch was SIGKILLed" killed:9 "$(waitfile 90000 "$RESULTS/memthrash"; status_now memthrash)"
check_eq "decisions: scope memcg-pressure" "memcg-pressure killed" "$(decision_for memthrash scope) $(decision_for memthrash outcome)"
check "the higher-ranked sacrificed task outside /batch lives" alive first
check_eq "/batch's memory.events counts the kill" 1 "$(memcg_event "$cg" oom_kill)"

# --- a scope of protected tasks only: early action kills nothing
check "a policy with a statement for /vault loads" load_policy "protect type=protected_t
sacrifice type=batch_t
pressure some 10% 1s cgroup=/vault"
vault=$(memcg vault 64M)
start vaultthrash protected_t "$vault" tr-hog --mib 128 --thrash
nap 8
check "the protected job thrashing alone in /vault lives" alive vaultthrash
check "triage-pressured was refused: nothing unprotected to kill" grep -q "ESRCH" /run/pressured.log
kill -9 "$(pid_of vaultthrash)"

# --- a cgroup without memory.max (memory.high only): oom_score_adj is
# scaled as in a system-wide OOM, not by the unlimited counter's pages,
# so a small sacrificed task at +1 does not die before the thrasher
nap 3	# past the hold-off of the /batch kill
check "a policy with a statement for /nolimit loads" load_policy "protect type=protected_t
sacrifice type=batch_t
pressure some 10% 1s cgroup=/nolimit"
nolimit=/sys/fs/cgroup/nolimit
mkdir -p "$nolimit"
echo 48M >"$nolimit/memory.high"
start plusone batch_t "$nolimit" sh -c 'echo 1 >/proc/self/oom_score_adj && exec tr-hog --mib 4 --ready /run/plusone.ready'
waitfile 30000 /run/plusone.ready || diag "plusone never became ready"
start bigthrash batch_t "$nolimit" tr-hog --mib 128 --thrash
check_eq "in a cgroup without memory.max the thrasher is killed" killed:9 \
	"$(waitfile 90000 "$RESULTS/bigthrash"; status_now bigthrash)"
check "the small sacrificed task at oom_score_adj +1 lives" alive plusone
kill -9 "$(pid_of plusone)" 2>/dev/null
nap 8	# past that kill's hold-off

# --- permissive mode: early action kills nothing
check "a permissive policy with a pressure statement loads" load_policy "mode permissive
protect type=protected_t
sacrifice type=batch_t
pressure some 10% 1s"
refused0=$(sed -n 's/^early_refusals //p' $TRIAGE/stats)
start trial batch_t /sys/fs/cgroup tr-hog --mib 300 --thrash
nap 8
check "in permissive mode the thrashing sacrificed job lives" alive trial
check "triage-pressured was refused (ECANCELED)" grep -q "ECANCELED" /run/pressured.log
check_eq "what it would have killed is recorded: scope pressure, would-kill" "pressure would-kill" \
	"$(decision_for trial scope) $(decision_for trial outcome)"
check "stats count the refusals" [ "$(sed -n 's/^early_refusals //p' $TRIAGE/stats)" -gt "$refused0" ]
check "the protected database lived through it all" alive database
check "and so did triage-pressured" alive pressured
diag "$(cat /run/pressured.log)"
stop_all
nap 2
