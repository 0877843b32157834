#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of the kernel-update tools, without a kernel build:
#   scripts/triage-kernel-update     versions and suites, decisions, settings,
#                                    dry run, a (fake) build's progress and
#                                    exit codes, patches without fuzz, the
#                                    boot test, pruning, the failure alert
#   tests/unit/test-*.sh              the other shell tests (test-grub.sh:
#                                    deploy/grub/triage-grub, the GRUB hook
#                                    and the trial boot), run from here
# apt-cache, apt-get, dpkg-query, make, mokutil, sbverify, journalctl and
# sendmail are fakes (first in PATH) that read their answers from
# files of the test directory and log their calls; dpkg (its version
# comparison) and dpkg-deb are the real ones.  TAP output; run by
# make -C tests/unit check.
#   tests/unit/test-kernel-update.sh [-v]     -v: every command's output
# (The fakes' bodies are single-quoted on purpose; A && ok || nok reports.)
# shellcheck disable=SC2015,SC2016
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
ku=$top/scripts/triage-kernel-update
verbose=
[ "${1:-}" = -v ] && verbose=1
t=$(mktemp -d /tmp/test-kernel-update.XXXXXX)
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
# output (stdout and stderr) has every PATTERN (grep -E); !PATTERN: has not
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
# r CMD...: run it, keep its exit code and output
r() {
	last_out=$("$@" 2>&1)
	last_rc=$?
	[ -z "$verbose" ] || printf '%s\n# exit %s\n' "$last_out" "$last_rc" | sed 's/^/# | /'
}

# --- the fakes
path0=$PATH
bin=$t/bin
mkdir -p "$bin" "$t/calls"
fake() { # NAME BODY
	printf '#!/bin/bash\necho "$(basename "$0") $*" >>%s/calls/all\n%s\n' "$t" "$2" >"$bin/$1"
	chmod +x "$bin/$1"
}
fake apt-cache 'cat '"$t"'/apt-policy'
# apt-get fails to install what apt-get-fails names: "source" or "deb"
fake apt-get '[ "$1" = update ] && exit 0; f=$(cat '"$t"'/apt-get-fails 2>/dev/null)
	case $f:${*: -1} in source:linux-config-6.12=*|deb:*.deb) exit 100 ;; esac; exit 0'
fake dpkg-query 'cat '"$t"'/dpkg-status 2>/dev/null'
fake mokutil 'cat '"$t"'/sb-state 2>/dev/null || echo "SecureBoot disabled"'
fake sbverify 'f=${@: -1}; grep -q SIGNED "$f" && echo "signature 1" && exit 0; echo "No signature table present"; exit 1'
# make kernel-deb: objects, then the packages of the version it is told
# (TEST_VERSION), slowly enough for progress lines; or it fails
fake make 'obj='"$t"'/build/obj/deb; [ "${TEST_DIST:-}" = trixie ] && obj='"$t"'/build/trixie/kernel/obj
	out='"$t"'/build/deb; [ "${TEST_DIST:-}" = trixie ] && out=$out/trixie
	mkdir -p "$obj/mm" "$out"
	# the patch that scripts/kernel-tree would find: a hunk that needs fuzz
	[ -e '"$t"'/fz/a.diff ] && { (cd '"$t"'/fz && patch -p1 --dry-run <a.diff); echo "rc=$?"; } >'"$t"'/fuzz-result 2>&1
	echo "  CC      mm/oom_kill.o"; touch "$obj/mm/oom_kill.o"; sleep 1.5
	echo "  CC      mm/page_alloc.o"; touch "$obj/mm/page_alloc.o"; sleep 0.5
	[ -e '"$t"'/make-fails ] && { echo "mm/oom_kill.c:1: error: boom"; exit 2; }
	touch "$out/linux-image-6.12.119-triage_${TEST_VERSION}_amd64.deb" \
	      "$out/linux-headers-6.12.119-triage_${TEST_VERSION}_amd64.deb"
	echo "kernel-deb: built"'
fake triagectl 'exit 0'
fake journalctl 'echo "triage-kernel-update: patch 0003-oom-chain.patch does not apply"; echo "triage-kernel-update: the build failed"'
export PATH=$bin:$PATH

policy() { # CANDIDATE: apt-cache policy as bookworm's apt prints it
	cat >"$t/apt-policy" <<EOF
linux-source-6.12:
  Installed: 6.12.117-1~deb12u1
  Candidate: $1
  Version table:
     $1 500
        500 http://mirror.example.org/debian-security bookworm-security/main amd64 Packages
 *** 6.12.117-1~deb12u1 500
        500 http://mirror.example.org/debian-security bookworm-security/main amd64 Packages
        100 /var/lib/dpkg/status
EOF
}
conf() { printf '%s\n' "REPO=$top" "BUILD=$t/build" "PROGRESS=1" "$@" >"$t/conf"; }
KU() { r "$ku" --config "$t/conf" --no-update "$@"; }
mkdir -p "$t/build/deb"
echo 'Module Size Used by' >"$t/vm.lsmod"
echo 'Module Size Used by' >"$t/server.lsmod"

# --- versions and the decision
policy 6.12.118-1~deb12u1
conf
KU --dry-run --from 6.12.118-1~deb12u1+triage.g3f2a1b7
expect "kernel-update: same linux-source-6.12 as the kernel's: up to date, exit 0" 0 \
	'newest linux-source-6.12 \(bookworm\): 6.12.118-1~deb12u1, from bookworm-security$' \
	'built from linux-source-6.12 6.12.118-1~deb12u1$' 'up to date: nothing to do' '!would run'
KU --dry-run --from 6.12.119-1~deb12u1+triage.g3f2a1b7
expect "kernel-update: a kernel newer than apt's newest (a local build): up to date" 0 'up to date'
KU --dry-run --from 6.12.99-1~deb12u1+triage.g3f2a1b7
expect "kernel-update: version order is Debian's, not the text's (6.12.118 > 6.12.99): due, exit 10" 10 \
	'6.12.118-1~deb12u1 is newer than 6.12.99-1~deb12u1: a rebuild is due'
KU --dry-run --from 6.12.118-1~deb12u0+triage.g3f2a1b7
expect "kernel-update: a Debian revision (~deb12u1 > ~deb12u0) is a new source: due" 10 'a rebuild is due'
KU --dry-run --from 6.12.118-1
expect "kernel-update: ~deb12u1 sorts before the plain revision: up to date" 0 'up to date'
KU --dry-run --from 6.12.117-1~deb12u1
expect "kernel-update: --from takes a plain Debian version too" 10 'built from linux-source-6.12 6.12.117-1~deb12u1$' \
	'a rebuild is due'

# --- the dry run says every command
conf "SIGN_KEY=$t/MOK.key" "SIGN_CERT=$t/MOK.crt" "LOCALMODCONFIG=$t/vm.lsmod" "OUTDIR=$t/fleet" "JOBS=2"
touch "$t/MOK.key" "$t/MOK.crt"
: >"$t/calls/all"
KU --dry-run --from 6.12.117-1~deb12u1+triage.g3f2a1b7.dirty.vm
expect "kernel-update: --dry-run: the source packages, make kernel-deb with the same list and key, the copy; exit 10" 10 \
	"would run: apt-get install -y --no-install-recommends linux-source-6.12=6.12.118-1~deb12u1 linux-config-6.12=6.12.118-1~deb12u1" \
	"would run: make -C $top kernel-deb DIST=bookworm LOCALMODCONFIG=$t/vm.lsmod SIGN_KEY=$t/MOK.key SIGN_CERT=$t/MOK.crt JOBS=2 BUILD=$t/build" \
	"would run: cp $t/build/deb/linux-\*_6.12.118-1~deb12u1\+triage.\*.deb $t/fleet/" \
	'dry run: nothing done \(exit 10' '!would run: apt-get install -y /'
if grep -qE '^(make|apt-get install|cp)' "$t/calls/all"; then
	nok "kernel-update: --dry-run runs nothing" "$(cat "$t/calls/all")"
else
	ok "kernel-update: --dry-run runs nothing (apt-cache policy only)"
fi

# --- the same settings as the kernel's
conf
KU --dry-run --from 6.12.117-1~deb12u1+triage.g3f2a1b7.vm
expect "kernel-update: a trimmed kernel (.vm) and no LOCALMODCONFIG: refused, exit 1" 1 \
	"the kernel was trimmed to the lsmod list 'vm', LOCALMODCONFIG names none" 'not rebuilding'
KU --dry-run --force --from 6.12.117-1~deb12u1+triage.g3f2a1b7.vm
expect "kernel-update: --force goes on, and says what differs" 10 "\(--force\) the kernel was trimmed"
conf "LOCALMODCONFIG=$t/server.lsmod"
KU --dry-run --from 6.12.117-1~deb12u1+triage.g3f2a1b7.dirty.vm
expect "kernel-update: another lsmod list than the kernel's: refused" 1 "trimmed to the lsmod list 'vm', LOCALMODCONFIG names $t/server.lsmod"
KU --dry-run --from 6.12.117-1~deb12u1+triage.g3f2a1b7.dirty
expect "kernel-update: a full-config kernel (.dirty, no list) and a LOCALMODCONFIG: refused" 1 \
	"the kernel has Debian's full config, LOCALMODCONFIG names"
KU --dry-run --from 6.12.117-1~deb12u1+triage.gunknown.server
expect "kernel-update: the list's name after a commit of 'unknown' (no git): the same list, due" 10 'a rebuild is due' '!trimmed'
conf "LOCALMODCONFIG=$t/none.lsmod"
KU --dry-run --from 6.12.117-1~deb12u1+triage.g3f2a1b7.none
expect "kernel-update: an unreadable LOCALMODCONFIG: refused" 1 "LOCALMODCONFIG=$t/none.lsmod: cannot read it"
conf "SIGN_KEY=$t/MOK.key"
KU --dry-run --from 6.12.117-1~deb12u1+triage.g3f2a1b7
expect "kernel-update: SIGN_KEY without SIGN_CERT: refused" 1 'SIGN_KEY and SIGN_CERT go together'

# the reference: the newest .deb built (no --from, INSTALL=no), its image signed or not
conf
mkdir -p "$t/pkg/boot"
echo "an image SIGNED by MOK" >"$t/pkg/boot/vmlinuz-6.12.117-triage"
mkdir -p "$t/pkg/DEBIAN"
printf 'Package: linux-image-6.12.117-triage\nVersion: 6.12.117-1~deb12u1+triage.g3f2a1b7\nArchitecture: amd64\nMaintainer: t <t@example.org>\nDescription: test\n' \
	>"$t/pkg/DEBIAN/control"
dpkg-deb --root-owner-group -b "$t/pkg" "$t/build/deb/linux-image-6.12.117-triage_6.12.117-1~deb12u1+triage.g3f2a1b7_amd64.deb" >/dev/null
touch "$t/build/deb/linux-image-6.12.99-triage_6.12.99-1~deb12u1+triage.g1111111_amd64.deb" \
      "$t/build/deb/linux-image-6.12.117-triage-dbg_6.12.118-1~deb12u1+triage.g3f2a1b7_amd64.deb"
KU --dry-run
expect "kernel-update: the reference is the newest .deb built (not the -dbg one), a signed image needs SIGN_KEY" 1 \
	'built linux-image-6.12.117-triage_6.12.117-1~deb12u1\+triage.g3f2a1b7_amd64.deb' \
	'carries a signed image: set SIGN_KEY and SIGN_CERT'
conf "SIGN_KEY=$t/MOK.key" "SIGN_CERT=$t/MOK.crt"
KU --dry-run
expect "kernel-update: ... and with the key: due" 10 'a rebuild is due' '!signed image'
rm -f "$t"/build/deb/*.deb

# INSTALL=yes: the reference is the newest installed triage kernel; Secure Boot
conf INSTALL=yes
printf '%s\n' 'installed 6.12.99-1~deb12u1+triage.g1111111 linux-image-6.12.99-triage' \
	'config-files 6.12.118-1~deb12u1+triage.g2222222 linux-image-6.12.118-triage' \
	'installed 6.12.117-1~deb12u1+triage.g3f2a1b7 linux-image-6.12.117-triage' >"$t/dpkg-status"
KU --dry-run
expect "kernel-update: INSTALL=yes: the newest installed triage kernel (not a removed one's config-files)" 10 \
	'installed linux-image-6.12.117-triage, 6.12.117-1~deb12u1\+triage.g3f2a1b7' \
	"would run: apt-get install -y $t/build/deb/linux-image-\*-triage_6.12.118-1~deb12u1\+triage.\*_amd64.deb"
echo "SecureBoot enabled" >"$t/sb-state"
KU --dry-run
expect "kernel-update: INSTALL=yes with Secure Boot on and no key: refused" 1 'Secure Boot is on here and no SIGN_KEY is set'
rm -f "$t/sb-state"
mkdir -p "$t/boot"
echo SIGNED >"$t/boot/vmlinuz-6.12.117-triage"
TRIAGE_BOOT=$t/boot KU --dry-run
expect "kernel-update: INSTALL=yes, the installed image signed, no key: refused" 1 \
	"$t/boot/vmlinuz-6.12.117-triage is signed: set SIGN_KEY"
: >"$t/dpkg-status"
KU --dry-run
expect "kernel-update: INSTALL=yes and no triage kernel installed: exit 1, says what to do" 1 \
	'no linux-image-\*-triage installed here'

# apt, the settings file, usage
conf
policy '(none)'
KU --dry-run --from 6.12.117-1~deb12u1
expect "kernel-update: apt knows no linux-source-6.12: exit 1" 1 'apt knows no linux-source-6.12'
policy 6.12.118-1~deb12u1
printf 'REPO=%s\nSIGN_KEYS=/x\n' "$top" >"$t/conf"
KU --dry-run --from 6.12.117-1~deb12u1
expect "kernel-update: an unknown setting: exit 1, with its line" 1 "conf:2: unknown setting SIGN_KEYS"
conf
KU --dry-run --frm x
expect "kernel-update: an unknown option: usage, exit 2" 2 "unknown argument '--frm'" 'usage:'
r "$ku" --config "$t/nonexistent" --no-update --dry-run
expect "kernel-update: --config FILE that is not there: exit 2" 2 'no such file'
conf DIST=sid
KU --dry-run
expect "kernel-update: DIST=sid: exit 2" 2 'DIST=sid: bookworm or trixie'

# the example settings of deploy/kernel-update, as shipped
r "$ku" --config "$top/deploy/kernel-update/kernel-update.conf" --dist bookworm --no-update --dry-run \
	--from 6.12.117-1~deb12u1+triage.g3f2a1b7
expect "kernel-update: deploy/kernel-update/kernel-update.conf is read (and --dist overrides its DIST)" 10 \
	"would run: make -C $top kernel-deb DIST=bookworm\$"
exec_start=$(sed -n 's/^ExecStart=//p' "$top/deploy/kernel-update/triage-kernel-update.service")
grep -q "ln -s CHECKOUT/scripts/triage-kernel-update ${exec_start%/*}/" "$top/deploy/kernel-update/triage-kernel-update.service" &&
	ok "kernel-update: the unit's ExecStart ($exec_start) is where its install note links the script" ||
	nok "kernel-update: the unit's ExecStart ($exec_start) is where its install note links the script"

# trixie: apt in the trixie environment (here: TRIAGE_KU_ENV_RUN empty), no source install
conf DIST=trixie
# trixie has 6.12.117, trixie-security 6.12.118
cat >"$t/apt-policy" <<EOF
linux-source-6.12:
  Installed: (none)
  Candidate: 6.12.118-1
  Version table:
     6.12.118-1 500
        500 http://mirror.example.org/debian-security trixie-security/main amd64 Packages
     6.12.117-1 500
        500 http://mirror.example.org/debian trixie/main amd64 Packages
EOF
TRIAGE_KU_ENV_RUN='' KU --dry-run --from 6.12.107-1+triage.gabcdef0
expect "kernel-update: DIST=trixie: the newest of trixie and trixie-security, named; make kernel-deb DIST=trixie fetches the source itself" 10 \
	'newest linux-source-6.12 \(trixie\): 6.12.118-1, from trixie-security$' "would run: make -C $top kernel-deb DIST=trixie" \
	'!linux-source-6.12=' '!would run: apt-get'
TRIAGE_KU_ENV_RUN='' KU --dry-run --from 6.12.117-1+triage.gabcdef0
expect "kernel-update: DIST=trixie: built from trixie's 6.12.117, trixie-security has 6.12.118: due" 10 'a rebuild is due'

# --- a (fake) build: progress, the packages, install, copy; failures
policy 6.12.118-1~deb12u1
conf INSTALL=yes "OUTDIR=$t/fleet"
echo 'installed 6.12.117-1~deb12u1+triage.g3f2a1b7 linux-image-6.12.117-triage' >"$t/dpkg-status"
: >"$t/calls/all"
# a hunk whose context moved by a line: GNU patch's default fuzz takes it
mkdir -p "$t/fz"
printf '%s\n' a b c d e f g >"$t/fz/x"
printf '%s\n' '--- a/x' '+++ b/x' '@@ -1,6 +1,6 @@' ' a' ' B' ' c' '-d' '+D' ' e' ' f' >"$t/fz/a.diff"
(cd "$t/fz" && patch -p1 --dry-run <a.diff >/dev/null 2>&1) && ok "kernel-update: (the test's hunk applies with patch's default fuzz)" ||
	nok "kernel-update: (the test's hunk applies with patch's default fuzz)"
TEST_VERSION=6.12.118-1~deb12u1+triage.g9999999 KU
expect "kernel-update: a build: progress lines, the new package installed and copied, exit 0" 0 \
	'min: [0-9]+ objects compiled; ' 'built in [0-9]+ min: linux-image-6.12.119-triage_6.12.118-1~deb12u1\+triage.g9999999_amd64.deb, from linux-source-6.12 6.12.118-1~deb12u1 \(bookworm-security\)' \
	"copied to $t/fleet: linux-headers-.*linux-image-" 'installed linux-image-6.12.119-triage_.*: reboot to run it'
if grep -qx "apt-get install -y -q --no-install-recommends linux-source-6.12=6.12.118-1~deb12u1 linux-config-6.12=6.12.118-1~deb12u1" "$t/calls/all" &&
   grep -qx "make -C $top kernel-deb DIST=bookworm BUILD=$t/build" "$t/calls/all" &&
   grep -qx "apt-get install -y -q $t/build/deb/linux-image-6.12.119-triage_6.12.118-1~deb12u1+triage.g9999999_amd64.deb" "$t/calls/all" &&
   [ -e "$t/fleet/linux-image-6.12.119-triage_6.12.118-1~deb12u1+triage.g9999999_amd64.deb" ]; then
	ok "kernel-update: ... in that order: the source packages, make kernel-deb, apt-get install of the image"
else
	nok "kernel-update: ... in that order: the source packages, make kernel-deb, apt-get install of the image" "$(cat "$t/calls/all")"
fi
grep -q 'rc=1' "$t/fuzz-result" 2>/dev/null && grep -q 'FAILED' "$t/fuzz-result" &&
	ok "kernel-update: make's patch applies without fuzz: the moved hunk fails" ||
	nok "kernel-update: make's patch applies without fuzz: the moved hunk fails" "$(cat "$t/fuzz-result" 2>/dev/null)"
rm -rf "$t/fz"
log=''
for l in "$t"/build/logs/kernel-update/*-6.12.118-1~deb12u1.log; do [ -e "$l" ] && log=$l && break; done
if [ -n "$log" ] && grep -q 'kernel-deb: built' "$log"; then ok "kernel-update: the build's output is in its log"
else nok "kernel-update: the build's output is in its log" "log: ${log:-none}"; fi
rm -f "$t"/build/deb/*.deb
touch "$t/make-fails"
TEST_VERSION=6.12.118-1~deb12u1+triage.g9999999 KU
expect "kernel-update: the build fails: exit 3, its end and its log named" 3 \
	'the build failed \(exit 2\)' 'error: boom' "the build failed: $t/build/logs/kernel-update/"
rm -f "$t/make-fails"
TEST_VERSION=6.12.117-1~deb12u1+triage.g8888888 KU
expect "kernel-update: the build makes no package of the new version: exit 3" 3 'the build made no linux-image .deb of 6.12.118-1~deb12u1'
rm -f "$t"/build/deb/*.deb
: >"$t/calls/all"
TEST_VERSION=6.12.118-1~deb12u1+triage.g9999999 KU --no-install --from 6.12.117-1~deb12u1+triage.g3f2a1b7
expect "kernel-update: --no-install leaves the .debs" 0 'the .debs are in' '!installed linux-image'
grep -q '^apt-get install -y -q /' "$t/calls/all" && nok "kernel-update: ... apt-get is not asked to install them" "$(cat "$t/calls/all")" ||
	ok "kernel-update: ... apt-get is not asked to install them"
rm -f "$t"/build/deb/*.deb
echo deb >"$t/apt-get-fails"
TEST_VERSION=6.12.118-1~deb12u1+triage.g9999999 KU
expect "kernel-update: apt-get install of the new kernel fails: exit 4" 4 'apt-get install .*linux-image-6.12.119-triage_.*_amd64.deb failed'
rm -f "$t"/build/deb/*.deb
echo source >"$t/apt-get-fails"
TEST_VERSION=6.12.118-1~deb12u1+triage.g9999999 KU
expect "kernel-update: apt-get install of the source packages fails: exit 1, nothing built" 1 \
	'apt-get install linux-source-6.12=6.12.118-1~deb12u1 linux-config-6.12=6.12.118-1~deb12u1 failed' '!building'
rm -f "$t/apt-get-fails"

# --- the boot test before publishing
rm -rf "$t"/build/deb/*.deb "$t/fleet"
conf INSTALL=yes "OUTDIR=$t/fleet" "BOOT_TEST=echo \"\$TRIAGE_KERNEL_DEB|\$TRIAGE_KERNEL_SOURCE\" >$t/booted; exit 1"
: >"$t/calls/all"
TEST_VERSION=6.12.118-1~deb12u1+triage.g9999999 KU
expect "kernel-update: BOOT_TEST fails: exit 5, not published" 5 'the boot test failed \(exit 1\): linux-image-6.12.119-triage_.* is not published'
if grep -q '^apt-get install -y -q /' "$t/calls/all" || [ -e "$t/fleet" ]; then
	nok "kernel-update: ... neither installed nor copied to OUTDIR" "$(cat "$t/calls/all")"
else
	ok "kernel-update: ... neither installed nor copied to OUTDIR"
fi
[ "$(cat "$t/booted" 2>/dev/null)" = "$t/build/deb/linux-image-6.12.119-triage_6.12.118-1~deb12u1+triage.g9999999_amd64.deb|6.12.118-1~deb12u1 bookworm-security" ] &&
	ok "kernel-update: ... the boot test got the new .deb and its source in its environment" ||
	nok "kernel-update: ... the boot test got the new .deb and its source in its environment" "$(cat "$t/booted" 2>/dev/null)"
conf "OUTDIR=$t/fleet" "BOOT_TEST=test -e \"\$TRIAGE_KERNEL_DEB\""
rm -rf "$t"/build/deb/*.deb
TEST_VERSION=6.12.118-1~deb12u1+triage.g9999999 KU --from 6.12.117-1~deb12u1+triage.g3f2a1b7
expect "kernel-update: BOOT_TEST passes: published" 0 'boot test passed' "copied to $t/fleet"

# --- pruning: the newest KEEP builds stay, in the build's directory and OUTDIR
rm -rf "$t"/build/deb/*.deb "$t/fleet"
mkdir -p "$t/fleet"
for v in 6.12.9-1~deb12u1+triage.g1 6.12.99-1~deb12u1+triage.g2 6.12.117-1~deb12u1+triage.g3 6.12.117-1~deb12u2+triage.g4; do
	for d in "$t/build/deb" "$t/fleet"; do
		touch "$d/linux-image-${v%%-*}-triage_${v}_amd64.deb" "$d/linux-headers-${v%%-*}-triage_${v}_amd64.deb" \
		      "$d/linux-image-${v%%-*}-triage-dbg_${v}_amd64.deb"
	done
done
touch "$t/build/deb/linux-upstream_6.12.9-1~deb12u1+triage.g1_amd64.buildinfo" "$t/build/deb/kernel-deb.times"
conf "OUTDIR=$t/fleet" KEEP=2
TEST_VERSION=6.12.118-1~deb12u1+triage.g9999999 KU --from 6.12.117-1~deb12u2+triage.g4
expect "kernel-update: KEEP=2: the older builds pruned, exit 0" 0 \
	"pruning the build 6.12.117-1~deb12u1\+triage.g3 in $t/build/deb" "pruning the build 6.12.9-1~deb12u1\+triage.g1 in $t/fleet"
left=$(cd "$t/build/deb" && echo *)
[ "$left" = "kernel-deb.times linux-headers-6.12.117-triage_6.12.117-1~deb12u2+triage.g4_amd64.deb linux-headers-6.12.119-triage_6.12.118-1~deb12u1+triage.g9999999_amd64.deb linux-image-6.12.117-triage-dbg_6.12.117-1~deb12u2+triage.g4_amd64.deb linux-image-6.12.117-triage_6.12.117-1~deb12u2+triage.g4_amd64.deb linux-image-6.12.119-triage_6.12.118-1~deb12u1+triage.g9999999_amd64.deb" ] &&
	ok "kernel-update: ... the new build and the one before it stay, with their headers and -dbg (Debian's order: ~deb12u2 > ~deb12u1, 117 > 99)" ||
	nok "kernel-update: ... the new build and the one before it stay, with their headers and -dbg (Debian's order: ~deb12u2 > ~deb12u1, 117 > 99)" "$left"
imgs=$(cd "$t/fleet" && echo linux-image-*-triage_*)
[ "$(wc -w <<<"$imgs")" = 2 ] && ok "kernel-update: ... and in OUTDIR" || nok "kernel-update: ... and in OUTDIR" "$imgs"
conf KEEP=0
KU --dry-run
expect "kernel-update: KEEP=0: refused, exit 2" 2 'KEEP=0: how many builds to keep, at least 1'

# --- the alert when a run fails (OnFailure=)
conf "ALERT=cat >$t/alert; echo \"\$TRIAGE_ALERT_SUBJECT\" >>$t/alert"
r "$ku" --config "$t/conf" --alert
expect "kernel-update --alert: ALERT gets the message, exit 0" 0 'alert sent'
grep -q 'patch 0003-oom-chain.patch does not apply' "$t/alert" 2>/dev/null && grep -q '^triage-kernel-update failed on ' "$t/alert" &&
	ok "kernel-update --alert: ... with the failed run's journal and a subject" ||
	nok "kernel-update --alert: ... with the failed run's journal and a subject" "$(cat "$t/alert" 2>/dev/null)"
grep -q '^<2>triage-kernel-update failed on ' <<<"$last_out" && ok "kernel-update --alert: ... and at priority crit in the journal (<2>)" ||
	nok "kernel-update --alert: ... and at priority crit in the journal (<2>)" "$last_out"
conf
fake sendmail 'cat >'"$t"'/mailed'
r "$ku" --config "$t/conf" --alert
expect "kernel-update --alert: no ALERT: mailed to root" 0 'alert mailed to root'
grep -q '^To: root$' "$t/mailed" 2>/dev/null && ok "kernel-update --alert: ... a mail to root" || nok "kernel-update --alert: ... a mail to root" "$(cat "$t/mailed" 2>/dev/null)"
conf "ALERT=exit 3"
r "$ku" --config "$t/conf" --alert
expect "kernel-update --alert: ALERT fails: exit 1" 1 'ALERT \(exit 3\) failed'
unit=$top/deploy/kernel-update/triage-kernel-update.service
alert_unit=$top/deploy/kernel-update/triage-kernel-update-alert.service
grep -qx 'OnFailure=triage-kernel-update-alert.service' "$unit" &&
   grep -qx "ExecStart=$exec_start --alert" "$alert_unit" 2>/dev/null &&
	ok "kernel-update: the unit's OnFailure= starts triage-kernel-update-alert.service, which runs --alert" ||
	nok "kernel-update: the unit's OnFailure= starts triage-kernel-update-alert.service, which runs --alert"

# --- the other shell tests of tests/unit (test-*.sh: test-grub.sh, ...),
# which make -C tests/unit check runs through this file: their points
# are this file's, named after theirs
for f in "$top"/tests/unit/test-*.sh; do
	[ "$f" -ef "$0" ] && continue
	sub=0 subfail=0
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "${f##*/}: ${line#ok * - }"; sub=$((sub + 1)) ;;
		"not ok "*) nok "${f##*/}: ${line#not ok * - }"; sub=$((sub + 1)) subfail=1 ;;
		"#"*) echo "$line" ;;
		esac
	done < <(PATH=$path0 "$f" ${verbose:+-v}; echo "# exit $?")
	[ "$subfail" = 1 ] || [ "$sub" -gt 0 ] || nok "${f##*/}: ran no test"
done

echo "1..$n"
[ "$failed" = 0 ]
