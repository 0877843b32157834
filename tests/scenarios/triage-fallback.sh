# Every candidate protected: the policy's fallback decides, and the
# kernel neither livelocks nor panics (fallback least-protected, then
# classic); exec into another domain changes a task's verdict.
# mem: 256M
# plan: 8
echo "triage classic" >/proc/sys/vm/oom_policy
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
# sacrificial, and dies although it is the smallest.  The pusher (user_t)
# is not protected here: should a second OOM come before the victim's
# pages are uncharged, it must not make the fallback kill the protected
# task.
check "policy without user_t protected loads" load_policy "protect type=protected_t
sacrifice type=batch_t"
cg=$(memcg exec 64M)
hog big protected_t "$cg" 30
start mover web_t "$cg" tr-run --name moved --type batch_t --results /run/results -- tr-hog --mib 4 --ready /run/moved.ready
waitfile 10000 /run/moved.ready
check_eq "after exec into batch_t the ranking puts it first" "$(pid_of moved)" "$(ranked_first)"
push pusher2 user_t "$cg" 30
check_eq "the task that exec'd into batch_t was sacrificed" killed:9 "$(status moved)"
check "the protected large task survived" alive big
stop_all
