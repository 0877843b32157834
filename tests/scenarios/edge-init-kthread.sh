# init and kernel threads are never OOM victims, even when a rule
# sacrifices their label: here every init_t task (init, the kernel
# threads, and this scenario's shells, which keep out of the way with
# oom_score_adj -1000 and oom-score-adj respect) is sacrificed at the top
# rank, and a global OOM still kills the web_t task that ate the memory.
# mem: 256M
# plan: 13
# timeout: 180
set_oom_policy "triage classic"
kthreads() {
	for d in /proc/[0-9]*; do
		read -r _ _ _ ppid _ <"$d/stat" 2>/dev/null || continue
		[ "${d#/proc/}" = 2 ] || [ "$ppid" = 2 ] && echo "${d#/proc/}"
	done
}
diag "init: $(cat /proc/1/attr/current); kthreadd: $(cat /proc/2/attr/current)"
check_eq "kernel threads run in init_t" init_t "$(cut -d: -f3 /proc/2/attr/current)"
check "a policy sacrificing init_t at rank 1000 loads" load_policy "oom-score-adj respect
sacrifice type=init_t rank=1000
protect type=protected_t"
echo -1000 >/proc/self/oom_score_adj
k0=$(kthreads | sort)
check "the kernel has kernel threads" [ "$(echo "$k0" | wc -l)" -gt 5 ]

awk -F'\t' 'NR > 1 {print $2}' $TRIAGE/ranking >/run/ranked
echo "$k0" >/run/kthreads
diag "ranking: $(wc -l </run/ranked) candidates, $(wc -l </run/kthreads) kernel threads"
check "ranking never lists init" sh -c '! grep -qx 1 /run/ranked'
check_eq_empty "ranking lists no kernel thread" \
	"$(awk 'NR == FNR { k[$1]; next } $1 in k' /run/kthreads /run/ranked)"
check_eq "/proc/1/oom_score is 0" 0 "$(cat /proc/1/oom_score)"
check_eq "/proc/2/oom_score (kthreadd) is 0" 0 "$(cat /proc/2/oom_score)"

# a global OOM: the hog sets its own oom_score_adj back to 0
gcg=$(memcg edge-global max)
start ghog web_t "$gcg" sh -c 'echo 0 >/proc/self/oom_score_adj && exec tr-hog --mib 0 --forever --step-mib 4'
waitfile 120000 "$RESULTS/ghog" >/dev/null 2>&1
check_eq "the global OOM killed the web_t hog" killed:9 "$(status ghog)"
check_eq "as a global, unmatched, killed decision" "global none killed" \
	"$(decision_for ghog scope) $(decision_for ghog verdict) $(decision_for ghog outcome)"
check "the kernel logged it as the victim" oom_killed_in_log ghog
check_eq "no other decision was made" 1 "$(awk -F'\t' 'NR > 1' $TRIAGE/decisions | wc -l)"
check_eq "every kernel thread is still there" "$k0" \
	"$(echo "$k0" | while read -r p; do [ -d /proc/$p ] && echo $p; done)"
check "and init, which runs this" [ -d /proc/1 ]
stop_all
