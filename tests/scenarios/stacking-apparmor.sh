# Stacking with AppArmor as the major LSM: this boot enables capability,
# apparmor and triage (lsm= below); init loads the test profiles
# (policy/apparmor/) instead of an SELinux policy.  An AppArmor label is a
# profile name, matched by label= rules; a task gets one by asking for it
# at its next exec (attr/apparmor/exec), where triage resolves it.  A
# sacrificed profile dies first although smallest, a protected profile
# survives although largest, unconfined tasks match "unconfined"; ranking,
# decisions, the kill message and stats speak of the profiles.  Verdicts
# survive a replacement of the profiles, which AppArmor announces to no one.
# The profiles the triagectl package ships (userspace/apparmor/) load, and
# triage-pressured exec'd from /usr/sbin runs under its own, enforced,
# protected by a label= rule, arms its PSI triggers and exits 0 with
# --once-armed, and AppArmor denies it nothing; triagectl conform under
# triagectl-conform passes a spec of complain-mode probe profiles with no
# denial.
# append: lsm=capability,apparmor,triage
# mem: 384M
# timeout: 360
# plan: 56
ranked() {
	awk -F'\t' -v p="$(pid_of "$1")" '$2 == p {print $8, $6, $7}' $TRIAGE/ranking
}
check_eq "the LSMs of this boot" "capability,apparmor,triage" "$(cat /sys/kernel/security/lsm)"
check_eq "init is unconfined" unconfined "$(cat /proc/self/attr/apparmor/current)"
check "a policy of AppArmor profiles loads" load_policy "protect label=protected_job
sacrifice label=batch_*
adjust -800 label=web_job
protect label=unconfined"
set_oom_policy "triage classic"

cg=$(memcg apparmor 96M)
hog database @protected_job "$cg" 40
hog web @web_job "$cg" 16
hog batch @batch_job "$cg" 8
check_eq "tr-run gave batch its profile" "batch_job (complain)" \
	"$(cat /proc/$(pid_of batch)/attr/apparmor/current)"
diag "$(tr '\t' ' ' <$TRIAGE/ranking)"
check_eq "ranking: the sacrificed batch_job first" "$(pid_of batch)" "$(ranked_first)"
check_eq "ranking: batch matched the glob" "batch_job sacrifice 2" "$(ranked batch)"
check_eq "ranking: the database is protected by its profile" \
	"protected_job protect 1" "$(ranked database)"
check_eq "ranking: web is adjusted" "web_job adjust 3" "$(ranked web)"
check_eq "ranking: tr-run, unconfined, is protected" "unconfined protect 4" \
	"$(awk -F'\t' '$9 == "tr-run" {print $8, $6, $7}' $TRIAGE/ranking | head -n 1)"

push pusher @web_job "$cg" 36
check_eq "batch (smallest, sacrificed by profile) was SIGKILLed" killed:9 "$(status batch)"
check_eq "batch was the first OOM victim" "$(pid_of batch)" "$(first_victim)"
check "the kill message names the profile rule" sh -c \
	'dmesg | grep -q "oom policy triage: rule 2: sacrifice label=batch_\*"'
check "database (largest, protected by profile) survived" alive database
check "web survived" alive web
check_eq "decisions: the victim's profile, verdict and rule" \
	"batch_job sacrifice 2" \
	"$(decision_for batch label) $(decision_for batch verdict) $(decision_for batch rule)"
check_eq "stats: no task unlabelled" 0 "$(stat_of unlabelled_tasks)"
check_eq "stats: no label look-up missed" 0 "$(stat_of label_misses)"

# A label born after another died must not inherit its verdict: AppArmor
# used to hand a freed secid to the next new label.  doomed_job's label is
# matched (a task ran under it), the profile is removed, and fresh_job is
# loaded: on a kernel that reuses the number and keeps the dead label's
# rule, the protected fresh_job task is sacrificed.
stop_all
rebuilds=$(stat_of table_rebuilds)
check "a policy sacrificing doomed_job, protecting fresh_job loads" load_policy "sacrifice label=doomed_job*
protect label=fresh_job*
protect label=protected_job*"
hog doomed @doomed_job "$(memcg apparmor-doomed 64M)" 4
check_eq "ranking: doomed_job is sacrificed" "doomed_job sacrifice 1" "$(ranked doomed)"
stop_all
check "the doomed_job profile is removed" sh -c \
	'printf doomed_job >/sys/kernel/security/apparmor/.remove'
nap 1
check "the fresh_job profile is loaded" sh -c \
	'dd if=/etc/apparmor/triage-test-fresh.bin of=/sys/kernel/security/apparmor/.load bs=8M 2>/dev/null'
check "stats: triage matched the labels again after each AppArmor load" \
	[ "$(stat_of table_rebuilds)" -ge $((rebuilds + 2)) ]
cg=$(memcg apparmor-fresh 96M)
hog fresh @fresh_job "$cg" 60
check_eq "oom_score of the fresh_job task: 0 (protected)" 0 "$(oom_score_of fresh)"
diag "fresh_job in the ranking (label, verdict, rule): $(ranked fresh)"
dmesg -c >/dev/null
push pusher-fresh @web_job "$cg" 40
check_eq "the OOM kills the ordinary pusher" "$(pid_of pusher-fresh)" "$(first_victim)"
check "the fresh_job task (protected, largest) survived" alive fresh
stop_all
check "the first policy loads again" load_policy "protect label=protected_job
sacrifice label=batch_*
adjust -800 label=web_job
protect label=unconfined"

# Replacing the profiles gives the tasks new labels (new secids) under
# the same names, and AppArmor tells no other LSM.  A verdict cached in a
# task's credentials was matched on the name, so it holds; a task started
# after the replacement is matched at its exec.
stop_all
cg=$(memcg apparmor-replaced 96M)
hog database2 @protected_job "$cg" 40
hog web2 @web_job "$cg" 16
# a task that keeps working: AppArmor moves it to the replaced profile's
# new label at its next file open, through new credentials
start worker @protected_job "$cg" sh -c 'while :; do : </proc/self/status; sleep 0.1; done'
nap 1
check "the profiles are replaced" sh -c \
	'dd if=/etc/apparmor/triage-test.bin of=/sys/kernel/security/apparmor/.replace bs=8M 2>/dev/null'
hog batch2 @batch_job "$cg" 8
diag "after the replacement: $(tr '\t' ' ' <$TRIAGE/ranking)"
check_eq "ranking: the database started before the replacement is still protected" \
	"protected_job protect 1" "$(ranked database2)"
nap 1
check_eq "ranking: a protected task that worked after the replacement is still protected" \
	"protected_job protect 1" "$(ranked worker)"
check_eq "ranking: a batch job started after it is sacrificed first" \
	"$(pid_of batch2)" "$(ranked_first)"
dmesg -c >/dev/null
push pusher2 @web_job "$cg" 36
check_eq "the next OOM kills that batch job" "$(pid_of batch2)" "$(first_victim)"
check "the database survived" alive database2
check_eq "stats: still no label look-up missed" 0 "$(stat_of label_misses)"
stop_all
stop_all

# a relabel without exec (change_profile) into a protected profile
check "a policy protecting moved_job loads" load_policy "protect label=moved_job*
protect label=unconfined"
relabel_then_oom "$(memcg apparmor-relabel 96M)" moved_job @web_job

# The shipped profiles, in enforce mode: triage-pressured exec'd from its
# path (as systemd does) runs under "triage-pressured".  Its standard
# streams are /dev/null and no other descriptor is inherited: under
# systemd they are /dev/null and the journal's socket, and AppArmor would
# deny (and log) an inherited log file the profile does not name.
check "the shipped profiles load (triage-pressured, triagectl-conform)" sh -c \
	'dd if=/etc/apparmor/triage-shipped.bin of=/sys/kernel/security/apparmor/.load bs=8M 2>/dev/null'
mkdir -p /usr/sbin /sys/fs/cgroup/aa-pressure
cp /usr/bin/triage-pressured /usr/sbin/triage-pressured
check "a policy protecting the daemon's profile, with two pressure statements, loads" load_policy "protect label=triage-pressured
protect label=unconfined
pressure some 10% 1s
pressure some 10% 1s cgroup=/aa-pressure"
dmesg -c >/dev/null
start pressured - /sys/fs/cgroup sh -c \
	'exec /usr/sbin/triage-pressured --verbose </dev/null >/dev/null 2>&1 3>&-'
waitfile 10000 "$RESULTS/pressured.pid" >/dev/null 2>&1
i=0
while [ $i -lt 50 ]; do
	fds=$(for f in /proc/$(pid_of pressured)/fd/*; do readlink "$f"; done 2>/dev/null | sort | tr '\n' ' ')
	case "$fds" in *memory.pressure*) break ;; esac
	nap 0.1; i=$((i + 1))
done
check_eq "triage-pressured exec'd from /usr/sbin runs under its profile, enforced" \
	"triage-pressured (enforce)" "$(cat /proc/$(pid_of pressured)/attr/apparmor/current 2>/dev/null)"
diag "its descriptors: $fds"
check "it holds both PSI triggers armed (the system's and the cgroup's)" sh -c \
	"echo '$fds' | grep -q '/proc/pressure/memory' &&
	 echo '$fds' | grep -q '/sys/fs/cgroup/aa-pressure/memory.pressure'"
# (its oom_score_adj is -1000: it is in no ranking; explain still says)
triagectl explain "$(pid_of pressured)" >/tmp/explain-pressured.out 2>&1
diag "$(cat /tmp/explain-pressured.out)"
check "triagectl explain: the daemon's label is its profile, protected by rule 1" sh -c \
	'grep -Eq "^label +triage-pressured" /tmp/explain-pressured.out &&
	 grep -Eq "^rule +1: protect label=triage-pressured" /tmp/explain-pressured.out &&
	 grep -Eq "^verdict +protect" /tmp/explain-pressured.out'
kill -TERM "$(pid_of pressured)"
start once-armed - /sys/fs/cgroup sh -c \
	'exec /usr/sbin/triage-pressured --once-armed </dev/null >/dev/null 2>&1 3>&-'
check_eq "triage-pressured --once-armed under its profile: every trigger armed, exit 0" \
	exited:0 "$(status once-armed)"
check_eq "and SIGTERM stopped the daemon with exit 0" exited:0 "$(status pressured)"
check_eq_empty "AppArmor denied triage-pressured nothing" \
	"$(dmesg | grep 'apparmor="DENIED"' | grep 'profile="triage-pressured"')"
stop_all
rmdir /sys/fs/cgroup/aa-pressure 2>/dev/null

# triagectl conform under the shipped profile triagectl-conform, entered
# at exec as aa-exec -p does, with the guest's site additions for its
# probe profiles (policy/apparmor/local/triagectl-conform).  The parent
# cgroup is a delegated one: the root cgroup's directory (mode 0555) takes
# CAP_DAC_OVERRIDE, which the profile does not have.
check "a policy sacrificing batch_job and protecting protected_job loads" load_policy "sacrifice label=batch_*
protect label=protected_job
protect label=unconfined"
cp /usr/bin/triagectl /usr/sbin/triagectl
mkdir -p /sys/fs/cgroup/aa-conform
echo +memory >/sys/fs/cgroup/aa-conform/cgroup.subtree_control
printf 'memory 64M\ntimeout 60\nprofile=batch_job 8M dies before profile=protected_job 24M\n' >/tmp/aa-conform.spec
dmesg -c >/dev/null
tr-run --name conform --label triagectl-conform -- /usr/sbin/triagectl conform \
	--cgroup-parent /sys/fs/cgroup/aa-conform /tmp/aa-conform.spec \
	3>&- </dev/null >/tmp/aa-conform.out 2>&1
sed 's/^/# conform: /' /tmp/aa-conform.out >&3
check_eq "triagectl conform under triagectl-conform runs the spec and it holds: exit 0" \
	exited:0 "$(status conform)"
check "its test point: batch_job's probe died before protected_job's" grep -q "^ok 1 - " /tmp/aa-conform.out
check "the grower ran under the runner's profile" \
	grep -q "(the grower) in triagectl-conform (enforce): " /tmp/aa-conform.out
check_eq_empty "AppArmor denied triagectl-conform nothing" \
	"$(dmesg | grep 'apparmor="DENIED"' | grep 'profile="triagectl-conform"')"
stop_all
rmdir /sys/fs/cgroup/aa-conform 2>/dev/null

# A profile whose name has a space ("spaced job", quoted in the policy):
# the decisions file escapes it (\040) and the audit record hex-encodes
# it, as audit does any untrusted string with a space
check "a policy sacrificing the profile \"spaced job\" loads" load_policy 'sacrifice label="spaced job"'
cg=$(memcg aa-spaced 64M)
tr-run --name spaced --label "spaced job" --cgroup "$cg" --results "$RESULTS" -- \
	tr-hog --mib 8 --ready /run/spaced.ready >>/run/tr-run.log 2>&1 &
waitfile 30000 /run/spaced.ready
check_eq "tr-run gave it the profile with a space" "spaced job (complain)" \
	"$(cat /proc/$(pid_of spaced)/attr/current 2>/dev/null)"
dmesg -c >/dev/null
push spacedpusher - "$cg" 80
check_eq "the task of the spaced profile (sacrificed) died" killed:9 "$(status spaced)"
check_eq "decisions: its label escaped" 'spaced\040job' "$(decision_for spaced label)"
i=0
while ! dmesg | grep -q "type=1427.*opid=$(pid_of spaced) " && [ $i -lt 50 ]; do
	nap 0.1
	i=$((i + 1))
done
check "audit: obj hex-encoded (737061636564206a6f62), not written raw" sh -c \
	"dmesg | grep 'type=1427' | grep 'opid=$(pid_of spaced) ' | grep -qi 'obj=737061636564206a6f62 '"
stop_all
