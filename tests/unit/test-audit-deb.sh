#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of the optional rebuilt audit packages (deploy/audit/audit-deb)
# without a build: the version they get sorts above Debian's and below
# Debian's next stable update (dpkg --compare-versions, the real one),
# and the rollback line of docs/deploying.md puts Debian's versions back
# (fake dpkg-query and apt-get).  TAP output; run by
# tests/unit/test-kernel-update.sh (make -C tests/unit check), or alone.
# shellcheck disable=SC2016,SC2015
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
ad=$top/deploy/audit/audit-deb
t=$(mktemp -d /tmp/test-audit-deb.XXXXXX)
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
# order DESCRIPTION A OP B: dpkg --compare-versions A OP B
order() {
	if dpkg --compare-versions "$2" "$3" "$4"; then ok "$1 ($2 $3 $4)"
	else nok "$1" "dpkg --compare-versions $2 $3 $4 is false"; fi
}

# --- the version of a rebuild
v12=$("$ad" --version-for 1:3.0.9-1 bookworm)
[ "$v12" = 1:3.0.9-1+deb12u0+triage1 ] && ok "Debian 12's audit 1:3.0.9-1 rebuilt: 1:3.0.9-1+deb12u0+triage1" ||
	nok "Debian 12's audit 1:3.0.9-1 rebuilt: 1:3.0.9-1+deb12u0+triage1" "got $v12"
order "Debian 12: the rebuild replaces Debian's audit" "$v12" gt 1:3.0.9-1
order "Debian 12: Debian's first security upload replaces the rebuild" "$v12" lt 1:3.0.9-1+deb12u1
# what the rebuild was called before: above Debian's security fix
order "the old suffix (1:3.0.9-1+triage1) sorted ABOVE Debian's security upload: why it changed" \
	1:3.0.9-1+triage1 gt 1:3.0.9-1+deb12u1
v13=$("$ad" --version-for 1:4.0.2-2+deb13u1 trixie)
[ "$v13" = 1:4.0.2-2+deb13u1+triage1 ] && ok "Debian 13's audit after a stable update (+deb13u1): +triage1" ||
	nok "Debian 13's audit after a stable update (+deb13u1): +triage1" "got $v13"
order "Debian 13: the rebuild replaces Debian's" "$v13" gt 1:4.0.2-2+deb13u1
order "Debian 13: Debian's next update (+deb13u2) replaces the rebuild" "$v13" lt 1:4.0.2-2+deb13u2
v13=$("$ad" --version-for 1:4.0.2-2 trixie)
order "Debian 13's audit as released (1:4.0.2-2): $v13 below +deb13u1" "$v13" lt 1:4.0.2-2+deb13u1
order "... and above 1:4.0.2-2" "$v13" gt 1:4.0.2-2
v=$("$ad" --version-for 1:3.0.9-1~deb12u1 bookworm)
order "a ~debNNuM version ($v): below Debian's ~deb12u2" "$v" lt 1:3.0.9-1~deb12u2
out=$("$ad" --version-for 1:3.0.9-1 sid 2>&1) && nok "DIST=sid: refused" "$out" || ok "DIST=sid: refused"

# --- the guide's rollback: Debian's versions back
line=$(grep -- '--allow-downgrades' "$top/docs/deploying.md" | grep 'triage1' | head -n 1)
if [ -z "$line" ]; then
	nok "docs/deploying.md has the audit rollback line (--allow-downgrades, +triage1)"
else
	ok "docs/deploying.md has the audit rollback line (--allow-downgrades, +triage1)"
	mkdir -p "$t/bin"
	# the packages of a Debian 12 server with the rebuild: libaudit1 and
	# auditd rebuilt, libauparse0 Debian's; the kernel's +triage.g... is not
	# audit's; audispd-plugins removed, its conffiles left (rc)
	cat >"$t/bin/dpkg-query" <<'EOF'
#!/bin/sh
printf '%s\n' 'ii  audit auditd 1:3.0.9-1+deb12u0+triage1' 'ii  audit libaudit1 1:3.0.9-1+deb12u0+triage1' \
	'ii  audit libaudit-common 1:3.0.9-1+deb12u0+triage1' 'ii  audit libauparse0 1:3.0.9-1' \
	'ii  linux-upstream linux-image-6.12.57-triage 6.12.57-1+triage.g3f2a1b7' 'ii  bash bash 5.2.15-2+b7' \
	'rc  audit audispd-plugins 1:3.0.9-1+deb12u0+triage1' \
	'ii  audit python3-audit 1:4.0.2-2+deb13u1+triage1'
EOF
	printf '#!/bin/sh\necho "$*" >%s/apt-get.args\n' "$t" >"$t/bin/apt-get"
	chmod +x "$t/bin/dpkg-query" "$t/bin/apt-get"
	(cd "$t" && PATH=$t/bin:$PATH bash -c "$line") >"$t/out" 2>&1
	got=$(cat "$t/apt-get.args" 2>/dev/null)
	want='install -y --allow-downgrades auditd=1:3.0.9-1 libaudit1=1:3.0.9-1 libaudit-common=1:3.0.9-1 python3-audit=1:4.0.2-2+deb13u1'
	[ "$got" = "$want" ] && ok "the rollback line asks apt-get for Debian's versions of the rebuilt audit packages only" ||
		nok "the rollback line asks apt-get for Debian's versions of the rebuilt audit packages only" \
			"line: $line" "got:  $got" "want: $want" "$(cat "$t/out")"
fi

echo "1..$n"
[ "$failed" = 0 ]
