#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of deploy/grub/triage-grub, the kernel hook
# (zzz-triage-grub-default) and the trial boot's judge
# (triage-boot-check.service), without GRUB or a reboot: grub.cfg as
# Debian's grub-mkconfig writes it (translated titles too), fake
# /etc/default/grub fragments, fake securityfs and efivars files, and fake
# grub-set-default, grub-reboot, grub-editenv, systemctl, mokutil, sbverify
# and triagectl first in PATH (grubenv is a file of the test directory).
# dpkg-deb, openssl (the test's certificates) and base64 are the real ones.
# TAP output; run by tests/unit/test-kernel-update.sh (make -C tests/unit
# check), or alone:
#   tests/unit/test-grub.sh [-v]        -v: every command's output
# TEST_HOOK=FILE runs the same tests against another hook.
# (The fakes' bodies are single-quoted on purpose; A && ok || nok reports.)
# shellcheck disable=SC2016,SC2015
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
tg=${TEST_HOOK:-$top/deploy/grub/triage-grub}
verbose=
[ "${1:-}" = -v ] && verbose=1
t=$(mktemp -d /tmp/test-grub.XXXXXX)
trap 'rm -rf "$t"' EXIT
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	local l
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/#   /'; done
}
# expect DESCRIPTION RC PATTERN...: the last run's exit code is RC and its
# output has every PATTERN (grep -E); !PATTERN: has not
expect() {
	local d=$1 rc=$2 p bad=()
	shift 2
	[ "$last_rc" = "$rc" ] || bad+=("exit $last_rc, expected $rc")
	for p in "$@"; do
		case $p in
		!*) ! grep -qE -- "${p#!}" <<<"$last_out" || bad+=("did not expect: ${p#!}") ;;
		*) grep -qE -- "$p" <<<"$last_out" || bad+=("expected: $p") ;;
		esac
	done
	if [ ${#bad[@]} -eq 0 ]; then ok "$d"; else nok "$d" "${bad[@]}" "output:" "$last_out"; fi
}
# is DESCRIPTION GOT WANT
is() { if [ "$2" = "$3" ]; then ok "$1"; else nok "$1" "got:  '$2'" "want: '$3'"; fi; }
r() {
	last_out=$("$@" 2>&1)
	last_rc=$?
	[ -z "$verbose" ] || printf '%s\n# exit %s\n' "$last_out" "$last_rc" | sed 's/^/# | /'
}

# --- the fakes
bin=$t/bin
mkdir -p "$bin" "$t/sys"
fake() { # NAME BODY
	printf '#!/bin/bash\necho "$(basename "$0") $*" >>%s/calls\n%s\n' "$t" "$2" >"$bin/$1"
	chmod +x "$bin/$1"
}
env=$t/grubenv
# grubenv: NAME=VALUE lines
fake grub-editenv 'f='"$env"'; touch "$f"
	case $2 in
	list) cat "$f" ;;
	unset) sed -i "/^$3=/d" "$f" ;;
	esac'
fake grub-set-default '[ -e '"$t"'/set-default-fails ] && exit 1
	sed -i "/^saved_entry=/d" '"$env"' 2>/dev/null; echo "saved_entry=$1" >>'"$env"
fake grub-reboot 'sed -i "/^next_entry=/d" '"$env"' 2>/dev/null; echo "next_entry=$1" >>'"$env"
fake triagectl 'exit 0'
# systemctl: is-active/is-failed/is-enabled UNIT answered from the files
# sys/active, sys/failed, sys/enabled; show -p Wants from sys/wants
fake systemctl 'a=(); for x; do [ "${x#-}" != "$x" ] || a+=("$x"); done; set -- "${a[@]}"
	case $1 in
	is-active|is-failed|is-enabled) grep -qx "$2" '"$t"'/sys/${1#is-} 2>/dev/null ;;
	show) cat '"$t"'/sys/wants 2>/dev/null ;;
	reboot) echo reboot >>'"$t"'/rebooted ;;
	*) exit 1 ;;
	esac'
# mokutil: --sb-state from the file sb-state; --export writes the certs of mok/
fake mokutil 'case $1 in
	--sb-state) cat '"$t"'/sb-state 2>/dev/null || echo "EFI variables are not supported on this system" ;;
	--export) i=0; for c in '"$t"'/mok/*.der; do [ -e "$c" ] || continue
		i=$((i + 1)); cp "$c" "$(printf "MOK-%04d.der" $i)"; done ;;
	esac'
# sbverify --cert PEM IMAGE: "signed" when IMAGE has the line
# "SIGNED-BY <sha256 of the certificate's DER>" (the PEM must be valid)
fake sbverify 'fp=$(openssl x509 -in "$2" -outform DER 2>/dev/null | sha256sum | cut -c1-64)
	[ -n "$fp" ] && grep -qx "SIGNED-BY $fp" "$3"'
export PATH=$bin:$PATH

# --- a Debian 13 /boot, /etc/default/grub, securityfs, efivars
g=$t/root
boot=$g/boot
mkdir -p "$boot/grub" "$g/default/grub.d" "$g/state" "$g/sec/triage" "$g/efivars" "$g/mokvars" "$g/etc"
for k in 6.12.43+deb13-amd64 6.12.48+deb13-amd64; do
	echo '# CONFIG_SECURITY_TRIAGE is not set' >"$boot/config-$k"; echo image >"$boot/vmlinuz-$k"
done
for k in 6.12.9-triage 6.12.41-triage; do
	printf 'CONFIG_LSM="landlock,lockdown,yama,apparmor,triage"\nCONFIG_SECURITY_TRIAGE=y\n' >"$boot/config-$k"
	echo "image $k" >"$boot/vmlinuz-$k"
done
# a removed package's leftover config, and the newest by name
printf 'CONFIG_SECURITY_TRIAGE=y\n' >"$boot/config-6.12.50-triage"
# grub.cfg as Debian 13's grub-mkconfig writes it (10_linux): the first
# entry boots the kernel sorting first (Debian's newest); the advanced
# submenu has each, and recovery mode after it; the titles in the
# language of the system (LANG at update-grub)
grubcfg() { # DISTRIBUTOR BOOTPREFIX ADVANCED WITH RECOVERY KERNEL...
	local os=$1 pre=$2 adv=$3 with=$4 rec=$5 k q="'\\\\''"
	shift 5
	os=${os//\'/$q}
	echo "### BEGIN /etc/grub.d/10_linux ###"
	echo "menuentry '$os' --class debian --class gnu-linux --class gnu --class os \$menuentry_id_option 'gnulinux-simple-0f2b' {"
	printf '\tload_video\n\tinsmod gzio\n\techo\t%s\n' "'Loading Linux $1 ...'"
	printf '\tlinux\t%s/vmlinuz-%s root=UUID=0f2b ro  quiet\n' "$pre" "$1"
	printf '\tinitrd\t%s/initrd.img-%s\n}\n' "$pre" "$1"
	echo "submenu '$adv $os' \$menuentry_id_option 'gnulinux-advanced-0f2b' {"
	for k; do
		printf "\tmenuentry '%s, %s %s' --class debian \$menuentry_id_option 'gnulinux-%s-advanced-0f2b' {\n" "$os" "$with" "$k" "$k"
		printf '\t\tlinux\t%s/vmlinuz-%s root=UUID=0f2b ro  quiet\n\t}\n' "$pre" "$k"
		printf "\tmenuentry '%s, %s %s (%s)' --class debian \$menuentry_id_option 'gnulinux-%s-recovery-0f2b' {\n" "$os" "$with" "$k" "$rec" "$k"
		printf '\t\tlinux\t%s/vmlinuz-%s root=UUID=0f2b ro single\n\t}\n' "$pre" "$k"
	done
	echo "}"
	echo "### END /etc/grub.d/10_linux ###"
}
english() { grubcfg "Debian GNU/Linux" /boot "Advanced options for" "with Linux" "recovery mode" "$@" >"$boot/grub/grub.cfg"; }
english 6.12.48+deb13-amd64 6.12.43+deb13-amd64 6.12.41-triage 6.12.9-triage
printf 'GRUB_DEFAULT=0\nGRUB_TIMEOUT=5\nGRUB_DISTRIBUTOR=`( . /etc/os-release; echo ${NAME:-Debian} ) 2>/dev/null || echo Debian`\n' >"$g/default/grub"
echo 'lockdown,capability,landlock,yama,apparmor,triage,bpf' >"$g/sec/lsm"
echo 'policy_generation 1' >"$g/sec/triage/stats"
echo 'mode permissive' >"$g/etc/policy"
export TRIAGE_BOOT=$boot TRIAGE_DEFAULT_GRUB=$g/default/grub TRIAGE_STATE_DIR=$g/state \
	TRIAGE_SECURITYFS=$g/sec TRIAGE_POLICY=$g/etc/policy TRIAGE_EFIVARS=$g/efivars \
	TRIAGE_MOKVARS=$g/mokvars TRIAGE_RELEASE=6.12.48+deb13-amd64
ID41='gnulinux-advanced-0f2b>gnulinux-6.12.41-triage-advanced-0f2b'
ID57='gnulinux-advanced-0f2b>gnulinux-6.12.57-triage-advanced-0f2b'
envval() { sed -n "s/^$1=//p" "$env" 2>/dev/null; }
healthy() { # a trial boot that came up well
	printf '%s\n' network-online.target ssh.service >"$t/sys/active"
	echo ssh.service >"$t/sys/enabled"
	: >"$t/sys/failed"
	echo 'systemd-networkd-wait-online.service' >"$t/sys/wants"
	echo 'lockdown,capability,landlock,yama,apparmor,triage,bpf' >"$g/sec/lsm"
	echo 'policy_generation 1' >"$g/sec/triage/stats"
	rm -f "$t/rebooted"
}
H() { r "$tg" hook "$@"; }
CB() { r "$tg" check-boot "$@"; }
healthy

# --- the hook: GRUB_DEFAULT, fragments that update-grub takes
H
expect "hook: GRUB_DEFAULT=0: nothing done, exit 0" 0
is "hook: ... no entry set" "$(cat "$env" 2>/dev/null)" ""
echo 'GRUB_DEFAULT=saved' >"$g/default/grub.d/50-triage.cfg"
# a fragment update-grub accepts that names an unset variable, and one
# that fails a command: under set -u / set -e sourcing them stops a hook
printf '%s\n' 'GRUB_CMDLINE_LINUX_DEFAULT="$GRUB_CMDLINE_LINUX_DEFAULT $SITE_EXTRA_ARGS"' \
	'[ -n "$SITE_SERIAL" ] && GRUB_TERMINAL=serial' >"$g/default/grub.d/60-site.cfg"
H --dry-run
expect "hook: a grub.d fragment naming an unset variable: exit 0, and it still reads GRUB_DEFAULT=saved" 0 \
	"would run: grub-reboot '$ID41' \\(a trial boot of 6.12.41-triage"
is "hook: --dry-run sets nothing" "$(cat "$env" 2>/dev/null)" ""
echo 'exit 3' >"$g/default/grub.d/70-broken.cfg"
H --dry-run
expect "hook: a fragment that exits: exit 0" 0
rm -f "$g/default/grub.d/70-broken.cfg"

# --- a trial boot, not a pinned default
: >"$t/calls"
H
expect "hook: a new triage kernel: a trial boot (grub-reboot) by its entry's id, exit 0" 0 \
	"the next boot tries 6.12.41-triage once \\($ID41\\)"
is "hook: ... next_entry is the kernel's id path (submenu id > entry id), not a title" "$(envval next_entry)" "$ID41"
is "hook: ... with no saved default, the running kernel is saved first (GRUB's first entry may be the new kernel)" \
	"$(envval saved_entry)" "gnulinux-advanced-0f2b>gnulinux-6.12.48+deb13-amd64-advanced-0f2b"
grep '^grub-set-default' "$t/calls" | grep -q triage && nok "hook: ... the triage kernel not made the default" "$(cat "$t/calls")" ||
	ok "hook: ... the triage kernel not made the default"
is "hook: ... the trial is recorded for check-boot" "$(cat "$g/state/trial" 2>/dev/null)" "6.12.41-triage $ID41"

# Debian's newer kernel arrives while the trial is pending: its postinst
# runs the hook (run-parts' arguments: release, image); nothing changes
touch "$boot/vmlinuz-6.12.57+deb13-amd64"; echo '# CONFIG_SECURITY_TRIAGE is not set' >"$boot/config-6.12.57+deb13-amd64"
english 6.12.57+deb13-amd64 6.12.48+deb13-amd64 6.12.41-triage 6.12.9-triage
mkdir -p "$t/postinst.d" "$t/postrm.d"
ln -sf "$tg" "$t/postinst.d/zzz-triage-grub-default"
ln -sf "$tg" "$t/postrm.d/zzz-triage-grub-default"
DEB_MAINT_PARAMS="'configure' '6.12.57+deb13-amd64'" r "$t/postinst.d/zzz-triage-grub-default" 6.12.57+deb13-amd64 /boot/vmlinuz-6.12.57+deb13-amd64
expect "hook as /etc/kernel/postinst.d/zzz-triage-grub-default (Debian's kernel configured): exit 0" 0
is "hook: ... the trial of the triage kernel stays the next boot" "$(envval next_entry)" "$ID41"

# --- the trial boot's judge
TRIAGE_RELEASE=6.12.41-triage CB --dry-run
expect "check-boot --dry-run: healthy, says what it would pin" 0 "healthy: would run: grub-set-default '$ID41'"
TRIAGE_RELEASE=6.12.41-triage CB
expect "check-boot: the trial kernel runs, triage in the LSM list, policy loaded, network up, ssh up: pinned, exit 0" 0 \
	"came up healthy" "GRUB's default is now $ID41"
is "check-boot: ... saved_entry is the kernel's id path" "$(envval saved_entry)" "$ID41"
is "check-boot: ... next_entry cleared (GRUB cannot where /boot is on LVM or RAID)" "$(envval next_entry)" ""
[ ! -e "$g/state/trial" ] && ok "check-boot: ... no trial pending any more" || nok "check-boot: ... no trial pending any more"
CB
expect "check-boot: no trial pending: nothing, exit 0" 0 'no trial boot pending'
: >"$t/calls"
H
expect "hook: run again: already the default, nothing run" 0
grep -qE '^grub-(set-default|reboot)' "$t/calls" && nok "hook: ... neither grub-set-default nor grub-reboot" "$(cat "$t/calls")" ||
	ok "hook: ... neither grub-set-default nor grub-reboot"

# --- a new triage kernel that does not come up
printf 'CONFIG_SECURITY_TRIAGE=y\n' >"$boot/config-6.12.57-triage"; echo "image 57" >"$boot/vmlinuz-6.12.57-triage"
english 6.12.57+deb13-amd64 6.12.57-triage 6.12.48+deb13-amd64 6.12.41-triage 6.12.9-triage
DEB_MAINT_PARAMS="'configure' '6.12.57-triage'" r "$t/postinst.d/zzz-triage-grub-default" 6.12.57-triage
is "hook: a newer triage kernel: its trial is the next boot" "$(envval next_entry)" "$ID57"
is "hook: ... the default stays the triage kernel that works" "$(envval saved_entry)" "$ID41"
TRIAGE_RELEASE=6.12.41-triage CB
expect "check-boot: the old kernel runs (the trial kernel panicked and was reset): failed, exit 1" 1 \
	'the trial kernel 6.12.57-triage did not come up: 6.12.41-triage runs' "stays '$ID41'"
is "check-boot: ... the default is still the old kernel" "$(envval saved_entry)" "$ID41"
is "check-boot: ... next_entry cleared" "$(envval next_entry)" ""
[ ! -e "$t/rebooted" ] && ok "check-boot: ... no reboot (the old kernel runs)" || nok "check-boot: ... no reboot (the old kernel runs)"
H
expect "hook: a kernel that failed its trial is not tried again, exit 0" 0 \
	'6.12.57-triage failed its trial boot .*did not come up.*--retry tries it again'
is "hook: ... no next_entry" "$(envval next_entry)" ""
H --retry
is "hook --retry: the trial again" "$(envval next_entry)" "$ID57"

# unhealthy trial boots, each their own reason
trial_fails() { # DESCRIPTION PATTERN REBOOT(yes/no)
	TRIAGE_RELEASE=6.12.57-triage CB
	expect "check-boot: $1: not pinned, exit 1" 1 "$2" "stays '$ID41'"
	is "check-boot: ... $1: the default stays the old kernel" "$(envval saved_entry)" "$ID41"
	if [ "$3" = yes ]; then
		[ -e "$t/rebooted" ] && ok "check-boot: ... $1: reboots into the old kernel" ||
			nok "check-boot: ... $1: reboots into the old kernel" "$last_out"
	else
		[ ! -e "$t/rebooted" ] && ok "check-boot: ... $1: no reboot" || nok "check-boot: ... $1: no reboot" "$last_out"
	fi
	healthy
	H --retry >/dev/null
}
echo 'lockdown,capability,landlock,yama,apparmor,bpf' >"$g/sec/lsm"
trial_fails "triage not in the LSM list" "triage is not in $g/sec/lsm" no
echo 'policy_generation 0' >"$g/sec/triage/stats"
echo triage-policy.service >"$t/sys/failed"
trial_fails "no policy loaded, triage-policy.service failed" 'no triage policy loaded.*triage-policy.service failed' no
echo systemd-networkd-wait-online.service >"$t/sys/failed"
trial_fails "the network did not come up (wait-online failed)" 'systemd-networkd-wait-online.service failed' yes
echo ssh.service >"$t/sys/enabled"; echo network-online.target >"$t/sys/active"
trial_fails "ssh.service enabled and not running" 'ssh.service is enabled and not running' yes
printf '%s\n' network-online.target ssh.service >"$t/sys/active"; printf '%s\n' ssh.service ssh.socket >"$t/sys/enabled"
trial_fails "ssh.socket enabled (Debian 13's socket activation) and not listening" 'ssh.socket is enabled and not running' yes
echo network-online.target >"$t/sys/active"; : >"$t/sys/enabled"
: >"$t/sys/active"
echo 'TRIAGE_TRIAL_REBOOT=no' >"$g/default/grub.d/80-trial.cfg"
trial_fails "network-online.target not reached, TRIAGE_TRIAL_REBOOT=no" 'network-online.target not reached' no
echo 'TRIAGE_TRIAL_REBOOT=yes' >"$g/default/grub.d/80-trial.cfg"
echo 'policy_generation 0' >"$g/sec/triage/stats"
trial_fails "no policy loaded, TRIAGE_TRIAL_REBOOT=yes" 'no triage policy loaded' yes
rm -f "$g/default/grub.d/80-trial.cfg"
mv "$g/etc/policy" "$g/etc/policy.away"
echo 'policy_generation 0' >"$g/sec/triage/stats"
TRIAGE_RELEASE=6.12.57-triage CB
expect "check-boot: no /etc/triage/policy: no policy needed; healthy, pinned" 0 "GRUB's default is now $ID57"
mv "$g/etc/policy.away" "$g/etc/policy"
healthy

# --- proven kernels, the switches
sed -i "s/^saved_entry=.*/saved_entry=Advanced options for Debian GNU\/Linux>Debian GNU\/Linux, with Linux 6.12.57-triage/" "$env"
rm -f "$g/state"/verdict-*
H
expect "hook: the kernel saved by its English title (an older hook): pinned by id, no trial" 0 \
	"GRUB's default is now 6.12.57-triage \\($ID57, it was the saved default by its title"
is "hook: ... saved_entry is the id path" "$(envval saved_entry)" "$ID57"
sed -i '/^saved_entry=/d' "$env"
TRIAGE_RELEASE=6.12.57-triage H
expect "hook: the newest triage kernel runs now with triage: pinned at once" 0 'it runs now, with triage'
sed -i '/^saved_entry=/d' "$env"
echo 'TRIAGE_TRIAL_BOOT=no' >>"$g/default/grub"
H
expect "hook: TRIAGE_TRIAL_BOOT=no: grub-set-default at once" 0 "GRUB's default is now 6.12.57-triage .*TRIAGE_TRIAL_BOOT=no"
sed -i '/TRIAGE_TRIAL_BOOT/d' "$g/default/grub"
echo 'TRIAGE_GRUB_DEFAULT=no' >>"$g/default/grub"
H --dry-run
expect "hook: TRIAGE_GRUB_DEFAULT=no: nothing" 0 'TRIAGE_GRUB_DEFAULT=no: nothing to do' '!would run'
sed -i '/TRIAGE_GRUB_DEFAULT/d' "$g/default/grub"

# --- entries by id, whatever the titles say
sed -i '/^saved_entry=/d' "$env"; rm -f "$g/state"/verdict-* "$g/state/trial"
grubcfg "Debian GNU/Linux" /boot "Erweiterte Optionen für" "mit Linux" "Wiederherstellungsmodus" \
	6.12.57+deb13-amd64 6.12.57-triage 6.12.41-triage >"$boot/grub/grub.cfg"
H
is "hook: German titles (LANG=de_DE at update-grub): found by id" "$(envval next_entry)" "$ID57"
grubcfg "Dan's Debian" "" "Advanced options for" "with Linux" "recovery mode" \
	6.12.57+deb13-amd64 6.12.57-triage >"$boot/grub/grub.cfg"
sed -i '/^next_entry=/d' "$env"
H
is "hook: /boot a partition of its own, a quote in the distributor's name" "$(envval next_entry)" "$ID57"
# GRUB_DISABLE_SUBMENU=y: every kernel at the top level
sed -i -e '/^submenu/d' -e 's/^\tmenuentry/menuentry/' "$boot/grub/grub.cfg"
sed -i '/^next_entry=/d' "$env"
H
is "hook: GRUB_DISABLE_SUBMENU=y: the top-level entry's id" "$(envval next_entry)" "gnulinux-6.12.57-triage-advanced-0f2b"
# the first ("simple") entry loads the triage kernel: not it, its id names no kernel
sed -i '/^next_entry=/d' "$env"
grubcfg "Debian GNU/Linux" /boot "Advanced options for" "with Linux" "recovery mode" 6.12.57-triage >"$boot/grub/grub.cfg"
sed -i '/^submenu/,$d' "$boot/grub/grub.cfg"
H
expect "hook: only the simple first entry loads the kernel: a warning (run update-grub), exit 0" 0 \
	'warning: no menu entry with the id gnulinux-6.12.57-triage-advanced-... .*run update-grub'
is "hook: ... nothing set" "$(envval next_entry)" ""

# --- failures warn and exit 0
english 6.12.57+deb13-amd64 6.12.57-triage 6.12.41-triage
printf 'CONFIG_SECURITY_TRIAGE=y\n' >"$boot/config-6.12.60-triage"; touch "$boot/vmlinuz-6.12.60-triage"
H
expect "hook: update-grub has not seen the newest triage kernel: a warning, exit 0" 0 \
	"no menu entry .*loads $boot/vmlinuz-6.12.60-triage"
rm -f "$boot/config-6.12.60-triage" "$boot/vmlinuz-6.12.60-triage"
mv "$boot/grub/grub.cfg" "$boot/grub/grub.cfg.away"
H
expect "hook: no grub.cfg: a warning, exit 0" 0 "no $boot/grub/grub.cfg"
mv "$boot/grub/grub.cfg.away" "$boot/grub/grub.cfg"
echo 'TRIAGE_TRIAL_BOOT=no' >>"$g/default/grub"
touch "$t/set-default-fails"
H
expect "hook: grub-set-default fails: a warning, exit 0" 0 "grub-set-default '$ID57' failed: GRUB's default left alone"
rm -f "$t/set-default-fails"
sed -i '/TRIAGE_TRIAL_BOOT/d' "$g/default/grub"
: >"$t/calls"
DEB_MAINT_PARAMS="'upgrade' '6.12.57-triage'" r "$t/postrm.d/zzz-triage-grub-default" 6.12.57-triage
expect "hook: postrm upgrade (not remove): nothing, exit 0" 0 '!.'
mv "$bin/triagectl" "$bin/triagectl.gone"
DEB_MAINT_PARAMS="'configure' '6.12.57-triage'" r "$t/postinst.d/zzz-triage-grub-default" 6.12.57-triage
expect "hook: triagectl removed, its conffile hook left: nothing, silently" 0 '!.'
mv "$bin/triagectl.gone" "$bin/triagectl"

# --- Secure Boot: only an image signed by an enrolled key
sed -i '/_entry=/d' "$env"; rm -f "$g/state"/verdict-* "$g/state/trial"
for c in site other; do
	openssl req -new -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 \
		-subj "/CN=triage test $c/" -keyout "$t/$c.key" -out "$t/$c.crt" 2>/dev/null
	openssl x509 -in "$t/$c.crt" -outform DER -out "$t/$c.der"
done
fp() { sha256sum "$t/$1.der" | cut -c1-64; }
# u32le N: 4 bytes, little-endian
u32le() {
	# shellcheck disable=SC2059
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"
}
# esl DER...: EFI_SIGNATURE_LISTs: a SHA-256 list first (skipped), then one X.509 list per DER
esl() {
	printf '\046\026\304\301\114\120\222\100\254\251\101\371\066\223\103\050'	# EFI_CERT_SHA256_GUID
	u32le $((28 + 48)); u32le 0; u32le 48; head -c 48 /dev/zero
	local d s
	for d; do
		s=$(stat -c %s "$d")
		printf '\241\131\300\245\344\224\247\112\207\265\253\025\134\053\360\162'	# EFI_CERT_X509_GUID
		u32le $((28 + 16 + s)); u32le 0; u32le $((16 + s)); head -c 16 /dev/zero; cat "$d"
	done
}
sbvar=$g/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c
printf '\006\000\000\000\001' >"$sbvar"
r "$tg" sb-state
expect "sb-state: SecureBoot efivar 1: enabled" 0 '^enabled$'
echo "image 57" >"$boot/vmlinuz-6.12.57-triage"
H
expect "hook: Secure Boot on, the image unsigned: a warning, the old default kept, exit 0" 0 \
	"Secure Boot is on and .*vmlinuz-6.12.57-triage is not signed by any of the .* certificates|no enrolled certificate found" \
	"GRUB's default left alone"
is "hook: ... no trial boot" "$(envval next_entry)" ""
printf 'image 57\nSIGNED-BY %s\n' "$(fp other)" >"$boot/vmlinuz-6.12.57-triage"
{ printf '\007\000\000\000'; esl "$t/site.der"; } >"$g/efivars/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f"
H
expect "hook: signed by a key that is not enrolled (db has another): not booted" 0 'is not signed by any of the 1 certificates'
is "hook: ... no trial boot" "$(envval next_entry)" ""
printf 'image 57\nSIGNED-BY %s\n' "$(fp site)" >"$boot/vmlinuz-6.12.57-triage"
H
expect "hook: signed by a certificate in db (efivars, after a SHA-256 list): the trial boot" 0 'the next boot tries 6.12.57-triage'
is "hook: ... next_entry" "$(envval next_entry)" "$ID57"
sed -i '/_entry=/d' "$env"; rm -f "$g/state/trial"
rm -f "$g/efivars/db-"*
esl "$t/other.der" "$t/site.der" >"$g/mokvars/MokListRT"
r "$tg" verify-image "$boot/vmlinuz-6.12.57-triage"
expect "verify-image: signed by the second certificate of shim's MokListRT (mok-variables): exit 0" 0 'signed by an enrolled key \(mok-2\)'
rm -f "$g/mokvars/MokListRT"
mkdir -p "$t/mok"; cp "$t/site.der" "$t/mok/"
r "$tg" verify-image "$boot/vmlinuz-6.12.57-triage"
expect "verify-image: signed by a MOK that mokutil --export gives: exit 0" 0 'signed by an enrolled key \(MOK-0001\)'
rm -rf "$t/mok"
r "$tg" verify-image "$boot/vmlinuz-6.12.57-triage"
expect "verify-image: Secure Boot on, nothing enrolled: exit 1" 1 'no enrolled certificate found'
TRIAGE_SBVERIFY=sbverify-not-installed H
expect "hook: Secure Boot on and no sbverify: a warning, nothing set, exit 0" 0 'sbverify is not installed'
is "hook: ... no trial boot" "$(envval next_entry)" ""
# a linux-image .deb, as the role checks it before installing
mkdir -p "$t/pkg/boot" "$t/pkg/DEBIAN"
printf 'image\nSIGNED-BY %s\n' "$(fp site)" >"$t/pkg/boot/vmlinuz-6.12.57-triage"
printf 'Package: linux-image-6.12.57-triage\nVersion: 6.12.57-1+triage.g1\nArchitecture: amd64\nMaintainer: t <t@example.org>\nDescription: test\n' \
	>"$t/pkg/DEBIAN/control"
dpkg-deb --root-owner-group -b "$t/pkg" "$t/k.deb" >/dev/null
r "$tg" verify-deb "$t/k.deb"
expect "verify-deb: Secure Boot on, nothing enrolled: refused, exit 1" 1 'k.deb: vmlinuz-6.12.57-triage'
{ printf '\007\000\000\000'; esl "$t/site.der"; } >"$g/efivars/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f"
r "$tg" verify-deb "$t/k.deb"
expect "verify-deb: its image signed by the enrolled key: exit 0" 0 'signed by an enrolled key'
printf '\006\000\000\000\000' >"$sbvar"
r "$tg" verify-deb "$t/k.deb"
expect "verify-deb: Secure Boot off: any image boots, exit 0" 0 'Secure Boot is disabled'
r "$tg" verify-deb --always "$t/k.deb"
expect "verify-deb --always: checks even with Secure Boot off" 0 'signed by an enrolled key'
rm -f "$sbvar"
echo "SecureBoot enabled" >"$t/sb-state"
r "$tg" sb-state
expect "sb-state: no efivar: mokutil --sb-state" 0 '^enabled$'
rm -f "$t/sb-state"
r "$tg" sb-state
expect "sb-state: no EFI: unsupported" 0 '^unsupported$'

# --- the unit
unit=$top/deploy/grub/triage-boot-check.service
if grep -qx 'ExecStart=/usr/sbin/triage-grub check-boot' "$unit" &&
   grep -qx 'ConditionPathExists=/var/lib/triage/grub/trial' "$unit" &&
   grep -q '^After=.*network-online.target' "$unit" && grep -q '^After=.*triage-policy.service' "$unit"; then
	ok "triage-boot-check.service: runs check-boot after network-online and the policy, only with a trial pending"
else
	nok "triage-boot-check.service: runs check-boot after network-online and the policy, only with a trial pending" "$(cat "$unit")"
fi
if command -v systemd-analyze >/dev/null; then
	r systemd-analyze verify --man=no "$unit"
	# the ExecStart binary is not installed here
	last_out=$(grep -v 'triage-grub\|ssh.service\|triage-policy.service' <<<"$last_out")
	[ -z "$last_out" ] && ok "triage-boot-check.service: systemd-analyze verify finds nothing else" ||
		nok "triage-boot-check.service: systemd-analyze verify finds nothing else" "$last_out"
fi

echo "1..$n"
[ "$failed" = 0 ]
