#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# docs/deploying.md's shell blocks, as an admin pastes them: each parses
# (bash -n); a reboot is a block of its own, never a line in the middle of
# one; a checking block ( ... ) says STOP: on every failure it tests and
# OK: at its end; no placeholder (PID, SPEC, LIST, HOST, 6.12.N, ...) is
# left for the admin to fill in outside comments; one install block per
# case (AppArmor or SELinux, Secure Boot off or on); the AppArmor rollback
# purges no package an AppArmor server does not have (triage-selinux).
# TAP output; run by tests/unit/test-kernel-update.sh (make -C tests/unit
# check), or alone: tests/unit/test-deploying-doc.sh
# shellcheck disable=SC2015,SC2016
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
doc=$top/docs/deploying.md
t=$(mktemp -d /tmp/test-deploying-doc.XXXXXX)
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

# the ```sh blocks, one file each, and the heading each is under
awk -v d="$t" '
	/^#+ / { head = $0 }
	/^```sh$/ { b++; f = sprintf("%s/block%02d", d, b); print head >(f ".head"); inb = 1; next }
	/^```$/ && inb { inb = 0; close(f); next }
	inb { print >f }' "$doc"
blocks=("$t"/block[0-9][0-9])
[ ${#blocks[@]} -ge 10 ] && ok "docs/deploying.md has its shell blocks (${#blocks[@]})" ||
	nok "docs/deploying.md has its shell blocks (${#blocks[@]})"

bad_parse='' bad_reboot='' bad_stop='' bad_ph=''
for b in "${blocks[@]}"; do
	name="${b##*/} ($(cat "$b.head"))"
	bash -n "$b" 2>"$t/err" || bad_parse+="$name: $(cat "$t/err")"$'\n'
	# code without comments
	sed -e 's/^[[:space:]]*#.*//' -e 's/[[:space:]]#[[:space:]].*//' "$b" | grep -v '^[[:space:]]*$' >"$b.code"
	# a command, not a word in a message
	if sed 's/"[^"]*"//g' "$b.code" | grep -qE '(^|[;&|[:space:]])(systemctl[[:space:]]+)?reboot([[:space:]]|;|$)' &&
	   [ "$(cat "$b.code")" != "systemctl reboot" ]; then
		bad_reboot+="$name"$'\n'
	fi
	if [ "$(head -n 1 "$b.code")" = "(" ]; then
		fails=$(grep -c 'fail "' "$b.code")
		grep -q '^fail() { echo "STOP: \$\*"; exit 1; }$' "$b.code" && grep -q 'echo "OK: ' "$b.code" &&
			[ "$fails" -ge 2 ] && [ "$(tail -n 1 "$b.code")" = ")" ] || bad_stop+="$name"$'\n'
	fi
	grep -nE '(^|[^A-Za-z_$])(PID|SPEC|LIST|HOST|HOSTNAME|FILE|DIR|VERSION|RELEASE|KERNEL|USER)([^A-Za-z_]|$)|6\.12\.N|<[a-z-]+>' "$b.code" |
		grep -v 'TRIAGE_[A-Z_]*' | sed "s|^|$name: |" >>"$t/ph"
done
bad_ph=$(cat "$t/ph" 2>/dev/null)
[ -z "$bad_parse" ] && ok "every block parses (bash -n)" || nok "every block parses (bash -n)" "$bad_parse"
[ -z "$bad_reboot" ] && ok "a reboot is a block of its own, never inside another" || nok "a reboot is a block of its own, never inside another" "$bad_reboot"
[ -z "$bad_stop" ] && ok "every ( ... ) block: fail() says STOP:, tests at least twice, ends with OK: and )" ||
	nok "every ( ... ) block: fail() says STOP:, tests at least twice, ends with OK: and )" "$bad_stop"
[ -z "$bad_ph" ] && ok "no placeholder outside comments (PID, SPEC, LIST, 6.12.N, <name>, ...)" ||
	nok "no placeholder outside comments (PID, SPEC, LIST, 6.12.N, <name>, ...)" "$bad_ph"

# one install block per case
for c in "AppArmor, Secure Boot off" "AppArmor, Secure Boot on" "SELinux, Secure Boot off" "SELinux, Secure Boot on"; do
	m=$(grep -lx "### $c" "$t"/block*.head | wc -l)
	[ "$m" -ge 1 ] && ok "a block for '$c'" || nok "a block for '$c'"
done
# the install blocks: the kernel after triagectl, its trial checked
for h in "$t"/block*.head; do
	grep -q '^### \(AppArmor\|SELinux\), Secure Boot' "$h" || continue
	b=${h%.head}
	grep -q 'apt-get install -y "./$k"' "$b" || continue
	l_ctl=$(grep -n 'triagectl_\*_amd64.deb' "$b" | head -n 1 | cut -d: -f1)
	l_k=$(grep -n 'apt-get install -y "./$k"' "$b" | cut -d: -f1)
	[ -n "$l_ctl" ] && [ "$l_ctl" -lt "$l_k" ] && grep -q 'next_entry=.*-triage-advanced-' "$b" &&
		ok "$(sed 's/^### //' "$h"): triagectl (its hook) before the kernel, the trial boot checked" ||
		nok "$(sed 's/^### //' "$h"): triagectl (its hook) before the kernel, the trial boot checked"
	case $(cat "$h") in
	*"Secure Boot on"*) grep -q 'triage-grub verify-deb' "$b" && ok "$(sed 's/^### //' "$h"): the kernel's signature checked first" ||
		nok "$(sed 's/^### //' "$h"): the kernel's signature checked first" ;;
	esac
	case $(cat "$h") in
	*AppArmor*) ! grep -q triage-selinux "$b" && ok "$(sed 's/^### //' "$h"): no triage-selinux" ||
		nok "$(sed 's/^### //' "$h"): no triage-selinux" ;;
	esac
done
# the rollbacks' purge
# block_after PATTERN: the first block after the line matching PATTERN
block_after() { awk -v p="$1" '$0 ~ p { f = 1 } f && /^```sh$/ { g = 1; next } g && /^```$/ { exit } g' "$doc"; }
ap=$(block_after '[Oo]n an [*][*]AppArmor[*][*] server')
se=$(block_after '[Oo]n an [*][*]SELinux[*][*] server')
grep -q 'apt-get purge' <<<"$ap" && ! grep -q 'triage-selinux' <<<"$ap" &&
	ok "the AppArmor rollback purges no triage-selinux (not installed there)" ||
	nok "the AppArmor rollback purges no triage-selinux (not installed there)" "$ap"
grep -q 'apt-get purge' <<<"$se" && grep -q 'triage-selinux' <<<"$se" &&
	ok "the SELinux rollback purges triage-selinux" || nok "the SELinux rollback purges triage-selinux" "$se"
# the purge names only what dpkg says is there: run it with a fake dpkg-query
mkdir -p "$t/bin"
cat >"$t/bin/dpkg-query" <<'EOF'
#!/bin/sh
# an AppArmor server: triagectl and one triage kernel installed, an older
# one removed with its config left; never triage-selinux
for a; do
	case $a in
	triagectl) echo 'ii  triagectl' ;;
	'linux-image-*-triage') echo 'ii  linux-image-6.12.57-triage'; echo 'rc  linux-image-6.12.41-triage' ;;
	esac
done
exit 0
EOF
chmod +x "$t/bin/dpkg-query"
line=$(grep -m1 'p=$(dpkg-query' <<<"$ap")
got=$(PATH=$t/bin:$PATH bash -c "$line; echo \"\$p\"" 2>&1 | tr '\n' ' ')
[ "$got" = "triagectl linux-image-6.12.57-triage linux-image-6.12.41-triage " ] &&
	ok "the AppArmor rollback's purge list: what dpkg has installed (or left configured), nothing else" ||
	nok "the AppArmor rollback's purge list: what dpkg has installed (or left configured), nothing else" "got: $got"

# the lsm= check of the install blocks, against fake /etc/default/grub files
lsmcheck=$(grep -m1 "grep -oE '(^|\[ \"\])lsm=" "$doc" | sed 's/ &&$//')
mkdir -p "$t/etc/default/grub.d"
run_lsm() { (cd "$t" && bash -c "${lsmcheck//\/etc\/default/$t/etc/default}") && echo stop || echo go; }
printf 'GRUB_CMDLINE_LINUX_DEFAULT="quiet"\n#GRUB_CMDLINE_LINUX="lsm=apparmor"\n' >"$t/etc/default/grub"
[ "$(run_lsm)" = go ] && ok "install blocks: no lsm= (a commented one aside): go on" || nok "install blocks: no lsm= (a commented one aside): go on" "$lsmcheck"
echo 'GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX lsm=landlock,lockdown,yama,apparmor,bpf"' >"$t/etc/default/grub.d/60-lsm.cfg"
[ "$(run_lsm)" = stop ] && ok "install blocks: an lsm= without triage in grub.d: STOP" || nok "install blocks: an lsm= without triage in grub.d: STOP"
echo 'GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX lsm=landlock,lockdown,yama,apparmor,bpf,triage"' >"$t/etc/default/grub.d/60-lsm.cfg"
[ "$(run_lsm)" = go ] && ok "install blocks: an lsm= with triage: go on" || nok "install blocks: an lsm= with triage: go on"

echo "1..$n"
[ "$failed" = 0 ]
