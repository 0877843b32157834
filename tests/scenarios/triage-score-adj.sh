# A mandatory label verdict outranks the discretionary oom_score_adj:
# by default (oom-score-adj override) a sacrificed task at -1000 still
# dies first; with "oom-score-adj respect" it stays unkillable.
# mem: 256M
# plan: 9
# append: kmemleak=off
# (no leak tracking on the debug kernel, for time: the OOM paths this
# adds allocate nothing; see DEBUG_SCENARIOS in the Makefile)
set_oom_policy "triage classic"
adj_hog() { # NAME CGROUP MIB: a batch_t hog that set its own oom_score_adj to -1000
	start "$1" batch_t "$2" sh -c "echo -1000 >/proc/self/oom_score_adj && exec tr-hog --mib $3 --ready /run/$1.ready"
	waitfile 30000 "/run/$1.ready"
}
check "override policy loads" load_policy "sacrifice type=batch_t"
cg=$(memcg adj1 64M)
hog big web_t "$cg" 30
adj_hog batch "$cg" 8
check_eq "batch set oom_score_adj -1000" -1000 "$(cat /proc/$(pid_of batch)/oom_score_adj)"
check_eq "override: ranking still puts batch first" "$(pid_of batch)" "$(ranked_first)"
dmesg -c >/dev/null
push pusher user_t "$cg" 30
check_eq "override: the sacrificed task at -1000 was killed" killed:9 "$(status batch)"
# not "big survived": a second OOM may come before batch is uncharged
# (see first_victim in lib.sh), and the stock kernel then kills big
check_eq "override: it was the first victim, before the larger big" \
	"$(pid_of batch)" "$(first_victim)"
stop_all
# within the sacrifice tier the overridden task counts as at
# oom_score_adj 0 (its size), not at -1000: the larger one goes first
cg=$(memcg adj1b 64M)
adj_hog bigbatch "$cg" 20
hog smallbatch batch_t "$cg" 8
check_eq "override: the larger sacrificed task at -1000 ranks before the smaller one at 0" \
	"$(pid_of bigbatch)" "$(ranked_first)"
stop_all

check "respect policy loads" load_policy "oom-score-adj respect
sacrifice type=batch_t"
cg=$(memcg adj2 64M)
hog big2 web_t "$cg" 30
adj_hog batch2 "$cg" 8
push pusher2 user_t "$cg" 30
check "respect: the task at -1000 survived" alive batch2
check_eq "respect: the largest other task died" killed:9 "$(status big2)"
stop_all
