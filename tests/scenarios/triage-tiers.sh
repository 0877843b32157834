# Ordering is a tier, not a sum: every sacrificed task dies before every
# ordinary one and a higher rank before a lower one, whatever their sizes
# and oom_score_adj say; /proc/PID/oom_score stays in its 0..2000 range.
# mem: 256M
# plan: 17
# append: kmemleak=off
# (no leak tracking on the debug kernel, for time: the OOM paths this
# adds allocate nothing; see DEBUG_SCENARIOS in the Makefile)
set_oom_policy "triage classic"
check "policy loads" load_policy "sacrifice type=batch_t rank=1
sacrifice type=web_t"
# adj_hog NAME TYPE CGROUP MIB ADJ: a hog that set its own oom_score_adj
adj_hog() {
	start "$1" "$2" "$3" sh -c "echo $5 >/proc/self/oom_score_adj && exec tr-hog --mib $4 --ready /run/$1.ready"
	waitfile 30000 "/run/$1.ready"
}
ranked() { awk -F'\t' -v r="$1" '$1 == r {print $2}' $TRIAGE/ranking; }

# the issue's first case: a sacrifice at -999 against an ordinary task at +1000
cg=$(memcg tiers1 96M)
adj_hog ordinary user_t "$cg" 30 1000
adj_hog meek web_t "$cg" 8 -999
check_eq "ranking: the sacrificed task at -999 before the ordinary one at +1000" \
	"$(pid_of meek) $(pid_of ordinary)" "$(ranked 1) $(ranked 2)"
score=$(cat /proc/$(pid_of meek)/oom_score)
check "oom_score of the sacrificed task is within 0..2000 ($score)" \
	sh -c "[ $score -ge 0 ] && [ $score -le 2000 ]"
dmesg -c >/dev/null
push pusher1 user_t "$cg" 60
check_eq "the sacrificed task at -999 was the first victim" "$(pid_of meek)" "$(first_victim)"
stop_all

# ranks: rank 1 at -500 before rank 0 at +1000, both before ordinary
cg=$(memcg tiers2 96M)
adj_hog ordinary2 user_t "$cg" 24 1000
adj_hog low web_t "$cg" 16 1000
adj_hog high batch_t "$cg" 8 -500
check_eq "ranking: rank 1 (-500), then rank 0 (+1000), then ordinary (+1000)" \
	"$(pid_of high) $(pid_of low) $(pid_of ordinary2)" "$(ranked 1) $(ranked 2) $(ranked 3)"
check_eq "ranking: tier and rank columns" "sacrifice 1 sacrifice 0 ordinary -" \
	"$(echo $(awk -F'\t' '$1 == "1" || $1 == "2" || $1 == "3" {print $3, $4}' $TRIAGE/ranking))"
for p in high low ordinary2; do
	s=$(cat /proc/$(pid_of $p)/oom_score)
	[ "$s" -ge 0 ] && [ "$s" -le 2000 ] || bad="$bad $p=$s"
done
check_eq_empty "oom_score of every task within 0..2000" "${bad:-}"
dmesg -c >/dev/null
push pusher2 user_t "$cg" 60
check_eq "the rank-1 sacrifice at -500 was the first victim" "$(pid_of high)" "$(first_victim)"
check "the kill line names the rank-1 rule" sh -c \
	'dmesg | grep -q "oom policy triage: rule 1: sacrifice type=batch_t rank=1"'
check "the ordinary task at +1000 survived the first OOM" sh -c \
	"dmesg | grep 'Killed process' | head -n 1 | grep -vq 'Killed process $(pid_of ordinary2) '"
stop_all

# oom_score_adj and a label's adjustment add up beyond -1000..1000: the
# score is clamped to 0..2000 (unclamped it reads above 2000, or as a
# huge unsigned number below 0)
check "policy adjusting web_t by +1000, batch_t by -1000 loads" load_policy "adjust 1000 type=web_t
adjust -1000 type=batch_t"
cg=$(memcg tiers-clamp 96M)
adj_hog loud web_t "$cg" 8 1000
adj_hog quiet batch_t "$cg" 8 -999
check_eq "oom_score at +1000 adjusted by +1000 is 2000, and at -999 by -1000 is 0" \
	"2000 0" "$(cat /proc/$(pid_of loud)/oom_score) $(cat /proc/$(pid_of quiet)/oom_score)"
stop_all

# a protected task keeps its protection in every OOM it lives through: the
# first OOM looks its label up, the next ones hand out the verdict it
# remembered for the task (without it the largest task here dies second)
check "policy protecting protected_t loads" load_policy "protect type=protected_t"
cg=$(memcg tiers3 64M)
hog keeper protected_t "$cg" 36
check_eq "oom_score of the protected task is 0" 0 "$(cat /proc/$(pid_of keeper)/oom_score)"
push pusher3 user_t "$cg" 40
check_eq "first OOM: the pusher died, the larger protected task lives" "killed:9" "$(status pusher3)"
push pusher4 user_t "$cg" 40
check_eq "second OOM: the pusher died again" "killed:9" "$(status pusher4)"
check "the protected task, the largest, lived through both" alive keeper
stop_all
