# Every candidate protected: the policy's fallback decides, and the
# kernel neither livelocks nor panics (fallback least-protected, then
# classic); exec into another domain changes a task's verdict.
# mem: 256M
# plan: 10
# append: kmemleak=off
# (no leak tracking on the debug kernel, for time: the OOM paths this
# adds allocate nothing; see DEBUG_SCENARIOS in the Makefile)
set_oom_policy "triage classic"
check "policy with fallback least-protected loads" load_policy "fallback least-protected
protect type=protected_t
protect type=web_t
protect type=user_t
sacrifice type=batch_t"
cg=$(memcg allprot 64M)
hog p1 protected_t "$cg" 30
hog p2 web_t "$cg" 12
push pusher user_t "$cg" 30
check_eq "fallback least-protected killed the largest protected task" killed:9 "$(status p1)"
check_eq "the decision says fallback-least-protected" fallback-least-protected \
	"$(decision_for p1 outcome)"
# a second OOM may come before the first victim's memory is uncharged
# (the stock killer has the same race): at least one fallback
check "stats counts the fallback" [ "$(sed -n 's/^fallbacks //p' $TRIAGE/stats)" -ge 1 ]
stop_all

# exec across domains: a web_t task that execs into batch_t becomes
# sacrificial, and dies although it is the smallest.  It lives through an
# OOM first (as web_t, under no rule: a batch_t bait dies), so that the
# OOM killer has met it before: what it found then must not outlive the
# exec.  Each OOM is reached by the sizes alone (30 + 20 + 16 = 66 MiB of
# a 64 MiB limit, plus the cgroup's own overhead) and comes from the task
# that is to die, so that no other task is charging while the victim's
# memory is freed (a second victim, then, would be the kernel's usual
# race, not the verdict under test).
check "policy without user_t protected loads" load_policy "protect type=protected_t
sacrifice type=batch_t"
cg=$(memcg exec 64M)
hog big protected_t "$cg" 30
batch_ctx=$(sed 's/:init_t:/:batch_t:/' /proc/self/attr/current)
start moved web_t "$cg" sh -c "echo >/run/moved.waiting; tr-waitfile --timeout-ms 60000 /run/moved.go &&
	printf %s '$batch_ctx' >/proc/self/attr/exec &&
	exec tr-hog --mib 16 --ready /run/moved.ready"
waitfile 10000 /run/moved.waiting
hog ordinary user_t "$cg" 20
push bait batch_t "$cg" 16
check_eq "first OOM: the batch_t bait dies, the web_t and user_t tasks live on" \
	"killed:9 web_t alive" "$(status bait) $(domain_of moved) $(alive ordinary && echo alive)"
touch /run/moved.go
check_eq "the task that exec'd into batch_t was sacrificed" killed:9 "$(status moved)"
check_eq "the kernel chose it by the batch_t rule" "sacrifice 2" \
	"$(decision_for moved verdict) $(decision_for moved rule)"
check "the user_t task survived" alive ordinary
check "the protected large task survived" alive big
stop_all
