# vm.panic_on_oom acts before every OOM policy: with panic_on_oom=1 and a
# triage policy first in the chain, a memory cgroup OOM is decided by the
# labels (panic_on_oom=1 ignores memcg OOMs), and a system-wide OOM
# panics with panic_on_oom's message whatever triage would have chosen.
# mem: 256M
# plan: 4
# append: kmemleak=off
# (no leak tracking on the debug kernel, for time: the OOM paths this
# adds allocate nothing; see DEBUG_SCENARIOS in the Makefile)
# expect-panic: panic_on_oom is enabled
set_oom_policy "triage classic"
check "policy loads" load_policy "protect type=protected_t
sacrifice type=batch_t"
echo 1 >/proc/sys/vm/panic_on_oom
cg=$(memcg pooom 64M)
hog db protected_t "$cg" 30
hog batch batch_t "$cg" 8
push pusher user_t "$cg" 40
check_eq "memcg OOM: the labels decided (batch sacrificed)" killed:9 "$(status batch)"
check "memcg OOM: the protected database survived" alive db
# the guest still runs, so that OOM did not panic; what can fail is that
# panic_on_oom was not in force when it came, or that no OOM came
check_eq "memcg OOM under panic_on_oom=1 (in force, and counted in memory.events)" "1 1" \
	"$(cat /proc/sys/vm/panic_on_oom) $([ "$(memcg_event "$cg" oom_kill)" -ge 1 ] && echo 1)"
start global user_t /sys/fs/cgroup tr-hog --mib 400 --step-mib 4 --step-ms 20
nap 60
tap_fail "the system-wide OOM should have panicked (panic_on_oom=1)"
