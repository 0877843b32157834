# A loadable OOM policy: the sample module samples/oom_policy registers
# "fastest-grower", which kills the task whose memory grew fastest since
# it started.  Inserted and put in vm.oom_policy, it decides a real OOM
# against the classic choice (the young grower, not the old and bigger
# task), respects an LSM's protection, and is removed, and inserted and
# removed again, while OOMs keep coming, with nothing left behind.
# mem: 256M
# timeout: 240
# plan: 34
P=/proc/sys/vm/oom_policy
MOD=/lib/modules/triage/oom_fastest_grower.ko
check "the sample policy module is in the guest" [ -f $MOD ]
check "it loads" insmod $MOD
check "vm.oom_policy accepts its policy" sh -c "echo 'fastest-grower classic' >$P"
check_eq "and reads it back" "fastest-grower classic" "$(cat $P)"

# old: 60 MiB held for 8 s or more (under 8 MiB/s); young: about 34 MiB
# when the cgroup's 96 MiB run out, within its first seconds.  Classic
# kills old, the biggest.
cg=$(memcg grow 96M)
hog old - "$cg" 60
nap 8
push young - "$cg" 40
check_eq "the young fast grower is killed" killed:9 "$(status young)"
check "the old and bigger task lives" alive old
check "the kill names the module's policy and its reason" sh -c \
	'dmesg | grep -q "oom policy fastest-grower: fastest grower, [0-9]* pages/s"'
stop_all

# a task an LSM protects is not the module's victim either
check "a triage policy protecting protected_t loads" load_policy "protect type=protected_t"
cg=$(memcg grow2 96M)
hog old2 batch_t "$cg" 60
nap 8
dmesg -c >/dev/null
push young2 protected_t "$cg" 40
check "the protected young grower lives" alive young2
check_eq "the old task is killed instead" killed:9 "$(status old2)"
# by the module's own choice (oom_task_points() says the protected task is
# no candidate), not by the chain refusing it and classic deciding
check "the module's policy chose the old task" sh -c \
	"dmesg | grep -q 'oom policy fastest-grower: fastest grower, [0-9]* pages/s'"
check_eq_empty "the chain refused nothing" \
	"$(dmesg | grep 'which an LSM protects: refused')"
stop_all
load_policy "mode enforce" >/dev/null

# removal while OOMs race: a loop of tasks that each overrun a 32 MiB
# cgroup, and the module removed, inserted again and removed under it
cg=$(memcg race 32M)
start looper - "$cg" sh -c 'while :; do tr-hog --mib 48 --step-mib 4 --step-ms 2 >/dev/null 2>&1; done'
nap 2
before=$(memcg_event "$cg" oom_kill)
ok=1
for round in 1 2 3; do
	rmmod oom_fastest_grower || { diag "rmmod failed in round $round"; ok=0; }
	nap 0.5
	insmod $MOD || { diag "insmod failed in round $round"; ok=0; }
	echo "fastest-grower classic" >$P || ok=0
	nap 0.5
done
# the last time it is the chain's only policy: the chain is never empty
echo fastest-grower >$P || ok=0
rmmod oom_fastest_grower || { diag "the last rmmod failed"; ok=0; }
check_eq "the module was removed and inserted three times under OOMs" 1 "$ok"
check_eq "removing the chain's only policy left classic in it" classic "$(cat $P)"
nap 2
check "OOMs went on meanwhile and after" [ "$(memcg_event "$cg" oom_kill)" -gt "$((before + 3))" ]
stop_all

# The chain enforces the LSMs' verdict whichever policy chose the victim:
# the test module's policy names a protected task, the chain refuses it,
# says so, and the next policy (classic) decides.
TMOD=/lib/modules/triage/test_oom_policy.ko
check "the chain's test module loads" insmod $TMOD
check "a triage policy protecting protected_t loads" load_policy "protect type=protected_t"
cg=$(memcg refuse 96M)
hog guarded protected_t "$cg" 60
echo "$(pid_of guarded)" >/sys/module/test_oom_policy/parameters/victim_pid
set_oom_policy "test-victim-pid classic"
dmesg -c >/dev/null
push plain - "$cg" 40
check "the protected task the test policy named survived" alive guarded
check_eq "the next policy's victim died instead" "$(pid_of plain)" "$(first_victim)"
check "the chain logged its refusal" sh -c \
	"dmesg | grep -q 'oom policy test-victim-pid chose pid $(pid_of guarded), which an LSM protects: refused'"
check "stats count the refusal" [ "$(sed -n 's/^protection_refusals //p' $TRIAGE/stats)" -ge 1 ]
stop_all
# an unprotected task it names is its victim: the refusal is for protection only
load_policy "mode enforce" >/dev/null
cg=$(memcg refuse2 96M)
hog named - "$cg" 20
echo "$(pid_of named)" >/sys/module/test_oom_policy/parameters/victim_pid
dmesg -c >/dev/null
push plain2 - "$cg" 90
check_eq "an unprotected named task is the test policy's victim" "$(pid_of named)" "$(first_victim)"
check "the kill names the test policy" sh -c 'dmesg | grep -q "oom policy test-victim-pid: the pid the test named"'
stop_all
# a victim that is no candidate of the OOM is refused too, whichever
# policy chose it: init, a kernel thread (kthreadd), a task at
# oom_score_adj -1000, a task of another memory cgroup.  Each is named in
# a memory cgroup OOM; the next policy (classic) kills the pusher.
other=$(memcg other 96M)
hog outsider - "$other" 20
start exempt - /sys/fs/cgroup sh -c 'echo -1000 >/proc/self/oom_score_adj && exec tr-hog --mib 20 --ready /run/exempt.ready'
waitfile 30000 /run/exempt.ready || diag "exempt never became ready"
n=0
for who in "1 init" "2 kthreadd" "$(pid_of exempt) a-task-at-adj--1000" "$(pid_of outsider) a-task-of-another-memcg"; do
	set -- $who
	n=$((n + 1))
	cg=$(memcg nocand$n 48M)
	echo "$1" >/sys/module/test_oom_policy/parameters/victim_pid
	dmesg -c >/dev/null
	push nocand$n - "$cg" 90
	check_eq "the test policy named pid $1 ($2): refused, the next policy's victim died" \
		"$(pid_of nocand$n)" "$(first_victim)"
	check "the chain logged why it refused pid $1" sh -c \
		"dmesg | grep -q 'oom policy test-victim-pid chose pid $1, which is not a candidate of this OOM: refused'"
	kill -9 "$(pid_of nocand$n)" 2>/dev/null
done
check "the task at oom_score_adj -1000 lives" alive exempt
check "the task of another memory cgroup lives" alive outsider
set_oom_policy classic
check "the test module is removed" rmmod test_oom_policy
stop_all
