# A sacrificed domain dies first although it is the smallest; the
# protected database, the largest, survives; ranking, decisions, stats
# and the audit record agree with the kernel's choice.
# mem: 256M
# plan: 15
check "triage policy loaded" load_policy "protect type=protected_t
sacrifice type=batch_t
adjust -500 type=web_t"
echo "triage classic" >/proc/sys/vm/oom_policy
check_eq "vm.oom_policy reads back" "triage classic" "$(cat /proc/sys/vm/oom_policy)"

cg=$(memcg sacrifice 96M)
hog database protected_t "$cg" 40
hog web web_t "$cg" 16
hog batch batch_t "$cg" 8
check_eq "ranking puts the sacrificed batch job first" "$(pid_of batch)" "$(ranked_first)"
check_eq "ranking lists the database as protected" protect \
	"$(awk -F'\t' -v p="$(pid_of database)" '$2 == p {print $6}' $TRIAGE/ranking)"
diag "$(cat $TRIAGE/ranking | tr '\t' ' ')"

push pusher user_t "$cg" 36

check_eq "batch (batch_t, smallest, sacrificed) was SIGKILLed" killed:9 "$(status batch)"
check "the kernel logged batch as the OOM victim" oom_killed_in_log batch
check "the kill message names the triage rule" sh -c 'dmesg | grep -q "oom policy triage: rule 2: sacrifice type=batch_t"'
check "database (protected_t, largest) survived" alive database
check "web survived" alive web
check_eq "batch was the first OOM victim" "$(pid_of batch)" "$(first_victim)"
check "memory.events counts the oom_kill" [ "$(memcg_event "$cg" oom_kill)" -ge 1 ]
check_eq "decisions records the sacrifice" sacrifice "$(decision_for batch verdict)"
check_eq "decisions records it as killed in a memcg" "killed memcg" \
	"$(decision_for batch outcome) $(decision_for batch scope)"
check_eq "stats counts the sacrifice" 1 "$(sed -n 's/^sacrificed //p' $TRIAGE/stats)"
nap 0.5
check "an AUDIT_TRIAGE_DECISION (1427) record names the victim" sh -c \
	"dmesg | grep 'type=1427' | grep -q 'enforcing=1 scope=memcg opid=$(pid_of batch) ocomm=\"tr-hog\" obj=\"system_u:system_r:batch_t:s0-s3:c0.c15\" rule=[0-9]* verdict=sacrifice.*outcome=killed'"
stop_all
