# Stacking without a major LSM: this boot enables only capability and
# triage (lsm= below), so no LSM labels tasks and every task has the empty
# label.  triage must behave sanely and say so: stats counts every task as
# unlabelled, ranking shows no label and no rule, type= rules match
# nothing and the OOM killer falls back to badness; a label=* rule (the
# only kind that can match the empty label) applies to every task, and the
# fallback decides when it protects them all.
# append: lsm=capability,triage
# allow-log: triage: no LSM labels tasks
#   (the warning this boot must print, and checks below; any other boot
#   that prints it fails: tests/qemu/kernel-reports)
# mem: 256M
# plan: 15
check_eq "the LSMs of this boot" "capability,triage" "$(cat /sys/kernel/security/lsm)"
check "no task has a label (attr/current has no provider)" \
	sh -c '! cat /proc/self/attr/current 2>/dev/null'
check "a policy of type= rules loads" load_policy "protect type=protected_t
sacrifice type=batch_t"
set_oom_policy "triage classic"
diag "$(tr '\n' ' ' <$TRIAGE/stats)"
check "stats: tasks were resolved" [ "$(stat_of resolved_tasks)" -gt 0 ]
check_eq "stats: every resolved task is unlabelled" "$(stat_of resolved_tasks)" \
	"$(stat_of unlabelled_tasks)"
check "the kernel log says no LSM labels tasks" sh -c \
	'dmesg | grep -q "triage: no LSM labels tasks"'

cg=$(memcg nomajor 48M)
hog big - "$cg" 24
hog small - "$cg" 8
diag "$(tr '\t' ' ' <$TRIAGE/ranking)"
check_eq "ranking: the largest task first" "$(pid_of big)" "$(ranked_first)"
check_eq "ranking: no label, no verdict, no rule" "- none -" \
	"$(awk -F'\t' -v p="$(pid_of big)" '$2 == p {print $8, $6, $7}' $TRIAGE/ranking)"
push pusher - "$cg" 30
check_eq "a memcg OOM kills by badness: the largest task" "$(pid_of big)" "$(first_victim)"
check_eq "decisions: no verdict" none "$(decision_for big verdict)"
check_eq "stats: no label look-up missed" 0 "$(stat_of label_misses)"
stop_all

# label=* matches the empty label: every task is protected, the fallback
# (least-protected: the largest by badness) decides
check "a policy protecting label=* loads" load_policy "fallback least-protected
protect label=*"
cg=$(memcg nomajor-all 48M)
hog big2 - "$cg" 24
hog small2 - "$cg" 8
check_eq_empty "ranking: every task protected" \
	"$(awk -F'\t' 'NR > 1 && $6 != "protect"' $TRIAGE/ranking)"
dmesg -c >/dev/null
push pusher2 - "$cg" 30
check_eq "all protected: the fallback kills the largest" "$(pid_of big2)" "$(first_victim)"
check "and counts a fallback" [ "$(stat_of fallbacks)" -ge 1 ]
stop_all
