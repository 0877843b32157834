# What the triagectl Debian package promises, on the test kernel, with the
# package's own files: build/deb's triagectl_*.deb as dpkg would install
# it, its control files in /var/lib/dpkg/info, and systemd's
# systemd-sysctl with its unit (scripts/initramfs-deb, appended to the
# initramfs).  Every path comes from the package (its file list, its unit,
# its conffiles), none is written here: the sysctl.d file, applied the way
# systemd-sysctl.service does at boot and the package's postinst does at
# install, puts triage first in vm.oom_policy; the unit's ExecStart loads
# the packaged /etc/triage/policy; the packaged triagectl's status tells
# the kernel's truth; in the packaged permissive mode a real OOM is decided
# by triage (logged as would-kill); an admin who follows the policy file's
# own instructions (a rule, mode enforce, the unit's ExecReload) gets the
# next OOM decided by the rule.  The package's file layout and lintian are
# checked on the host (tests/deb/check).
# mem: 256M
# timeout: 150
# initrd: initramfs-deb.cpio
# plan: 20
INFO=/var/lib/dpkg/info/triagectl

# unit_key KEY: the value of KEY= in the package's unit
unit_key() { sed -n "s/^$1=//p" "$unit" | head -n 1; }
# status_truth: what triagectl status must say, from the kernel's files
status_truth() {
	local stats
	stats=$(cat $TRIAGE/stats)
	printf 'chain=%s triage_in_it=%s mode=%s policy=%s, %s rules, generation %s\n' \
		"$(cat /proc/sys/vm/oom_policy)" \
		"$(grep -qw triage /proc/sys/vm/oom_policy && echo yes || echo no)" \
		"$(cat $TRIAGE/mode)" \
		"$(echo "$stats" | sed -n 's/^policy_hash //p')" \
		"$(echo "$stats" | sed -n 's/^policy_rules //p')" \
		"$(echo "$stats" | sed -n 's/^policy_generation //p')"
}
# status_says: the same, from the packaged triagectl status
status_says() {
	"$tc" status | awk '
		/^OOM chain / {
			sub(/^OOM chain +/, ""); chain = $0; in_it = "yes"
			if (sub(/  \(triage not in it: .*/, "", chain)) in_it = "no"
		}
		/^mode / { mode = $2 }
		$1 == "policy" && $2 != "loaded" { sub(/^policy +/, ""); pol = $0 }
		END { printf "chain=%s triage_in_it=%s mode=%s policy=%s\n", chain, in_it, mode, pol }' |
		sed 's/, 1 rule,/, 1 rules,/'
}
# logged NAME MODE OUTCOME: the packaged triagectl log has a decision on
# NAME's pid in MODE with OUTCOME (SEQ TIME MODE SCOPE PID COMM POINTS
# VERDICT RULE OUTCOME LABEL)
logged() {
	"$tc" log | awk -v pid="$(pid_of "$1")" -v m="$2" -v o="$3" '
		$5 == pid && $3 == m && $10 == o { found = 1 } END { exit !found }'
}

# the package's files, found through its file list; the unit is the boot
# unit that loads the policy (the others: triage-boot-check.service and
# triage-pressured.service)
unit=$(grep -E '^(/usr)?/lib/systemd/system/triage-policy\.service$' $INFO.list | head -n 1)
sysctl_file=$(grep -E '^(/usr)?/lib/sysctl\.d/[^/]*\.conf$' $INFO.list | head -n 1)
exec_start=$(unit_key ExecStart)
exec_reload=$(unit_key ExecReload)
policy=$(unit_key ConditionPathExists)
tc=${exec_start%% *}
version=$(sed -n 's/^Version: //p' $INFO.control)
diag "package triagectl $version: unit $unit, sysctl.d file $sysctl_file
ExecStart=$exec_start
ExecReload=$exec_reload
ConditionPathExists=$policy"

check_eq "the unit's program $tc is the package's, and runs here" \
	"triagectl $version" "$("$tc" --version 2>&1)"

# vm.oom_policy: the kernel's default, then what systemd-sysctl.service
# makes of the package's file (the boot), then the postinst (the install)
want=$(sed -n 's/^-\{0,1\}vm\.oom_policy *= *//p' "$sysctl_file" | tail -n 1)
before=$(cat /proc/sys/vm/oom_policy)
check "before the sysctl.d file, triage is not in vm.oom_policy ('$before')" \
	sh -c "! echo '$before' | grep -qw triage"
sysctl_start=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/systemd-sysctl.service)
$sysctl_start >/tmp/sysctl.out 2>&1
diag "$sysctl_start: exit $?, $(cat /tmp/sysctl.out)"
check_eq "systemd-sysctl.service ($sysctl_start) sets vm.oom_policy as ${sysctl_file##*/} says" \
	"$want" "$(cat /proc/sys/vm/oom_policy)"
check_eq "triage first in vm.oom_policy after the boot's systemd-sysctl" \
	triage "$(cut -d' ' -f1 /proc/sys/vm/oom_policy)"
set_oom_policy classic
sh $INFO.postinst configure >/tmp/postinst.out 2>&1
check_eq "the package's postinst (configure) exits 0" 0 "$?"
diag "$(cat /tmp/postinst.out)"
check_eq "and puts triage first in vm.oom_policy at install" \
	triage "$(cut -d' ' -f1 /proc/sys/vm/oom_policy)"

# the boot unit and the conffile it loads
check "the unit's ConditionPathExists= ($policy) is shipped as a conffile" \
	sh -c "[ -f '$policy' ] && grep -qx '$policy' $INFO.conffiles"
"$tc" status >/tmp/status0.out 2>&1
check_eq "before the unit ran, triagectl status says no policy (exit 6)" 6 "$?"
diag "$(cat /tmp/status0.out)"
$exec_start >/tmp/unit.out 2>&1
check_eq "the unit's ExecStart ($exec_start) exits 0" 0 "$?"
diag "$(cat /tmp/unit.out)"
check_eq "the kernel's mode is the packaged policy's" \
	"$(sed -n 's/^mode //p' "$policy")" "$(cat $TRIAGE/mode)"
check_eq "the load's hash is the kernel's policy_hash" \
	"$(sed -n 's/^policy_hash //p' $TRIAGE/stats)" \
	"$(sed -n 's/.*, hash \([0-9a-f]*\),.*/\1/p' /tmp/unit.out)"
check_eq "triagectl status tells the kernel's chain (triage in it or not), mode and policy" \
	"$(status_truth)" "$(status_says)"
diag "$("$tc" status)"

# the packaged policy is permissive: the classic victim dies, triage logs
# what it would have killed (no rule: the same, the largest)
cg=$(memcg deb 96M)
hog big web_t "$cg" 48
hog small batch_t "$cg" 8
push pusher user_t "$cg" 40
check_eq "permissive: the largest task died, as without triage" killed:9 "$(status big)"
check "and triagectl log has triage's would-kill decision on it" logged big permissive would-kill
diag "$("$tc" log)"
stop_all

# the admin follows the policy file's instructions: a rule, mode enforce,
# loaded again (the unit's ExecReload, systemctl reload triage-policy)
sed -i 's/^mode permissive/mode enforce/' "$policy"
echo "sacrifice type=batch_t" >>"$policy"
$exec_reload >/tmp/reload.out 2>&1
check_eq "the unit's ExecReload ($exec_reload) loads the edited policy" 0 "$?"
diag "$(cat /tmp/reload.out)"
check_eq "triagectl status tells the kernel's chain, mode and policy after it" \
	"$(status_truth)" "$(status_says)"
# the sacrificed task grows into the OOM itself: nobody else charges
# while its memory is freed, so no second victim (the kernel's race when
# another task goes on charging) can take the largest task
cg=$(memcg deb2 96M)
hog big2 web_t "$cg" 48
hog other2 user_t "$cg" 38
push small2 batch_t "$cg" 16
check_eq "enforce: the sacrificed batch_t task (small) died" killed:9 "$(status small2)"
check "the largest survived" alive big2
check "the kernel's kill line names the rule" sh -c \
	"dmesg | grep -q 'out of memory (oom policy triage: rule 1: sacrifice type=batch_t): Killed process $(pid_of small2) '"
check "and triagectl log has the enforced decision" logged small2 enforce killed
stop_all
