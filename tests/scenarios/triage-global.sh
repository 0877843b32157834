# A global (whole-machine) OOM decided by labels: the sacrificed batch job
# dies first although it is small, the protected database survives
# although it is the largest; the runaway task dies next.
# mem: 256M
# plan: 6
set_oom_policy "triage classic"
check "policy loads" load_policy "protect type=protected_t
protect type=init_t
sacrifice type=batch_t"
hog db protected_t /sys/fs/cgroup 100
hog batch batch_t /sys/fs/cgroup 10
start runaway user_t /sys/fs/cgroup tr-hog --mib 400 --step-mib 4 --step-ms 20
check_eq "batch (sacrificed, small) was killed" killed:9 "$(status batch)"
check_eq "the runaway was killed next" killed:9 "$(status runaway)"
check "db (protected, largest) survived the global OOM" alive db
check "the kill was a global OOM decided by triage" sh -c \
	'dmesg | grep -q "^.*Out of memory (oom policy triage: rule 3: sacrifice type=batch_t): Killed process"'
check_eq "decisions records a global sacrifice" "global sacrifice" \
	"$(decision_for batch scope) $(decision_for batch verdict)"
stop_all
