# A thousand distinct labels: a thousand web_t tasks, each at its own MLS
# category set (s0:c0..c9 combinations), and a policy of 1002 rules, one
# per label: every task resolves to the rule of exactly its label, and a
# memcg OOM among them all picks the one task whose label is sacrificed,
# although it is among the smallest.  The tasks start under a first
# policy (one rule for all of web_t), so that their labels are learnt one
# by one as they exec, and the label table grows many times over.
# mem: 512M
# plan: 16
# timeout: 300
N=${edge_labels:-1000}
L=/run/labels
mkdir -p $L
set_oom_policy "triage classic"
base=$(cut -d: -f1-2 /proc/self/attr/current)
cg=$(memcg labels max)

# the category sets of 1..N as bits of c0..c9
# (busybox awk has no pow(): halve instead)
awk -v n=$N 'BEGIN { for (i = 1; i <= n; i++) { s = ""; x = i
	for (b = 0; b < 10; b++) { if (x % 2) s = s (s == "" ? "" : ",") "c" b; x = int(x / 2) }
	print s } }' >$L/cats
check "a policy adjusting every web_t task loads before they start" \
	load_policy "adjust +1 type=web_t"
learnt0=$(stat_of labels_learnt)
t0=$(date +%s)
: >$L/pids
while read -r cats; do
	tr-storm --hop "$base:web_t:s0:$cats" -- sleep 100000 &
	echo $! >>$L/pids
	echo $! >$cg/cgroup.procs
done <$L/cats
# wait until every one runs sleep in its label; record "pid label"
for i in $(seq 100); do
	: >$L/labels
	while read -r p; do
		# attr/current has no newline: read fails at EOF but sets c
		{ read -r c <"/proc/$p/attr/current" || [ -n "$c" ]; } &&
			read -r comm <"/proc/$p/comm" &&
			[ "$comm" = sleep ] && echo "$p $c" >>$L/labels
	done <$L/pids
	[ "$(wc -l <$L/labels)" -eq "$N" ] && break
	nap 1
done
diag "$N labelled tasks started in $(( $(date +%s) - t0 )) s; memory.current $(cat $cg/memory.current)"
check_eq "$N tasks run sleep in their own label" "$N" "$(wc -l <$L/labels)"
check_eq "$N distinct labels" "$N" "$(cut -d' ' -f2 $L/labels | sort -u | wc -l)"
check_eq_empty "all in web_t" "$(cut -d' ' -f2 $L/labels | grep -v ':web_t:')"
# each label was learnt at its task's exec: none is missing, none lost
# when the table grew
awk -F'\t' 'NR > 1 {print $2, $7}' $TRIAGE/ranking >$L/ranked0
check_eq "ranking: the $N labels learnt after the load, each with rule 1" "$N 0" \
	"$(awk 'NR == FNR { want[$1] = 1; next } ($1 in want) { seen++; if ($2 != 1) bad++ }
		END { print seen + 0, bad + 0 }' $L/labels $L/ranked0)"
# each learnt once: a table that dropped its labels when it grew would
# learn them again, one at a time, at every growth (a few labels more
# than N: the helpers' own, on their way to their label)
learnt=$(( $(stat_of labels_learnt) - learnt0 ))
diag "labels learnt one at a time since the load: $learnt"
check "stats: the $N labels learnt once each ($learnt, at most $((N + 8)))" \
	[ "$learnt" -ge "$N" -a "$learnt" -le $((N + 8)) ]

# rule 1 protects protected_t, rule 2 sacrifices the label of the middle
# task, rules 3.. adjust each label by one (the middle one's is shadowed)
mid=$(( (N + 1) / 2 ))
midpid=$(sed -n "${mid}p" $L/labels | cut -d' ' -f1)
midrange=$(sed -n "${mid}p" $L/labels | cut -d' ' -f2 | cut -d: -f4-)
{
	echo "protect type=protected_t"
	echo "sacrifice type=web_t range=$midrange rank=7"
	cut -d' ' -f2 $L/labels | cut -d: -f4- | sed 's/^/adjust +1 type=web_t range=/'
} >$L/policy
check "a policy with a rule for each of the $N labels loads" \
	dd if=$L/policy of=$TRIAGE/policy bs=1M 2>/dev/null
check_eq "stats: $((N + 2)) rules" $((N + 2)) "$(sed -n 's/^policy_rules //p' $TRIAGE/stats)"

# ranking: every task carries the rule of its own label
awk -F'\t' 'NR > 1 {print $2, $7}' $TRIAGE/ranking >$L/ranked
awk -v mid=$midpid 'NR == FNR { n++; want[$1] = ($1 == mid) ? 2 : n + 2; next }
	($1 in want) { seen++; if ($2 != want[$1]) bad++ }
	END { print seen + 0, bad + 0 }' $L/labels $L/ranked >$L/verdict
check_eq "ranking: all $N tasks, none with a wrong rule" "$N 0" "$(cat $L/verdict)"
check_eq "ranking puts the sacrificed label first" "$midpid" "$(ranked_first)"

# a memcg OOM among them: the sacrificed one dies
misses0=$(sed -n 's/^label_misses //p' $TRIAGE/stats)
echo $(( $(cat $cg/memory.current) + 40 * 1048576 )) >$cg/memory.max
hog big protected_t "$cg" 20
start pusher user_t "$cg" tr-hog --mib 40 --step-mib 1 --step-ms 5
for i in $(seq 100); do [ -d /proc/$midpid ] || break; nap 0.2; done
check "the task of the sacrificed label is gone" [ ! -d /proc/$midpid ]
check "the kernel logged it as an OOM victim" sh -c "dmesg | grep -q 'Killed process $midpid '"
check_eq "the decision: sacrifice by rule 2" "sacrifice 2" \
	"$(awk -F'\t' -v p=$midpid '$5 == p {print $7, $8}' $TRIAGE/decisions | head -n 1)"
check "the protected task survived" alive big
stop_all
nap 0.5
check_eq "the other $((N - 1)) labelled tasks survived" $((N - 1)) \
	"$(while read -r p _; do [ -d /proc/$p ] && echo; done <$L/labels | wc -l)"
check_eq "no label missed its cached verdict during the OOMs" "$misses0" \
	"$(sed -n 's/^label_misses //p' $TRIAGE/stats)"
while read -r p; do kill -9 $p 2>/dev/null; done <$L/pids
