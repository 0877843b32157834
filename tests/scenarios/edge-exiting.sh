# A victim already exiting: the sacrificed task dies with 14 MiB to give
# back, and the pusher keeps allocating at once, so further OOMs come
# while the victim is still exiting.  The kernel either waits for it or
# (once its mm is marked MMF_OOM_SKIP) chooses again by the policy: the
# exiting victim is never chosen a second time, the next victims follow
# the ranks, and the protected task is never one of them.
# mem: 256M
# plan: 15
# append: kmemleak=off
# (no leak tracking on the debug kernel, for time: the OOM paths this
# adds allocate nothing; see DEBUG_SCENARIOS in the Makefile)
set_oom_policy "triage classic"
check "policy loads" load_policy "protect type=protected_t
sacrifice type=batch_t rank=9
sacrifice type=web_t rank=1"
# db, protected, is the largest task and batch_t's "big" is not: the
# stock kernel would kill db first, so the first victim says triage chose
cg=$(memcg exiting 64M)
hog db protected_t "$cg" 28
hog big batch_t "$cg" 14
hog small web_t "$cg" 4
dmesg -c >/dev/null
# 2 MiB a millisecond, well past what the victim frees
start pusher user_t "$cg" tr-hog --mib 40 --step-mib 2 --step-ms 1
status pusher >/dev/null
nap 0.5
victims=$(dmesg | sed -n 's/.*Killed process \([0-9]*\) .*/\1/p')
diag "victims in order: $(echo $victims)"
check_eq "the first victim is the sacrificed batch_t task (rank 9)" "$(pid_of big)" "$(first_victim)"
check_eq "it was chosen once, however many OOMs came while it exited" 1 \
	"$(echo "$victims" | grep -cx "$(pid_of big)")"
check "the protected task was never chosen" sh -c "! echo '$victims' | grep -qx '$(pid_of db)'"
check "the protected task is alive" alive db
check_eq_empty "every victim is big, small (rank 1) or the pusher" \
	"$(echo "$victims" | grep -vx -e "$(pid_of big)" -e "$(pid_of small)" -e "$(pid_of pusher)")"
check_eq_empty "no decision names a protected verdict" \
	"$(awk -F'\t' 'NR > 1 && $7 == "protect"' $TRIAGE/decisions)"
check_eq "the decisions record big once" 1 \
	"$(awk -F'\t' -v p="$(pid_of big)" 'NR > 1 && $5 == p' $TRIAGE/decisions | wc -l)"
stop_all

# A victim that cannot exit at once: tr-stuck sleeps unkillably in
# write(2) on a file whose inode lock the holder keeps.  Until the OOM
# reaper takes its memory (2 s after the kill), every OOM in its scope
# waits for it, as the stock kernel does, even when a task of a higher
# rank (9) has become a candidate meanwhile: the policy's verdicts come
# after the "a victim is still exiting" check, never instead of it.  The
# untrusted_t task exists from the start, ordinary, and becomes that
# candidate by a policy load while the victim exits: a new task would
# need memory in the full cgroup, and wait for the reaper like the
# others.
cg=$(memcg stuck 48M)
start holder protected_t /sys/fs/cgroup tr-stuck hold /run/stuck.lock --ready /run/holder.ready
waitfile 10000 /run/holder.ready || diag "the holder never held the lock"
hog late untrusted_t "$cg" 1
start stuck web_t "$cg" tr-stuck wait /run/stuck.lock --mib 24 --ready /run/stuck.ready
waitfile 30000 /run/stuck.ready || diag "the stuck task never became ready"
nap 0.3
check_eq "the web_t task sleeps unkillably on the lock" D \
	"$(sed 's/.*) //' /proc/$(pid_of stuck)/stat | cut -d' ' -f1)"
dmesg -c >/dev/null
# 36 MiB: with the stuck task's 24 more than the 48 of the memcg; once
# the reaper has taken those 24 it fits, so the OOMs after the first
# need no victim
start filler user_t "$cg" tr-hog --mib 36 --step-mib 2 --step-ms 5 --ready /run/filler.ready
stuck=$(pid_of stuck)
for i in $(seq 500); do
	alive_pid "$stuck" || break
	sleep 0.01
done
# the filler's OOMs go on while the victim cannot exit
check "a policy sacrificing untrusted_t at rank 9 loads while the victim exits" \
	load_policy "protect type=protected_t
sacrifice type=untrusted_t rank=9
sacrifice type=web_t rank=1"
diag "the victim killed at $(dmesg | sed -n "s/^\[ *\([0-9.]*\)\].*Killed process $stuck .*/\1/p") s, the untrusted_t task sacrificed at $(cut -d' ' -f1 /proc/uptime) s"
check_eq "the stuck web_t task was the victim" "sacrifice killed" \
	"$(decision_for stuck verdict) $(decision_for stuck outcome)"
waitfile 30000 --any /run/filler.ready "$RESULTS/filler"
diag "the filler ready by $(cut -d' ' -f1 /proc/uptime) s; $(dmesg | grep 'oom_reaper: reaped process' | tail -n 1)"
check "the filler got its memory once the reaper took the victim's" alive filler
check "the untrusted_t task (rank 9), a candidate while the victim exited, lived" alive late
check_eq "one task was killed" "$stuck" \
	"$(dmesg | sed -n 's/.*Killed process \([0-9]*\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//')"
# the holder's death frees the lock: the victim ends at last
kill -9 "$(pid_of holder)"
check_eq "the stuck task died once the lock was free" killed:9 "$(status stuck)"
stop_all
