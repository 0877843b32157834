# Stacking with Smack as the major LSM: this boot enables capability,
# smack and triage (lsm= below), and init loads no SELinux policy.  A Smack
# label is a plain word, not an SELinux context, so only label= rules (an
# exact label or a glob) match it and type= rules never do.  Tasks get
# their labels the Smack way (a privileged write to attr/smack/current,
# kept across exec); triage resolves them at that exec.  A sacrificed
# label dies first although smallest, a protected label survives although
# largest, an adjust reorders, and ranking, decisions, the kill message
# and stats all speak of the Smack labels.  Last, a protected process that
# shares the sacrificed victim's mm is not killed with it, and a later
# OOM does not wait for that mm while the victim is an unreaped zombie.
# append: lsm=capability,smack,triage numa=fake=2
# mem: 384M
# timeout: 360
# plan: 34
ranked() {
	awk -F'\t' -v p="$(pid_of "$1")" '$2 == p {print $8, $6, $7}' $TRIAGE/ranking
}
check_eq "the LSMs of this boot" "capability,smack,triage" "$(cat /sys/kernel/security/lsm)"
check_eq "init runs in Smack's floor label" "_" "$(cat /proc/self/attr/smack/current)"
check "a policy of Smack labels loads" load_policy "protect type=BatchNightly
protect label=Database
sacrifice label=Batch*
adjust -800 label=Web"
set_oom_policy "triage classic"

cg=$(memcg smack 96M)
hog database @Database "$cg" 40
hog web @Web "$cg" 16
hog batch @BatchNightly "$cg" 8
check_eq "tr-run gave batch its Smack label" BatchNightly "$(cat /proc/$(pid_of batch)/attr/smack/current)"
diag "$(tr '\t' ' ' <$TRIAGE/ranking)"
check_eq "ranking: the sacrificed BatchNightly job first" "$(pid_of batch)" "$(ranked_first)"
check_eq "ranking: BatchNightly matched the glob (rule 3), not type=BatchNightly" \
	"BatchNightly sacrifice 3" "$(ranked batch)"
check_eq "ranking: the database is protected by its label" \
	"Database protect 2" "$(ranked database)"
check_eq "ranking: web is adjusted" "Web adjust 4" "$(ranked web)"

push pusher @Web "$cg" 36
check_eq "batch (smallest, sacrificed by label) was SIGKILLed" killed:9 "$(status batch)"
check_eq "batch was the first OOM victim" "$(pid_of batch)" "$(first_victim)"
check "the kill message names the label rule" sh -c \
	'dmesg | grep -q "oom policy triage: rule 3: sacrifice label=Batch\*"'
check "database (largest, protected by label) survived" alive database
check "web survived" alive web
check_eq "decisions: the victim's Smack label, verdict and rule" \
	"BatchNightly sacrifice 3" \
	"$(decision_for batch label) $(decision_for batch verdict) $(decision_for batch rule)"
check_eq "stats: no task unlabelled" 0 "$(stat_of unlabelled_tasks)"
check_eq "stats: no label look-up missed" 0 "$(stat_of label_misses)"
stop_all

# adjust alone reorders: the larger task loses 900 points and outlives
# the smaller.  The pusher is unadjusted and stays smaller than both at
# the OOM (64 - 30 - 20 = 14 MiB): should it meet a second OOM while the
# victim's pages are still being freed (exit_mmap() sets MMF_OOM_SKIP
# first), it is the one that dies then, not big (it was labelled Big,
# and a CI run of the debug kernel saw big killed by that second OOM)
check "a policy adjusting one label loads" load_policy "adjust -900 label=Big"
cg=$(memcg smack-adjust 64M)
hog big @Big "$cg" 30
hog small @Small "$cg" 20
check_eq "ranking: the smaller task first" "$(pid_of small)" "$(ranked_first)"
dmesg -c >/dev/null
push pusher2 @Small "$cg" 24
check_eq "the adjusted, larger task survived; the smaller died first" \
	"$(pid_of small)" "$(first_victim)"
check "big survived" alive big
stop_all

# Two labels on one mm: a process cloned with CLONE_VM (another process,
# the same memory) relabels itself without exec, which Smack allows a
# privileged task.  When the sacrificed owner is the victim, the kernel
# kills every process sharing its mm, except one an LSM protects: that
# one lives, the kernel says so, and later OOMs do not wait for the mm.
check "a policy protecting Database, sacrificing Batch* loads" load_policy "protect label=Database
sacrifice label=Batch*"
cg=$(memcg smack-mm 64M)
start shared @BatchShared "$cg" tr-hog --mib 16 --mm-sharer Database \
	--sharer-pid /run/sharer.pid --ready /run/shared.ready
waitfile 30000 /run/shared.ready
sharer=$(cat /run/sharer.pid 2>/dev/null)
check_eq "the mm-sharer relabelled itself to Database" Database \
	"$(cat /proc/$sharer/attr/smack/current 2>/dev/null)"
# a label first carried after the policy loaded is learnt by a work item
verdict_of() { awk -F'\t' -v p="$1" '$2 == p {print $6}' $TRIAGE/ranking; }
i=0
while [ "$(verdict_of "$sharer")" != protect ] && [ $i -lt 50 ]; do
	nap 0.1
	i=$((i + 1))
done
check_eq "ranking: the mm-sharer is protected, its owner sacrificed" \
	"protect sacrifice" "$(verdict_of "$sharer") $(verdict_of "$(pid_of shared)")"
dmesg -c >/dev/null
push pusher3 @Web "$cg" 60
check_eq "the sacrificed owner of the mm was the first victim" \
	"$(pid_of shared)" "$(first_victim)"
check "its protected mm-sharer was not killed with it" alive_pid "$sharer"
check "the kernel says it spared the protected mm-sharer" sh -c \
	"dmesg | grep -q 'shares its mm with protected $sharer '"
kill -9 "$sharer" 2>/dev/null
stop_all

# The victim that owned the shared mm stays a zombie while its parent
# (tr-run, stopped here) does not reap it: a global or cpuset OOM still
# sees it as the victim of an earlier OOM and waits for its mm, unless
# that mm is marked MMF_OOM_SKIP.  Node 1 fills up in a cpuset OOM (node
# 0 stays free for this shell): the next OOM must kill the filler at once.
echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control
mkdir -p /sys/fs/cgroup/node1
echo 1 >/sys/fs/cgroup/node1/cpuset.mems
start shared2 @BatchShared /sys/fs/cgroup/node1 tr-hog --mib 16 \
	--mm-sharer Database --sharer-pid /run/sharer2.pid --ready /run/shared2.ready
waitfile 30000 /run/shared2.ready
sharer2=$(cat /run/sharer2.pid 2>/dev/null)
i=0
while [ "$(verdict_of "$sharer2")" != protect ] && [ $i -lt 50 ]; do
	nap 0.1
	i=$((i + 1))
done
owner=$(pid_of shared2)
parent=$(awk '{print $4}' /proc/$owner/stat)
check_eq "the owner's parent is its tr-run, stopped" "tr-run" \
	"$(kill -STOP "$parent" && cat /proc/$parent/comm)"
dmesg -c >/dev/null
start filler - /sys/fs/cgroup/node1 tr-hog --mib 600 --step-mib 4 --step-ms 10
check_eq "a later OOM killed the filler without waiting for the zombie's mm" \
	killed:9 "$(status filler)"
check_eq "the sacrificed owner was the first victim, spared sharer alive" \
	"$owner alive" "$(first_victim) $(alive_pid "$sharer2" && echo alive)"
kill -CONT "$parent"
kill -9 "$sharer2" 2>/dev/null
stop_all

# a relabel without exec (attr/smack/current) into a protected label that
# no task carried before
check "a policy protecting Fresh* loads" load_policy "protect label=Fresh*"
relabel_then_oom "$(memcg smack-relabel 96M)" FreshDatabase @Web
