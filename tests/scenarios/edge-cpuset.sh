# A cpuset-constrained OOM: with two (emulated) NUMA nodes, tasks bound to
# node 1 exhaust it.  Only tasks whose memory may come from node 1 are
# candidates.  A sacrificed task bound to node 0 is first in the sacrifice
# tier and the biggest, yet outside the OOM's constraint: it must be
# neither chosen nor killed, in either OOM, nor killed with the victim
# by the rule's group kill (which takes only members whose memory can
# help).  Inside, the sacrificed task
# goes first, then the ordinary grower.  The panic policy heads the chain
# and must pass: a cpuset OOM is not system-wide (panicking here is a
# kernel report that fails the boot).
# mem: 512M
# append: numa=fake=2
# timeout: 180
# plan: 9
set_oom_policy "panic triage classic"
check "two NUMA nodes" [ -d /sys/devices/system/node/node1 ]
echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control
for n in 0 1; do
	mkdir -p /sys/fs/cgroup/node$n
	echo $n >/sys/fs/cgroup/node$n/cpuset.mems
done
check_eq "cpusets bind node0 and node1" "0 1" \
	"$(cat /sys/fs/cgroup/node0/cpuset.mems.effective) $(cat /sys/fs/cgroup/node1/cpuset.mems.effective)"
check "policy loads" load_policy "sacrifice type=batch_t group"

hog far batch_t /sys/fs/cgroup/node0 100
hog near batch_t /sys/fs/cgroup/node1 20
start grower user_t /sys/fs/cgroup/node1 tr-hog --mib 600 --step-mib 4 --step-ms 10
# (judged by the kernel's kill lines: near's tr-run, in node 1's cpuset too,
# may not get the page to write its results while node 1 is full)
check_eq "the ordinary grower is killed when node 1 runs out" killed:9 "$(status grower)"
check_eq "but first, inside the constraint, the sacrificed task" "$(pid_of near)" "$(first_victim)"
if alive near; then tap_fail "which is dead"; else tap_ok "which is dead"; fi
check "the sacrificed task bound to node 0 lives" alive far
check_eq_empty "and no kill line names it" \
	"$(dmesg | grep "Killed process $(pid_of far) ")"
check "the kernel reported a cpuset-constrained OOM" sh -c \
	'dmesg | grep -q "constraint=CONSTRAINT_CPUSET"'
stop_all
