#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tr-selftest POLICY.bin - guest-side self-test of the triage test policy
# and the guest helpers.  Run as the guest's init (kernel SID, before any
# policy is loaded), with tr-run, tr-hog, tr-forker, tr-waitfile and busybox
# applets in PATH, /proc and /sys mounted.  It loads POLICY, enforces, and
# checks that every domain can be entered from init_t, that the allowed
# transitions work and the forbidden ones fail with EACCES, that a label
# cannot be changed in place, and that the helpers report memcg OOM kills.
# Prints "selftest: ok ..." / "selftest: FAIL ..." lines, and exits 0 only
# if everything passed.  It runs 28 checks: that number is the fixed plan
# of tests/scenarios/guest-selftest.sh (29 with its own result), keep them
# in step.
set -u

POLICY=${1:?usage: tr-selftest POLICY.bin}
R=${TR_RESULTS:-/run/results}
CG=/sys/fs/cgroup
fails=0

ok() { echo "selftest: ok   $*"; }
fail() { echo "selftest: FAIL $*"; fails=$((fails + 1)); }
check() { # check DESCRIPTION COMMAND...
	d=$1; shift
	if "$@"; then ok "$d"; else fail "$d"; fi
}
field() { sed -n "s/^$2=//p" "$R/$1"; }
type_of() { echo "$1" | cut -d: -f3; }

mkdir -p "$R" /sys/fs/selinux
grep -q selinuxfs /proc/mounts || mount -t selinuxfs none /sys/fs/selinux

# Load and enforce.
dd if="$POLICY" of=/sys/fs/selinux/load bs=8M 2>/dev/null
check "policy loaded" [ $? -eq 0 ]
echo 1 > /sys/fs/selinux/enforce
check "enforcing" [ "$(cat /sys/fs/selinux/enforce)" = 1 ]
check "MLS policy" [ "$(cat /sys/fs/selinux/mls)" = 1 ]
check "unknown classes allowed" [ "$(cat /sys/fs/selinux/deny_unknown)" = 0 ]
me=$(cat /proc/self/attr/current | tr -d '\0')
check "init runs as init_t ($me)" [ "$(type_of "$me")" = init_t ]

# Each domain from init_t: the context reported by the process itself
# (cat /proc/self/attr/current) must match what tr-run recorded.
for t in init_t protected_t batch_t web_t untrusted_t; do
	out=$(tr-run --type "$t" --name "st-$t" -- cat /proc/self/attr/current |
	      sed 's/tr-run: .*//' | tr -d '\0\n')
	check "init_t -> $t ($out)" [ "$(type_of "$out")" = "$t" -a \
		"$(field "st-$t" context)" = "$out" ]
done
ctx=user_u:user_r:user_t:s0-s2:c0,c1,c2
out=$(tr-run --context "$ctx" --name st-user_t -- cat /proc/self/attr/current |
      sed 's/tr-run: .*//' | tr -d '\0\n')
check "init_t -> user_t ($out)" [ "$out" = user_u:user_r:user_t:s0-s2:c0.c2 -a \
	"$(field st-user_t context)" = "$out" ]

tr-run --type user_t --name st-user_t-sys -- true >/dev/null
check "init_t -> user_t by --type (system_r)" [ "$(field st-user_t-sys context)" = \
	system_u:system_r:user_t:s0-s3:c0.c15 ]

# Allowed: web_t <-> batch_t.
tr-run --type web_t --name st-web -- \
	tr-run --type batch_t --name st-web2batch -- true >/dev/null
check "web_t -> batch_t" [ $? -eq 0 -a \
	"$(type_of "$(field st-web2batch context)")" = batch_t ]
tr-run --type batch_t --name st-batch -- \
	tr-run --type web_t --name st-batch2web -- true >/dev/null
check "batch_t -> web_t" [ $? -eq 0 -a \
	"$(type_of "$(field st-batch2web context)")" = web_t ]

# Forbidden: the inner tr-run's exec must fail with EACCES.
denied() { # denied NAME OUTER-OPTS -- INNER-OPTS
	n=$1; shift
	tr-run "$@" >/dev/null 2>&1
	grep -q '^error=exec .*Permission denied$' "$R/$n"
}
P=system_u:system_r:protected_t:s0
check "untrusted_t -> protected_t denied" denied st-u2p \
	--type untrusted_t -- tr-run --type protected_t --name st-u2p -- true
check "web_t -> protected_t denied" denied st-w2p \
	--type web_t -- tr-run --type protected_t --name st-w2p -- true
check "batch_t -> protected_t denied" denied st-b2p \
	--type batch_t -- tr-run --type protected_t --name st-b2p -- true
check "user_t -> protected_t denied" denied st-us2p \
	--context user_u:user_r:user_t:s0 -- \
	tr-run --context "$P" --name st-us2p -- true
check "untrusted_t -> web_t denied" denied st-u2w \
	--type untrusted_t -- tr-run --type web_t --name st-u2w -- true
check "protected_t -> web_t denied" denied st-p2w \
	--type protected_t -- tr-run --type web_t --name st-p2w -- true
# No label change without exec (setcon / write to attr/current).
tr-run --type untrusted_t --name st-setcon -- sh -c \
	"echo -n $P > /proc/self/attr/current" >/dev/null 2>&1
check "untrusted_t setcon denied" [ "$(field st-setcon status)" = exited:1 ]

# Helpers and memcg OOM.
mkdir -p "$CG"
grep -q cgroup2 /proc/mounts || mount -t cgroup2 none "$CG"
echo +memory > "$CG/cgroup.subtree_control"
mkdir -p "$CG/st"
echo 32M > "$CG/st/memory.max"
tr-run --type batch_t --cgroup "$CG/st" --name st-hog -- \
	tr-hog --mib 64 >/dev/null
check "tr-hog 64 MiB in a 32M memcg is OOM-killed (rc 137)" [ $? -eq 137 -a \
	"$(field st-hog status)" = killed:9 ]
tr-run --type web_t --cgroup "$CG/st" --name st-hold -- \
	tr-hog --mib 8 --ready /run/st-hold.ready >/dev/null &
tr-waitfile /run/st-hold.ready "$R/st-hold.pid" --timeout-ms 20000
check "tr-hog --ready / tr-waitfile" [ $? -eq 0 ]
kill -9 "$(cat "$R/st-hold.pid")"
wait
check "kill -9 recorded" [ "$(field st-hold status)" = killed:9 ]
tr-waitfile /run/st-never --timeout-ms 100 2>/dev/null
check "tr-waitfile times out (rc 1)" [ $? -eq 1 ]
tr-waitfile --any /run/st-never /run/st-hold.ready --timeout-ms 100
check "tr-waitfile --any: one of the files is enough" [ $? -eq 0 ]
mkdir -p "$CG/st2"
echo 24M > "$CG/st2/memory.max"
tr-run --type batch_t --cgroup "$CG/st2" --name st-forker -- \
	tr-forker --children 3 --child-mib 32 --log /run/st-forker.log >/dev/null
check "tr-forker exits 0 after 3 children" [ $? -eq 0 ]
check "tr-forker logged OOM-killed children" \
	grep -q 'killed by signal 9 (SIGKILL)' /run/st-forker.log

if [ "$fails" -eq 0 ]; then
	echo "selftest: PASS"
else
	echo "selftest: $fails FAILED"
fi
[ "$fails" -eq 0 ]
