#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of deploy/debian-mirror (the Debian mirror of the build
# host's apt sources, for scripts/debian-env, scripts/system-image and
# deploy/audit/audit-deb) against apt configurations made here (APT_CONFIG
# points apt-config at them), and a check that no script names a Debian
# mirror host.  TAP output; run by tests/unit/test-kernel-update.sh (make
# -C tests/unit check), or alone: tests/unit/test-debian-mirror.sh
# shellcheck disable=SC2015
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
dm=$top/deploy/debian-mirror
t=$(mktemp -d /tmp/test-debian-mirror.XXXXXX)
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
# is DESCRIPTION WANT CMD...: CMD's output (stdout) is WANT and it exits 0
is() {
	local d=$1 want=$2 got rc
	shift 2
	got=$("$@" 2>"$t/err"); rc=$?
	if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then ok "$d"
	else nok "$d" "got:  '$got' (exit $rc) $(cat "$t/err")" "want: '$want'"; fi
}
unset DEBIAN_MIRROR DEBIAN_SECURITY_MIRROR
# conf NAME: an apt configuration whose Dir::Etc is $t/NAME/ (no proxy)
conf() {
	mkdir -p "$t/$1/sources.list.d" "$t/$1/apt.conf.d"
	printf 'Dir::Etc "%s/";\n' "$t/$1" >"$t/$1.conf"
	export APT_CONFIG=$t/$1.conf
}

# one-line sources.list: a site mirror, options in brackets, a comment, a
# third party's list first in sources.list.d
conf oneline
cat >"$t/oneline/sources.list" <<'EOF'
# deb http://old.example.org/debian bookworm main
deb-src http://src.example.org/debian bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.example.org/debian/ bookworm main contrib
deb http://mirror.example.org/debian bookworm-updates main
deb http://security-mirror.example.org/debian-security bookworm-security main
EOF
echo 'deb https://packages.cloud.google.com/apt cloud-sdk-bookworm main' >"$t/oneline/sources.list.d/00-google.list"
is "one-line sources.list: the archive (options in brackets skipped, trailing / dropped)" \
	http://mirror.example.org/debian "$dm" archive
is "one-line sources.list: the security archive" http://security-mirror.example.org/debian-security "$dm" security
is "no apt proxy: nothing" "" "$dm" proxy

# deb822: Debian 12's and 13's installer write /etc/apt/sources.list.d/debian.sources
conf deb822
cat >"$t/deb822/sources.list.d/nodesource.sources" <<'EOF'
Types: deb
URIs: https://deb.nodesource.com/node_20.x
Suites: nodistro
Components: main
EOF
cat >"$t/deb822/sources.list.d/debian.sources" <<'EOF'
Types: deb-src
URIs: http://src.example.org/debian
Suites: trixie
Components: main

Types: deb
# a site proxy of the archive
URIs: http://apt-cache.example.org:3142/debian
Suites: trixie trixie-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb deb-src
Enabled: no
URIs: http://old.example.org/debian-security
Suites: trixie-security
Components: main

Types: deb
URIs:
 http://apt-cache.example.org:3142/debian-security
Suites: trixie-security
Components: main
EOF
is "deb822 .sources: the archive (deb-src, other vendors' suites skipped)" \
	http://apt-cache.example.org:3142/debian "$dm" archive
is "deb822 .sources: the security archive (Enabled: no skipped, a URI on a continuation line)" \
	http://apt-cache.example.org:3142/debian-security "$dm" security
printf 'Acquire::http::Proxy "http://proxy.example.org:3128/";\n' >>"$APT_CONFIG"
is "apt's Acquire::http::Proxy" http://proxy.example.org:3128/ "$dm" proxy

# the variables win
DEBIAN_MIRROR=http://local.example.org/debian/ is "DEBIAN_MIRROR wins" http://local.example.org/debian "$dm" archive
DEBIAN_SECURITY_MIRROR=file:///srv/mirror/debian-security is "DEBIAN_SECURITY_MIRROR wins" \
	file:///srv/mirror/debian-security "$dm" security

# Debian 10's security suite form, stable-updates
conf old
printf '%s\n' 'deb http://m.example.org/debian stable-updates main' \
	'deb http://s.example.org/ buster/updates main' >"$t/old/sources.list"
is "stable-updates is the archive" http://m.example.org/debian "$dm" archive
is "buster/updates is the security archive" http://s.example.org "$dm" security

# Debian's cloud images: apt's mirror+file: method, a file of mirrors
conf cloud
mkdir -p "$t/cloud/mirrors"
printf '%s\n' '# the cloud mirror' 'http://cloud-mirror.example.org/debian/	priority:1' 'http://second.example.org/debian' \
	>"$t/cloud/mirrors/debian.list"
echo 'http://cloud-mirror.example.org/debian-security' >"$t/cloud/mirrors/debian-security.list"
cat >"$t/cloud/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: mirror+file://$t/cloud/mirrors/debian.list
Suites: trixie trixie-updates trixie-backports
Components: main

Types: deb
URIs: mirror+file://$t/cloud/mirrors/debian-security.list
Suites: trixie-security
Components: main
EOF
is "mirror+file: (cloud images): the first mirror of its file" http://cloud-mirror.example.org/debian "$dm" archive
is "mirror+file: for the security archive" http://cloud-mirror.example.org/debian-security "$dm" security

# no Debian source: an error that names the variable
conf none
echo 'deb http://archive.ubuntu.com/ubuntu noble main' >"$t/none/sources.list"
out=$("$dm" security 2>&1); rc=$?
[ $rc = 1 ] && grep -q 'set DEBIAN_SECURITY_MIRROR' <<<"$out" &&
	ok "no Debian source: exit 1, says to set DEBIAN_SECURITY_MIRROR" ||
	nok "no Debian source: exit 1, says to set DEBIAN_SECURITY_MIRROR" "exit $rc: $out"
unset APT_CONFIG

# no script of the build and deployment names a mirror host (the docs may)
hits=$(cd "$top" && git grep -nE 'deb\.debian\.org|ftp\.[a-z.]*debian\.org|security\.debian\.org|httpredir\.debian\.org' \
	-- scripts deploy Makefile 'tests/*.sh' 'tests/unit/*.sh' 2>/dev/null | grep -v '^tests/unit/test-debian-mirror.sh:')
[ -z "$hits" ] && ok "no script under scripts/ or deploy/ names a Debian mirror host" ||
	nok "no script under scripts/ or deploy/ names a Debian mirror host" "$hits"

echo "1..$n"
[ "$failed" = 0 ]
