# Every candidate protected and the policy's fallback is panic.  In a
# memory cgroup OOM a tenant must not be able to panic the machine: the
# least protected task dies instead.  In a system-wide OOM the kernel
# panics with triage's message after the OOM report (honouring
# kernel.panic; here panic=-1 reboots at once, which ends QEMU) instead of
# livelocking.
# mem: 256M
# plan: 5
# append: kmemleak=off
# (no leak tracking on the debug kernel, for time: the OOM paths this
# adds allocate nothing; see DEBUG_SCENARIOS in the Makefile)
# expect-panic: every OOM candidate is protected (fallback panic)
set_oom_policy "triage classic"
check "fallback panic policy loads" load_policy "fallback panic
protect type=web_t
protect type=protected_t
protect type=init_t"
cg=$(memcg fbpanic 32M)
hog p protected_t "$cg" 8
start solo web_t "$cg" tr-hog --mib 64
check_eq "memcg OOM: the largest protected task died, no panic" killed:9 "$(status solo)"
check "memcg OOM: the smaller protected task survived" alive p
check_eq "decisions: a least-protected fallback in the memcg" "fallback-least-protected memcg" \
	"$(decision_for solo outcome) $(decision_for solo scope)"
check "the kernel said it ignored protection" sh -c 'dmesg | grep -q "every candidate protected, ignoring protection"'
# a system-wide OOM among protected tasks only: this one panics
start global web_t /sys/fs/cgroup tr-hog --mib 400 --step-mib 4 --step-ms 20
nap 60
tap_fail "the system-wide OOM should have panicked"
