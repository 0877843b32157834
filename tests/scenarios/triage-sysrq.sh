# A sysrq-triggered OOM (sysrq-f: a request, not a shortage) is decided by
# the labels: with a sacrificed task among the candidates that task dies;
# when every candidate is protected nobody dies (no fallback for a
# request).  Nothing of that OOM is carried to the next one: an OOM that
# classic decides afterwards is recorded as an ordinary kill, not as a
# fallback.  The panic policy heads the chain and must pass: a request is
# not a shortage (panicking here is a kernel report that fails the boot).
# mem: 256M
# plan: 10
# append: kmemleak=off
# (no leak tracking on the debug kernel, for time: the OOM paths this
# adds allocate nothing; see DEBUG_SCENARIOS in the Makefile)
check "/proc/sysrq-trigger exists" [ -w /proc/sysrq-trigger ]
check "a policy protecting init_t and protected_t, sacrificing batch_t loads" \
	load_policy "protect type=init_t
protect type=protected_t
sacrifice type=batch_t"
set_oom_policy "panic triage classic"
hog database protected_t /sys/fs/cgroup 40
hog batch batch_t /sys/fs/cgroup 4
dmesg -c >/dev/null
echo f >/proc/sysrq-trigger
check_eq "sysrq-f killed the sacrificed task" killed:9 "$(status batch)"
check "the large protected database survived it" alive database

# every candidate protected: the request kills nothing
dmesg -c >/dev/null
before=$(sed -n 's/^fallbacks //p' $TRIAGE/stats)
echo f >/proc/sysrq-trigger
nap 1
check "sysrq-f with every candidate protected killed nobody" sh -c \
	'! dmesg | grep -q "Killed process"'
check "the kernel said no task was eligible" sh -c \
	'dmesg | grep -q "OOM request ignored. No task eligible"'
check "the database survived" alive database
check "stats counted the all-protected OOM" [ "$(sed -n 's/^fallbacks //p' $TRIAGE/stats)" -gt "$before" ]

# the next OOM, decided by classic alone, is an ordinary kill
set_oom_policy classic
cg=$(memcg after-sysrq 64M)
hog web web_t "$cg" 20
dmesg -c >/dev/null
push pusher web_t "$cg" 60
check_eq "classic's OOM killed the largest task in its cgroup" "$(pid_of pusher)" "$(first_victim)"
check_eq "decisions: that victim is recorded as killed, not as a fallback" killed \
	"$(decision_for pusher outcome)"
stop_all
