# sacrifice ... group: when one task of the domain is chosen, every task
# of that domain in the OOM's scope dies with it, each through the OOM
# killer's own kill path (a kill line each, counted in memory.events);
# other domains live (also one another rule matches), and so does the
# domain outside the OOM's scope.
# The same in a global OOM.
# mem: 384M
# plan: 24
# append: kmemleak=off
# (no leak tracking on the debug kernel, for time: the OOM paths this
# adds allocate nothing; see DEBUG_SCENARIOS in the Makefile)
set_oom_policy "triage classic"
check "group policy loads" load_policy "protect type=protected_t
sacrifice type=batch_t group
adjust -100 type=web_t"
cg=$(memcg group 96M)
outside=$(memcg group-outside 200M)
hog b4 batch_t "$outside" 6
hog db protected_t "$cg" 30
hog b1 batch_t "$cg" 6
hog b2 batch_t "$cg" 6
hog b3 batch_t "$cg" 6
hog web web_t "$cg" 12
push pusher user_t "$cg" 40
for b in b1 b2 b3; do
	check_eq "$b (batch_t) died with its group" killed:9 "$(status $b)"
done
check "db (protected_t) survived" alive db
check "b4 (batch_t, another memory cgroup) survived: outside the OOM's scope" alive b4
check_eq "every member has the OOM killer's kill line" 3 \
	"$(dmesg | grep -cE "Killed process ($(pid_of b1)|$(pid_of b2)|$(pid_of b3)) ")"
check "memory.events counts the group's kills" [ "$(memcg_event "$cg" oom_kill)" -ge 3 ]
check "web (web_t, matched by another rule) survived" alive web
check "the first OOM victim was one of the group" sh -c "echo \" $(pid_of b1) $(pid_of b2) $(pid_of b3) \" | grep -q \" $(first_victim) \""
check_eq "stats counts two group kills" 2 "$(sed -n 's/^group_kills //p' $TRIAGE/stats)"
# one decision for the OOM: the victim's, recorded after the kill with
# the number of members killed with it, and one audit record saying so
check_eq "decisions: one row for the OOM, the victim killed with a group of 2" "killed 2" \
	"$(awk -F'\t' 'NR > 1 && $9 == "killed" {print $9, $12}' $TRIAGE/decisions | tail -n 1)"
check_eq "decisions: no row for a group member" 0 \
	"$(awk -F'\t' 'NR > 1 && $9 != "killed"' $TRIAGE/decisions | wc -l | tr -d ' ')"
check "audit: the victim's record says group_killed=2" \
	audit_logged "type=1427 .*outcome=killed group_killed=2"
stop_all

# a global OOM: the group is every batch_t task the allocation may use
dmesg -c >/dev/null
hog g1 batch_t /sys/fs/cgroup 8
hog g2 batch_t /sys/fs/cgroup 8
start runaway user_t /sys/fs/cgroup tr-hog --mib 400 --step-mib 4 --step-ms 20
check_eq "global OOM: g1 died" killed:9 "$(status g1)"
check_eq "global OOM: g2 died with it" killed:9 "$(status g2)"
# with it, not in a second OOM: one decision, its group of one
check_eq "global OOM: one decision, the victim killed with a group of 1" "killed 1" \
	"$(awk -F'\t' -v a="$(pid_of g1)" -v b="$(pid_of g2)" \
		'NR > 1 && ($5 == a || $5 == b) {print $9, $12}' $TRIAGE/decisions)"
check_eq "global OOM: both have a kill line" 2 \
	"$(dmesg | grep -cE "Out of memory.*Killed process ($(pid_of g1)|$(pid_of g2)) ")"
stop_all

# A group larger than the decisions ring (64 rows): 301 batch_t tasks (a
# shell and its 300 sleepers) die in one global OOM, with audit set to
# panic when it loses a record (auditctl -f 2).  The group is one
# decision, its size in the group column and in the audit record's
# group_killed; nothing is lost, nothing panics.  The walk that finds the
# members yields after each kill (lockdep and the soft-lockup detector
# watch it on the debug kernel).
dmesg -c >/dev/null
check "audit's failure mode set to panic (auditctl -f 2)" tr-audit --failure 2
start burst batch_t /sys/fs/cgroup sh -c \
	'for i in $(seq 300); do sleep 1000 & done; touch /run/burst.ready; wait'
waitfile 60000 /run/burst.ready || diag "the burst's shell never became ready"
drops0=$(sed -n 's/^audit_drops //p' $TRIAGE/stats)
start runaway2 user_t /sys/fs/cgroup tr-hog --mib 400 --step-mib 4 --step-ms 20
check_eq "the group's shell died" killed:9 "$(status burst)"
nap 1
check_eq "and so did its 300 sleepers" 0 "$(pidof sleep | wc -w | tr -d ' ')"
check_eq "one decision for the group of 301: the victim, killed with 300" "killed 300" \
	"$(awk -F'\t' 'NR > 1 && $12 == 300 {print $9, $12}' $TRIAGE/decisions)"
check "its audit record says group_killed=300" \
	audit_logged "type=1427 .*outcome=killed group_killed=300"
check_eq "no decision lost before it was audited" "$drops0" "$(sed -n 's/^audit_drops //p' $TRIAGE/stats)"
tr-audit --failure 1 >/dev/null
stop_all
