# sacrifice ... group: when one task of the domain is chosen, every task
# of that domain in the OOM's scope dies with it, each through the OOM
# killer's own kill path (a kill line each, counted in memory.events);
# other domains live (also one another rule matches), and so does the
# domain outside the OOM's scope.
# The same in a global OOM.
# mem: 384M
# plan: 20
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
check_eq "decisions lists the group kills" 2 \
	"$(awk -F'\t' '$9 == "group-killed"' $TRIAGE/decisions | wc -l | tr -d ' ')"
# the group's three decisions were recorded in one OOM and audited after
# it, each with its own number (the seq of decisions), not the latest
want=$(awk -F'\t' '$9 == "group-killed" {print $1}' $TRIAGE/decisions | tr '\n' ' ')
audited() {
	dmesg | grep 'type=1427' | grep 'outcome=group-killed' |
		sed -n 's/.* oom_seq=\([0-9]*\) .*/\1/p' | sort -n | tr '\n' ' '
}
i=0
while [ "$(audited)" != "$want" ] && [ $i -lt 50 ]; do
	nap 0.1
	i=$((i + 1))
done
check_eq "audit: each group-killed record carries its own seq of decisions ($want)" \
	"$want" "$(audited)"
stop_all

# a global OOM: the group is every batch_t task the allocation may use
dmesg -c >/dev/null
hog g1 batch_t /sys/fs/cgroup 8
hog g2 batch_t /sys/fs/cgroup 8
start runaway user_t /sys/fs/cgroup tr-hog --mib 400 --step-mib 4 --step-ms 20
check_eq "global OOM: g1 died" killed:9 "$(status g1)"
check_eq "global OOM: g2 died with it" killed:9 "$(status g2)"
# with it, not in a second OOM: one victim, the other group-killed
check_eq "global OOM: decisions, one killed and one group-killed" "group-killed killed" \
	"$(echo $( (decision_for g1 outcome; decision_for g2 outcome) | sort))"
check_eq "global OOM: both have a kill line" 2 \
	"$(dmesg | grep -cE "Out of memory.*Killed process ($(pid_of g1)|$(pid_of g2)) ")"
stop_all

# A burst larger than the decisions ring (64 rows): a group of 81 batch_t
# tasks dies in one global OOM.  Its members are killed in one walk of
# the task list under RCU, with no scheduling point (a memory cgroup's
# walk yields after each task), so on the boot's one CPU the audit
# worker cannot run before the OOM is over.  What the ring overwrote
# before it was audited is counted: every decision is audited or in
# audit_drops.
dmesg -c >/dev/null
rm -f /run/burst.*
start burst batch_t /sys/fs/cgroup sh -c \
	'for i in $(seq 80); do tr-hog --mib 1 --ready /run/burst.$i & done; wait'
for i in $(seq 100); do
	[ "$(ls /run/burst.* 2>/dev/null | wc -l)" -ge 80 ] && break
	nap 0.1
done
last_seq() { awk -F'\t' 'NR > 1 {s = $1} END {print s + 0}' $TRIAGE/decisions; }
seq0=$(last_seq) drops0=$(sed -n 's/^audit_drops //p' $TRIAGE/stats)
start runaway2 user_t /sys/fs/cgroup tr-hog --mib 400 --step-mib 4 --step-ms 20
check_eq "the group of 81 (the shell and its 80 tasks) died" killed:9 "$(status burst)"
seq1=$(last_seq)
audit_logged "type=1427 .*oom_seq=$seq1 " || diag "the burst's last decision ($seq1) was never audited"
drops=$(( $(sed -n 's/^audit_drops //p' $TRIAGE/stats) - drops0 ))
audited=$(dmesg | grep 'type=1427' | sed -n 's/.* oom_seq=\([0-9]*\) .*/\1/p' |
	awk -v a="$seq0" -v b="$seq1" '$1 > a && $1 <= b' | sort -u | wc -l)
diag "burst: decisions $((seq0 + 1))..$seq1, audited $audited, audit_drops +$drops"
check "the burst overran the ring (more than 64 decisions before the worker ran)" \
	[ "$((seq1 - seq0))" -gt 64 -a "$drops" -gt 0 ]
check_eq "each of its decisions was audited or counted in audit_drops" \
	"$((seq1 - seq0))" "$((audited + drops))"
stop_all
