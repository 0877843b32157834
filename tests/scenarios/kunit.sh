# The KUnit suites built into the test kernel ran at boot: report each
# test case from the kernel log as an assertion, and fail if none ran or
# if the log lacks a suite the KTAP plan announced.
# mem: 256M
# plan: dynamic
dmesg | sed 's/^\[[ 0-9.]*\] //' >/tmp/ktap
suites=$(grep -cE '^ *# Subtest: ' /tmp/ktap)
grep -E '^ +(not )?ok [0-9]+ ' /tmp/ktap >/tmp/ktap.cases
grep -E '^(not )?ok [0-9]+ ' /tmp/ktap >/tmp/ktap.suites
# two checks, then one point per test case and per suite in the KTAP
plan $(( 2 + $(wc -l </tmp/ktap.cases) + $(wc -l </tmp/ktap.suites) ))
check "KUnit ran at least one suite" [ "$suites" -gt 0 ]
check_eq "KUnit reported every suite of its plan" \
	"$(sed -n 's/^1\.\.//p' /tmp/ktap | head -n 1)" "$(wc -l </tmp/ktap.suites)"
while IFS= read -r line; do
	t=$(echo "$line" | sed -E 's/^ +(not )?ok [0-9]+ //')
	case "$t" in
	*"# SKIP"*) why=${t#*# SKIP}; tap_skip "kunit: ${t%% # SKIP*}" "${why# }" ;;
	*) case "$line" in
	   *"not ok"*) tap_fail "kunit: $t" ;;
	   *) tap_ok "kunit: $t" ;;
	   esac ;;
	esac
done </tmp/ktap.cases
while IFS= read -r line; do
	case "$line" in
	"not ok"*) tap_fail "kunit suite: ${line#not ok * }" ;;
	*) tap_ok "kunit suite: ${line#ok * }" ;;
	esac
done </tmp/ktap.suites
