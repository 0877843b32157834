#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of deploy/ansible's role without a server:
#   - every true/false setting goes through | bool wherever the role reads
#     it (an -e triage_enforce=false is the string "false", which Jinja
#     takes as true);
#   - ansible-playbook --syntax-check and ansible-lint (its production
#     profile), where Debian's ansible and ansible-lint are installed;
#   - the role in --check mode against this host (a Debian 12 or 13 amd64
#     build machine, connection local; --check changes nothing and the
#     read-only questions it asks change nothing either), with the =false
#     forms of the flags as -e strings and a .deb directory that holds two
#     kernel builds: the newest is the one it would copy, none with
#     triage_install_kernel=false, no reboot with triage_reboot=false;
#     and with --tags policy.
# Without ansible-playbook they are one skipped point (TAP "# SKIP",
# which tests/unit/skips must allow).  TAP
# output; run by tests/unit/test-kernel-update.sh (make -C tests/unit
# check), or alone: tests/unit/test-ansible-role.sh [-v]
# shellcheck disable=SC2015
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
role=$top/deploy/ansible/roles/triage
verbose=
[ "${1:-}" = -v ] && verbose=1
t=$(mktemp -d /tmp/test-ansible-role.XXXXXX)
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
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

# --- every flag through | bool
flags="triage_install_kernel triage_grub_saved_default triage_reboot triage_enforce triage_pressured triage_collect"
bad=$(for f in $flags; do
	grep -nE "\\b$f\\b" "$role"/tasks/*.yml "$role"/handlers/*.yml |
		grep -vE "^[^:]*:[0-9]+:[[:space:]]*#" | grep -vE "\\b$f \\| bool\\b" | sed "s|^$top/||"
done)
[ -z "$bad" ] && ok "the role reads every flag through | bool ($flags)" ||
	nok "the role reads every flag through | bool ($flags)" "$bad"
grep -q triage_secure_boot_ok "$role"/tasks/*.yml "$role"/defaults/*.yml &&
	nok "no triage_secure_boot_ok: the role checks the kernel's signature instead of trusting a flag" ||
	ok "no triage_secure_boot_ok: the role checks the kernel's signature instead of trusting a flag"
[ -x "$role/files/triage-grub" ] && cmp -s "$role/files/triage-grub" "$top/deploy/grub/triage-grub" &&
	ok "the role's files/triage-grub is deploy/grub/triage-grub" ||
	nok "the role's files/triage-grub is deploy/grub/triage-grub"

# one point each when the tools or the host are not there: a skip that
# tests/unit/skips must name ("test-kernel-update.sh test-ansible-role.sh:
# the role under ansible-playbook: ...")
if ! command -v ansible-playbook >/dev/null; then
	skip "the role under ansible-playbook" "no ansible-playbook (apt-get install --no-install-recommends ansible ansible-lint)"
	echo "1..$n"
	[ "$failed" = 0 ]
	exit
fi
cd "$top/deploy/ansible" || exit 1
export ANSIBLE_CONFIG=$top/deploy/ansible/ansible.cfg ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 \
	ANSIBLE_LOCAL_TEMP=$t/ansible-local ANSIBLE_RETRY_FILES_ENABLED=0

out=$(ansible-playbook -i inventory.example.ini --syntax-check site.yml 2>&1) &&
	ok "ansible-playbook --syntax-check site.yml" || nok "ansible-playbook --syntax-check site.yml" "$out"
if command -v ansible-lint >/dev/null; then
	out=$(HOME=$t ansible-lint --nocolor -p 2>&1) && ok "ansible-lint (production profile) finds nothing" ||
		nok "ansible-lint (production profile) finds nothing" "$out"
else
	skip "ansible-lint" "no ansible-lint (apt-get install --no-install-recommends ansible-lint)"
fi

# --check against this host
case $(cut -d. -f1 /etc/debian_version 2>/dev/null):$(uname -m) in
12:x86_64|13:x86_64) ;;
*)	skip "the role in --check mode against this host" "this host is not Debian 12 or 13 on amd64"
	echo "1..$n"; [ "$failed" = 0 ]; exit ;;
esac
mkdir -p "$t/debs"
touch "$t/debs/triagectl_1.0_amd64.deb" "$t/debs/triage-selinux_1.0_all.deb" \
      "$t/debs/linux-image-6.12.9-triage_6.12.9-1+triage.g1_amd64.deb" \
      "$t/debs/linux-image-6.12.10-triage_6.12.10-1+triage.g2_amd64.deb" \
      "$t/debs/linux-image-6.12.10-triage-dbg_6.12.10-1+triage.g2_amd64.deb"
echo 'protect label=/usr/sbin/chronyd' >"$t/site.policy"
printf '[triage_servers]\nlocalhost ansible_connection=local\n' >"$t/inventory.ini"
# play PLAYBOOK-ARGS...: the role in --check mode against this host
play() {
	last_out=$(HOME=$t ansible-playbook -i "$t/inventory.ini" --check --diff \
		-e "triage_deb_dir=$t/debs" -e "triage_policy_src=$t/site.policy" \
		-e "triage_collect_dir=$t/collect" -e triage_remote_deb_dir="$t/remote" "$@" site.yml 2>&1)
	last_rc=$?
	[ -z "$verbose" ] || printf '%s\n' "$last_out" | sed 's/^/# | /'
}
# after TASK: the first result line after "TASK [triage : TASK...]"
after() { awk -v t="TASK [triage : $1" 'index($0, t) == 1 { f = 1; next } f && /^(ok|changed|skipping|fatal|failed)/ { print; exit }' <<<"$last_out"; }

play -e triage_enforce=false -e triage_reboot=false -e triage_install_kernel=true -e triage_pressured=false
if [ "$last_rc" = 0 ]; then ok "--check with -e ...=false strings: exit 0, nothing fails"
else nok "--check with -e ...=false strings: exit 0, nothing fails" "$(tail -n 40 <<<"$last_out")"; fi
grep -q "Put the site policy in place, mode permissive" <<<"$last_out" &&
	ok "--check: -e triage_enforce=false is permissive mode" ||
	nok "--check: -e triage_enforce=false is permissive mode" "$(grep 'site policy' <<<"$last_out")"
copied=$(awk '/^TASK \[triage : Copy the .debs\]/ { f = 1; next } f && /^TASK/ { exit } f' <<<"$last_out")
grep -q 'linux-image-6.12.10-triage_6.12.10-1+triage.g2_amd64.deb' <<<"$copied" &&
   ! grep -q 'linux-image-6.12.9-triage_' <<<"$copied" && ! grep -q -- '-dbg_' <<<"$copied" &&
	ok "--check: of two kernel builds the newest in Debian's order (6.12.10 > 6.12.9) is the one copied" ||
	nok "--check: of two kernel builds the newest in Debian's order (6.12.10 > 6.12.9) is the one copied" "$copied"
case $(after "Reboot into the triage kernel") in
skipping*) ok "--check: -e triage_reboot=false: no reboot" ;;
*) nok "--check: -e triage_reboot=false: no reboot" "$(after "Reboot into the triage kernel")" ;;
esac
play -e triage_install_kernel=false -e triage_reboot=no
copied=$(awk '/^TASK \[triage : Copy the .debs\]/ { f = 1; next } f && /^TASK/ { exit } f' <<<"$last_out")
[ "$last_rc" = 0 ] && ! grep -q 'linux-image' <<<"$copied" &&
	ok "--check: -e triage_install_kernel=false: no kernel .deb copied" ||
	nok "--check: -e triage_install_kernel=false: no kernel .deb copied" "$copied" "$(tail -n 20 <<<"$last_out")"
play --tags policy -e triage_enforce=true
if [ "$last_rc" = 0 ] && grep -q "Put the site policy in place, mode enforce" <<<"$last_out" &&
   ! grep -q 'TASK \[triage : Copy the .debs\]' <<<"$last_out"; then
	ok "--check --tags policy: the policy tasks with the facts they need, nothing else"
else
	nok "--check --tags policy: the policy tasks with the facts they need, nothing else" "$(grep -E '^(TASK|fatal)' <<<"$last_out")"
fi

echo "1..$n"
[ "$failed" = 0 ]
