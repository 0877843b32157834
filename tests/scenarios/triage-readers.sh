# Nobody unprivileged reads who is protected or forges what the admin
# reads: every interface file but mode and stats (counters, no task or
# label) needs CAP_MAC_ADMIN, asked by the
# kernel itself (the files are world-readable, so file modes do not
# refuse first), for uid 1000 and for root without CAP_MAC_ADMIN; a task
# that names itself with tabs and newlines is one escaped row, in the
# ranking and, once it is the victim, in the decisions.
# mem: 256M
# plan: 23
CAP_MAC_ADMIN=33
set_oom_policy "triage classic"
check "policy loads" load_policy "protect type=protected_t
sacrifice type=batch_t"
hash=$(sed -n 's/^policy_hash //p' $TRIAGE/stats)
for f in ranking decisions policy load_error; do
	if tr-asuser 1000 cat $TRIAGE/$f >/dev/null 2>/tmp/u.err; then
		tap_fail "uid 1000 cannot read $f"
	else
		check "uid 1000 cannot read $f (EPERM, not a file mode)" grep -q "Operation not permitted" /tmp/u.err
	fi
done
# refused_eperm DESC COMMAND...: COMMAND fails, and for want of the
# capability (EPERM), not for any other reason
refused_eperm() {
	local desc=$1
	shift
	if "$@" >/dev/null 2>/tmp/r.err; then
		tap_fail "$desc"
	else
		check "$desc (EPERM)" grep -q "Operation not permitted" /tmp/r.err
	fi
}
for f in ranking decisions policy load_error; do
	refused_eperm "root without CAP_MAC_ADMIN cannot read $f" \
		tr-asuser --drop-cap $CAP_MAC_ADMIN cat $TRIAGE/$f
done
printf 'mode enforce\nsacrifice type=web_t\n' >/tmp/p2
refused_eperm "root without CAP_MAC_ADMIN cannot load a policy" \
	tr-asuser --drop-cap $CAP_MAC_ADMIN dd if=/tmp/p2 of=$TRIAGE/policy bs=64k
refused_eperm "root without CAP_MAC_ADMIN cannot switch the mode" \
	tr-asuser --drop-cap $CAP_MAC_ADMIN sh -c "echo permissive >$TRIAGE/mode"
# (fd 5: fd 3 carries the TAP)
exec 5>$TRIAGE/policy
refused_eperm "a policy fd root opened, written after dropping CAP_MAC_ADMIN, is refused" \
	tr-asuser --drop-cap $CAP_MAC_ADMIN sh -c "dd if=/tmp/p2 bs=64k >&5"
exec 5>&-
exec 5>$TRIAGE/mode
refused_eperm "a mode fd root opened, written after dropping CAP_MAC_ADMIN, is refused" \
	tr-asuser --drop-cap $CAP_MAC_ADMIN sh -c "echo permissive >&5"
exec 5>&-
check_eq "the policy and the mode in force are unchanged" "$hash enforce" \
	"$(sed -n 's/^policy_hash //p' $TRIAGE/stats) $(cat $TRIAGE/mode)"
check_eq "mode stays readable by anybody" enforce "$(tr-asuser 1000 cat $TRIAGE/mode)"
# the capability is checked when mode is opened for writing, not only at
# the write: such a descriptor is never handed out
tr-asuser --drop-cap $CAP_MAC_ADMIN sh -c "exec 5>$TRIAGE/mode" 2>/tmp/modeopen.err
check "root without CAP_MAC_ADMIN cannot open mode for writing (EPERM at open)" \
	grep -q "Operation not permitted" /tmp/modeopen.err

# a batch_t task names itself so that a naive reader would see a row for
# pid 999: its executable's name (a symbolic link to tr-hog) is its comm
forged=$(printf 'x\n9\t999\t9\tsac')
ln -s "$(command -v tr-hog)" "/tmp/$forged"
cg=$(memcg forge 64M)
start forger batch_t "$cg" "/tmp/$forged" --mib 8 --ready /run/forger.ready
waitfile 30000 /run/forger.ready
check_eq_empty "ranking has no row for the forged pid 999" \
	"$(awk -F'\t' '$2 == 999' $TRIAGE/ranking)"
check_eq "ranking shows the forged name once, escaped" 'x\0129\011999\0119\011sac' \
	"$(awk -F'\t' '$9 ~ /^x/ {print $9}' $TRIAGE/ranking)"
check_eq_empty "every ranking row has nine columns" \
	"$(awk -F'\t' 'NF != 9' $TRIAGE/ranking)"
diag "$(cat $TRIAGE/ranking | tr '\t' ' ')"
# the sacrificed forger is the next OOM's victim: its decision is one row
push forgepusher user_t "$cg" 80
check_eq "the forger (sacrificed) was the OOM's victim" killed:9 "$(status forger)"
check_eq_empty "decisions has no row for the forged pid 999" \
	"$(awk -F'\t' '$5 == 999' $TRIAGE/decisions)"
check_eq "decisions shows the forged name once, escaped" 'x\0129\011999\0119\011sac' \
	"$(awk -F'\t' '$11 ~ /^x/ {print $11}' $TRIAGE/decisions)"
check_eq_empty "every decisions row has twelve columns" \
	"$(awk -F'\t' 'NF != 12' $TRIAGE/decisions)"
stop_all
