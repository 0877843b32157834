# The test policy and the guest helpers that every scenario relies on
# (tests/guest/selftest.sh, in the guest as tr-selftest): each domain can
# be entered from init_t, the allowed transitions work, the forbidden ones
# fail with EACCES, a label cannot be changed in place, and tr-run,
# tr-hog, tr-forker and tr-waitfile report what happened.  The policy,
# already loaded by init, is loaded again (the same one: a no-op for the
# labels).  One test point per line of the self-test, and one for its
# result.  The plan is fixed, not counted from tr-selftest's output (which
# a self-test that dies or stops early would shorten): tests/guest/
# selftest.sh runs 28 checks (24 check lines, one of them in a loop over 5
# domains); when you add one there, add one here.
# mem: 256M
# plan: 29
tr-selftest /etc/selinux/triage-test.bin >/tmp/selftest.out 2>&1
rc=$?
while IFS= read -r line; do
	case "$line" in
	"selftest: ok "*) tap_ok "selftest: $(echo "${line#selftest: ok }" | sed 's/^ *//')" ;;
	"selftest: FAIL "*) tap_fail "selftest: ${line#selftest: FAIL }" ;;
	esac
done </tmp/selftest.out
check_eq "tr-selftest passed (exit 0, PASS)" "0 PASS" \
	"$rc $(sed -n 's/^selftest: \(PASS\)$/\1/p' /tmp/selftest.out)"
