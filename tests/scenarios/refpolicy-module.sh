# The reference-policy module (policy/refpolicy): with Debian's reference
# policy + triage.pp loaded and enforcing, triagectl run by a confined admin
# (sysadm_t) runs in triagectl_t and loads a triage policy; the admin's own
# shell and a user (user_t) cannot write the policy file (EACCES, an AVC
# denial in the log).  triage-pressured, exec'd by init_t from a file of
# its entry type as systemd would, runs in triage_pressured_t, reads the
# pressure file and arms its PSI triggers (the system's and a cgroup's)
# with no AVC denial, in the daemon and with --once-armed; a user and the
# admin's shell can neither read nor write the pressure file (EACCES, an
# AVC denial, of triage_pressure_t for the admin).  triagectl conform,
# entered in triagectl_conform_t as runcon does, runs a spec whose probes
# are in user_t and sshd_t (made probe domains by the interface) with no
# AVC denial, and refuses in triagectl_t.  Needs the init to load
# refpolicy-triage.bin (the append line below; built by
# make -C policy/refpolicy OUT=... bin).
# append: selinux_policy=/etc/selinux/refpolicy-triage.bin
# mem: 512M
# plan: 33
# timeout: 300
ctx=$(cat /proc/self/attr/current)
diag "scenario context: $ctx"
case "$ctx" in
*:kernel_t:*) ;;
*)	tap_fail "the reference policy is loaded (init runs in kernel_t)"
	diag "the init did not load refpolicy-triage.bin (selinux_policy= on the command line)"
	return 0 2>/dev/null || exit 0 ;;
esac
check_eq "reference policy + triage module enforcing" 1 "$(cat /sys/fs/selinux/enforce)"

# Files with the labels the module's .fc would give on a real system: the
# guest's rootfs cannot take new labels, a tmpfs can (fscreate).
fscreate() { printf '%s' "$1" >/proc/self/attr/fscreate; }
mkdir -p /opt/bin /opt/etc
mount -t tmpfs -o rootcontext=system_u:object_r:bin_t:s0 tmpfs /opt/bin
mount -t tmpfs -o rootcontext=system_u:object_r:etc_t:s0 tmpfs /opt/etc
fscreate system_u:object_r:shell_exec_t:s0;     cat /bin/busybox >/opt/bin/sh
fscreate system_u:object_r:triagectl_exec_t:s0; cat /usr/bin/triagectl >/opt/bin/triagectl
fscreate system_u:object_r:triage_conf_t:s0;    mkdir /opt/etc/triage
printf 'protect type=sshd_t\nsacrifice type=user_t\n' >/opt/etc/triage/policy
printf 'sacrifice type=user_t\n' >/tmp/user.policy
# /dev/null as udev labels it: the conform runner gives it to its probes
fscreate system_u:object_r:null_device_t:s0;    mknod /dev/null.new c 1 3 && mv /dev/null.new /dev/null
echo >/proc/self/attr/fscreate
chmod 755 /opt/bin/sh /opt/bin/triagectl

gen0=$(sed -n 's/^policy_generation //p' $TRIAGE/stats)
admin=sysadm_u:sysadm_r:sysadm_t:s0-s0:c0.c1023
dmesg -c >/dev/null

# the confined admin runs triagectl: sysadm_t -> triagectl_t
tr-run --name admin-load --context "$admin" -- /opt/bin/sh -c \
	'echo "shell: $(cat /proc/self/attr/current)";
	 /opt/bin/triagectl load /opt/etc/triage/policy' 3>&- </dev/null >/tmp/admin.out 2>&1
check_eq "sysadm_t loads a triage policy with triagectl" exited:0 "$(status admin-load)"
sed 's/^/# admin: /' /tmp/admin.out >&3
gen1=$(sed -n 's/^policy_generation //p' $TRIAGE/stats)
check "the kernel took it (generation $gen0 -> $gen1)" test "$gen1" != "$gen0"

# triagectl started by the admin runs in triagectl_t
tr-run --name follow --context "$admin" --results "$RESULTS" -- /opt/bin/sh -c \
	'exec /opt/bin/triagectl log --follow' 3>&- </dev/null >/tmp/follow.out 2>&1 &
waitfile 10000 "$RESULTS/follow.pid" >/dev/null 2>&1
i=0
while [ $i -lt 50 ]; do
	fctx=$(cat "/proc/$(pid_of follow)/attr/current" 2>/dev/null)
	case "$fctx" in *:triagectl_t:*) break ;; esac
	nap 0.1; i=$((i + 1))
done
check_eq "triagectl run by sysadm_t runs in triagectl_t" \
	sysadm_u:sysadm_r:triagectl_t:s0-s0:c0.c1023 "$fctx"
kill "$(pid_of follow)" 2>/dev/null

# triagectl_t reads other domains' labels: explain on a user_t task
# (no /dev/null here: the initramfs's is not null_device_t, and its
# denials would crowd the log that the checks below read from)
: >/tmp/empty
tr-run --name usersleep --context user_u:user_r:user_t:s0 --results "$RESULTS" -- \
	/opt/bin/sh -c 'exec sleep 100' 3>&- </tmp/empty >/tmp/usersleep.out 2>&1 &
waitfile 10000 "$RESULTS/usersleep.pid" >/dev/null 2>&1
nap 0.5
tr-run --name admin-explain --context "$admin" -- /opt/bin/sh -c \
	"/opt/bin/triagectl explain $(pid_of usersleep)" 3>&- </tmp/empty >/tmp/explain.out 2>&1
sed 's/^/# explain: /' /tmp/explain.out >&3
check "triagectl explain, in triagectl_t, reads a user_t task's label and verdict" sh -c \
	'grep -q "user_t" /tmp/explain.out && grep -q sacrifice /tmp/explain.out'
check_eq_empty "and triagectl_t was denied no process access" \
	"$(dmesg | grep 'avc:  denied' | grep 'scontext=[^ ]*:triagectl_t' | grep 'tclass=process')"
kill "$(pid_of usersleep)" 2>/dev/null

# the admin's shell itself, writing the file directly: denied
tr-run --name admin-dd --context "$admin" -- /opt/bin/sh -c \
	'echo "sacrifice type=sshd_t" >/sys/kernel/security/triage/policy' 3>&- </dev/null >/tmp/admin-dd.out 2>&1
check_eq "sysadm_t cannot write the policy file itself" exited:1 "$(status admin-dd)"
check "with EACCES" grep -q 'Permission denied' /tmp/admin-dd.out
check "and an AVC denial of write on triage_policy_t" audit_logged \
	"avc:  denied  \\{ write \\} .*scontext=sysadm_u:sysadm_r:sysadm_t.*tcontext=system_u:object_r:triage_policy_t"

# a user: denied
tr-run --name user-dd --context user_u:user_r:user_t:s0 -- /opt/bin/sh -c \
	'echo "sacrifice type=sshd_t" >/sys/kernel/security/triage/policy' 3>&- </dev/null >/tmp/user-dd.out 2>&1
check_eq "user_t cannot write the policy file" exited:1 "$(status user-dd)"
check "with EACCES" grep -q 'Permission denied' /tmp/user-dd.out
check "and an AVC denial for user_t on the triage files" audit_logged \
	"avc:  denied  .*scontext=user_u:user_r:user_t.*tcontext=system_u:object_r:triage_"
check_eq "the admin's policy is still in force" "$gen1" \
	"$(sed -n 's/^policy_generation //p' $TRIAGE/stats)"
sed 's/^/# admin-dd: /' /tmp/admin-dd.out >&3
sed 's/^/# user-dd: /' /tmp/user-dd.out >&3

# --- triage-pressured in triage_pressured_t.  As systemd starts it: init_t
# execs a file of triage_pressured_exec_t (the module's .fc label), and
# init_daemon_domain's type_transition does the rest.  Here init_t is a
# script of init_exec_t exec'd from kernel_t (the kernel's own transition
# to init_t), which execs the daemon.
fscreate system_u:object_r:triage_pressured_exec_t:s0
cat /usr/bin/triage-pressured >/opt/bin/triage-pressured
fscreate system_u:object_r:init_exec_t:s0
printf '#!/opt/bin/sh\nexec /opt/bin/triage-pressured "$@"\n' >/opt/bin/as-init
fscreate system_u:object_r:triage_conf_t:s0
printf 'protect type=sshd_t\nprotect type=triage_pressured_t\nsacrifice type=user_t\npressure some 10%% 1s\npressure some 10%% 1s cgroup=/refpol-pressure\n' \
	>/opt/etc/triage/pressure.policy
echo >/proc/self/attr/fscreate
chmod 755 /opt/bin/triage-pressured /opt/bin/as-init
mkdir -p /sys/fs/cgroup/refpol-pressure
tr-run --name admin-load-pressure --context "$admin" -- /opt/bin/sh -c \
	'/opt/bin/triagectl load /opt/etc/triage/pressure.policy' 3>&- </tmp/empty >/tmp/admin-load-pressure.out 2>&1
check_eq "sysadm_t loads a policy with two pressure statements" exited:0 "$(status admin-load-pressure)"
sed 's/^/# admin-load-pressure: /' /tmp/admin-load-pressure.out >&3

# Before it starts the unit, systemd (init_t) checks its
# ConditionPathExists=/sys/kernel/security/triage/pressure: init_t must
# see that the file exists (an unmet condition skips the unit silently)
fscreate system_u:object_r:init_exec_t:s0
printf '#!/opt/bin/sh\n[ -e /sys/kernel/security/triage/pressure ]\n' >/opt/bin/init-condition
echo >/proc/self/attr/fscreate
chmod 755 /opt/bin/init-condition
tr-run --name init-condition -- /opt/bin/init-condition 3>&- </tmp/empty >/tmp/init-condition.out 2>&1
check_eq "init_t sees the pressure file, as the unit's ConditionPathExists= needs" \
	exited:0 "$(status init-condition)"

tr-run --name pressured --results "$RESULTS" -- /opt/bin/as-init --verbose \
	3>&- </tmp/empty >/tmp/pressured.out 2>&1 &
waitfile 10000 "$RESULTS/pressured.pid" >/dev/null 2>&1
i=0
while [ $i -lt 50 ]; do
	pctx=$(cat "/proc/$(pid_of pressured)/attr/current" 2>/dev/null)
	case "$pctx" in *:triage_pressured_t:*) grep -q 'armed: .*memory.pressure' /tmp/pressured.out && break ;; esac
	nap 0.1; i=$((i + 1))
done
check_eq "triage-pressured exec'd by init_t runs in triage_pressured_t" \
	system_u:system_r:triage_pressured_t:s0 "$pctx"
check "it armed the system's trigger on /proc/pressure/memory" \
	grep -q 'statement 1 .*armed: some 100000 1000000 on /proc/pressure/memory' /tmp/pressured.out
check "and the cgroup's on its memory.pressure" \
	grep -q 'statement 2 .*armed: some 100000 1000000 on /sys/fs/cgroup/refpol-pressure/memory.pressure' /tmp/pressured.out
kill -TERM "$(pid_of pressured)" 2>/dev/null
check_eq "SIGTERM stops it with exit 0" exited:0 "$(status pressured)"
sed 's/^/# pressured: /' /tmp/pressured.out >&3

tr-run --name once-armed -- /opt/bin/as-init --once-armed 3>&- </tmp/empty >/tmp/once-armed.out 2>&1
check_eq "triage-pressured --once-armed in triage_pressured_t: every trigger armed, exit 0" \
	exited:0 "$(status once-armed)"
sed 's/^/# once-armed: /' /tmp/once-armed.out >&3
check_eq_empty "and triage_pressured_t was denied nothing" \
	"$(dmesg | grep 'avc:  denied' | grep 'scontext=[^ ]*:triage_pressured_t')"

# a user: neither reads nor writes the pressure file
tr-run --name user-pressure --context user_u:user_r:user_t:s0 -- /opt/bin/sh -c \
	'read g </sys/kernel/security/triage/pressure && echo "read: $g";
	 echo "fire 1 1" >/sys/kernel/security/triage/pressure && echo fired;
	 exit 0' 3>&- </tmp/empty >/tmp/user-pressure.out 2>&1
sed 's/^/# user-pressure: /' /tmp/user-pressure.out >&3
check "user_t cannot read or write the pressure file (EACCES)" sh -c \
	'[ "$(grep -c "Permission denied" /tmp/user-pressure.out)" = 2 ] &&
	 ! grep -Eq "^(read|fired)" /tmp/user-pressure.out'
check "with an AVC denial for user_t on the triage files" audit_logged \
	"avc:  denied  .*scontext=user_u:user_r:user_t.*tcontext=system_u:object_r:triage_"

# the admin's shell reads the other triage files (triage_read_state), not
# this one, and cannot ask for an early kill
tr-run --name admin-pressure --context "$admin" -- /opt/bin/sh -c \
	'read g </sys/kernel/security/triage/pressure && echo "read: $g";
	 echo "fire 1 1" >/sys/kernel/security/triage/pressure && echo fired;
	 exit 0' 3>&- </tmp/empty >/tmp/admin-pressure.out 2>&1
sed 's/^/# admin-pressure: /' /tmp/admin-pressure.out >&3
check "sysadm_t's shell cannot read or write the pressure file (EACCES)" sh -c \
	'[ "$(grep -c "Permission denied" /tmp/admin-pressure.out)" = 2 ] &&
	 ! grep -Eq "^(read|fired)" /tmp/admin-pressure.out'
check "an AVC denial of read on triage_pressure_t" audit_logged \
	"avc:  denied  \\{ read \\} .*scontext=sysadm_u:sysadm_r:sysadm_t.*tcontext=system_u:object_r:triage_pressure_t"
check "an AVC denial of write on triage_pressure_t" audit_logged \
	"avc:  denied  \\{ write \\} .*scontext=sysadm_u:sysadm_r:sysadm_t.*tcontext=system_u:object_r:triage_pressure_t"
rmdir /sys/fs/cgroup/refpol-pressure 2>/dev/null

# --- triagectl conform in triagectl_conform_t (docs/conform.md): the admin
# asks for that domain at exec, as runcon -t does (the exec context
# overrides the transition to triagectl_t).  The guest's test module
# (policy/refpolicy/test/triage_conform_test.te) is a site's: user_t and
# sshd_t are probe domains by triage_conform_probe_domain().  The parent
# cgroup is a delegated one, as on a systemd host (the root cgroup's
# directory is mode 0555: writing it takes CAP_DAC_OVERRIDE, which the
# domain does not have).
set_oom_policy "triage classic"
mkdir -p /sys/fs/cgroup/refpol-conform
echo +memory >/sys/fs/cgroup/refpol-conform/cgroup.subtree_control
fscreate system_u:object_r:triage_conf_t:s0
printf 'memory 64M\ntimeout 60\ntype=user_t 8M dies before type=sshd_t 24M\n' \
	>/opt/etc/triage/conform.spec
echo >/proc/self/attr/fscreate
avc0=$(dmesg | grep -c 'avc:  denied')
tr-run --name conform-plain --context "$admin" -- /opt/bin/sh -c \
	'exec /opt/bin/triagectl conform --cgroup-parent /sys/fs/cgroup/refpol-conform /opt/etc/triage/conform.spec' \
	3>&- </tmp/empty >/tmp/conform-plain.out 2>&1
sed 's/^/# conform-plain: /' /tmp/conform-plain.out >&3
check_eq "triagectl conform without runcon runs in triagectl_t and refuses: exit 3" \
	exited:3 "$(status conform-plain)"
check "saying the probes' domains cannot be entered from triagectl_t" grep -q \
	"probes cannot be labelled .*denies process transition from sysadm_u:sysadm_r:triagectl_t" \
	/tmp/conform-plain.out
# Its output goes through a pipe of the admin's shell, as in
# "runcon -t triagectl_conform_t -- triagectl conform SPEC | tee report"
# (the runner must be allowed to use its caller's pipe: a denial there
# empties the report and is one of the AVCs checked below)
conform_ctx=sysadm_u:sysadm_r:triagectl_conform_t:s0-s0:c0.c1023
tr-run --name conform --context "$admin" -- /opt/bin/sh -c \
	"set -o pipefail
	 /opt/bin/sh -c 'echo -n $conform_ctx >/proc/self/attr/exec &&
	  exec /opt/bin/triagectl conform --cgroup-parent /sys/fs/cgroup/refpol-conform /opt/etc/triage/conform.spec' 2>&1 |
	 while IFS= read -r l; do printf '%s\\n' \"\$l\"; done" \
	3>&- </tmp/empty >/tmp/conform.out 2>&1
sed 's/^/# conform: /' /tmp/conform.out >&3
check_eq "with the exec context of runcon -t triagectl_conform_t the spec runs and holds: exit 0" \
	exited:0 "$(status conform)"
check "its test point: user_t's probe died before sshd_t's" grep -q "^ok 1 - " /tmp/conform.out
check "the grower ran in the runner's own domain, triagectl_conform_t" \
	grep -q "(the grower) in $conform_ctx: " /tmp/conform.out
check_eq_empty "no conform cgroup was left" "$(ls -d /sys/fs/cgroup/refpol-conform/triage-conform.* 2>/dev/null)"
# (but /dev/kmsg: the guest's devtmpfs nodes are event_device_t, not the
# kmsg_device_t udev gives it, and the kill lines are then not readable)
check_eq_empty "and neither the runner nor its probes were denied anything" \
	"$(dmesg | grep 'avc:  denied' | tail -n +$((avc0 + 1)) |
	   grep -E 'scontext=[^ ]*:(triagectl_conform_t|user_t|sshd_t):' |
	   grep -v 'name="kmsg" .*tcontext=system_u:object_r:event_device_t')"
dmesg | grep 'avc:' | sed 's/^/# /' >&3
stop_all
