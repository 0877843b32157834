# Protection with a budget: "protect type=protected_t budget=32M".  A
# protected task within its budget is protected; the same label beyond
# it is an ordinary task, so a protected service that leaks dies before
# the machine does, and before smaller ordinary tasks, as its size says.
# oom_score and the ranking show the standing at once; a decision
# records the kill with the protect rule that no longer protected.
# mem: 256M
# plan: 11
set_oom_policy "triage classic"
check "a policy protecting protected_t up to 32 MiB loads" load_policy "protect type=protected_t budget=32M"
check_eq "the canonical policy keeps the budget" "protect type=protected_t budget=32M" \
	"$(grep '^protect' $TRIAGE/policy)"

# within its budget: protected, while a smaller ordinary task dies
cg=$(memcg within 96M)
hog small protected_t "$cg" 16
check_eq "a protected task within its budget reads oom_score 0" 0 "$(oom_score_of small)"
push plain user_t "$cg" 90
check_eq "within its budget it is protected: the ordinary pusher dies" "$(pid_of plain)" "$(first_victim)"
check "the protected task within its budget lives" alive small
stop_all

# beyond its budget: ordinary, the largest, so the first to die
dmesg -c >/dev/null
cg=$(memcg beyond 96M)
hog leaker protected_t "$cg" 48
hog bystander user_t "$cg" 16
check "a protected task beyond its budget has an ordinary oom_score" \
	[ "$(oom_score_of leaker)" -gt 0 ]
check_eq "the ranking lists it as ordinary, under its protect rule" "ordinary protect" \
	"$(awk -F'\t' -v p="$(pid_of leaker)" '$2 == p {print $3, $6}' $TRIAGE/ranking)"
push pusher user_t "$cg" 40
check_eq "the protected leaker beyond its budget dies first" "$(pid_of leaker)" "$(first_victim)"
check "the smaller ordinary task lives" alive bystander
check_eq "its decision names the protect rule" "protect 1 killed" \
	"$(decision_for leaker verdict) $(decision_for leaker rule) $(decision_for leaker outcome)"
stop_all

# the same task at the same size, with no budget: protected
load_policy "protect type=protected_t" >/dev/null
cg=$(memcg nobudget 96M)
hog keeper protected_t "$cg" 48
check_eq "without a budget the same 48 MiB task reads oom_score 0" 0 "$(oom_score_of keeper)"
stop_all
