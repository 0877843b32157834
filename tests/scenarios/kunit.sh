# The KUnit suites built into the test kernel ran at boot: report each
# test case from the kernel log as an assertion.  The plan comes from the
# kernel, not from what this scenario happened to read: every suite of
# KUNIT_SUITES must have run, each suite's own plan ("1..M", printed by
# KUnit before it runs the suite's cases) must match the cases it
# reported, and the top-level plan must match the suites reported.  A
# suite that runs and is not listed fails too: list it here.  No skip is
# allowed (no "# may-skip:"): a skipped KUnit case fails the boot.
# mem: 256M
# plan: dynamic
KUNIT_SUITES="triage-policy"
dmesg | sed 's/^\[[ 0-9.]*\] //' >/tmp/ktap
# /tmp/ktap.parsed, one record a line:
#   top M                 the top-level plan (suites announced)
#   plan SUITE M          a suite's own plan (its cases announced)
#   case SUITE LINE       one of its cases ("ok N name", 4 spaces deep;
#                         parameters, 8 deep, are part of their case)
#   result SUITE LINE     the suite's result line, at column 0
awk '
	/^1\.\.[0-9]+$/ && top == "" { top = substr($0, 4); print "top", top; next }
	/^    # Subtest: / { suite = substr($0, 16); next }
	/^    1\.\.[0-9]+$/ && suite != "" { print "plan", suite, substr($0, 8); next }
	/^    (not )?ok [0-9]+ / && suite != "" { print "case", suite, substr($0, 5); next }
	/^(not )?ok [0-9]+ / {
		name = $0; sub(/^(not )?ok [0-9]+ /, "", name); sub(/ # .*/, "", name)
		print "result", name, $0; suite = ""; next
	}' /tmp/ktap >/tmp/ktap.parsed

suite_plan() { awk -v s="$1" '$1 == "plan" && $2 == s { print $3; exit }' /tmp/ktap.parsed; }
suite_cases() { awk -v s="$1" '$1 == "case" && $2 == s { sub(/^case [^ ]+ /, ""); print }' /tmp/ktap.parsed; }
suite_result() { awk -v s="$1" '$1 == "result" && $2 == s { sub(/^result [^ ]+ /, ""); print; exit }' /tmp/ktap.parsed; }
reported=$(awk '$1 == "result" { print $2 }' /tmp/ktap.parsed)

# two checks, then per listed suite one for its plan, one per case it
# announced (0 when it did not run), one for its result
n=2
for s in $KUNIT_SUITES; do
	m=$(suite_plan "$s")
	n=$((n + 2 + ${m:-0}))
done
plan $n

check_eq "KUnit reported every suite of its top-level plan" \
	"$(awk '$1 == "top" { print $2 }' /tmp/ktap.parsed)" "$(echo "$reported" | grep -c .)"
others=$(for r in $reported; do
	case " $KUNIT_SUITES " in *" $r "*) ;; *) echo "$r" ;; esac
done)
check_eq_empty "every suite that ran is one of KUNIT_SUITES ($KUNIT_SUITES)" "$others"
for s in $KUNIT_SUITES; do
	m=$(suite_plan "$s")
	suite_cases "$s" >/tmp/ktap.cases
	check_eq "kunit suite $s: its plan (1..${m:-?}) and the cases it reported" \
		"${m:-no plan: the suite did not run}" "$(wc -l </tmp/ktap.cases)"
	while IFS= read -r line; do
		t=$(echo "$line" | sed -E 's/^(not )?ok [0-9]+ //')
		case "$line" in
		"not ok"*) tap_fail "kunit: $t" ;;
		*"# SKIP"*) why=${t#*# SKIP}; tap_skip "kunit: ${t%% # SKIP*}" "${why# }" ;;
		*) tap_ok "kunit: $t" ;;
		esac
	done </tmp/ktap.cases
	r=$(suite_result "$s")
	case "$r" in
	"") tap_fail "kunit suite $s: ran and passed"; diag "no result line for $s in the kernel log" ;;
	"not ok"*) tap_fail "kunit suite $s: ran and passed"; diag "$r" ;;
	*"# SKIP"*) tap_skip "kunit suite $s: ran and passed" "${r#*# SKIP }" ;;
	*) tap_ok "kunit suite $s: ran and passed" ;;
	esac
done
