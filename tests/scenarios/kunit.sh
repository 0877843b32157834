# The KUnit suites built into the test kernel ran at boot: report each
# test case from the kernel log as an assertion, and fail if none ran.
# mem: 256M
dmesg | sed 's/^\[[ 0-9.]*\] //' >/tmp/ktap
suites=$(grep -cE '^ *# Subtest: ' /tmp/ktap)
check "KUnit ran at least one suite" [ "$suites" -gt 0 ]
grep -E '^ +(not )?ok [0-9]+ ' /tmp/ktap | while IFS= read -r line; do
	t=$(echo "$line" | sed -E 's/^ +(not )?ok [0-9]+ //')
	case "$line" in
	*"not ok"*) case "$t" in *"# SKIP"*) tap_ok "kunit: $t" ;; *) tap_fail "kunit: $t" ;; esac ;;
	*) tap_ok "kunit: $t" ;;
	esac
done
grep -E '^(not )?ok [0-9]+ ' /tmp/ktap | while IFS= read -r line; do
	case "$line" in
	"not ok"*) tap_fail "kunit suite: ${line#not ok * }" ;;
	*) tap_ok "kunit suite: ${line#ok * }" ;;
	esac
done
