# Bad input: every malformed policy of tests/corpus (copied to /corpus/bad)
# and a few hundred generated here (every control and non-ASCII byte,
# broken UTF-8 and UTF-16, slices of a binary, truncations, oversized and
# deeply repeated text) is written whole to the policy file in one
# write(): each is rejected, load_error gives the corpus's or the
# generator's exact LINE:COLUMN: REASON where one is known (and that form
# otherwise), and the policy in force keeps its hash and still decides
# the next OOM.  Then the write semantics: a write at an offset, a second
# write on the same open file, unprivileged writers, and eight writers at
# once.
# mem: 256M
# plan: 26
# timeout: 300
B=/run/bad
G=$B/gen
mkdir -p $B $G
t0=$(date +%s)

hash_now() { sed -n 's/^policy_hash //p' $TRIAGE/stats; }

# write_policy FILE: FILE in a single write() at offset 0 (files here are
# at most 2 MiB); dd's complaint, if any, in $B/err
write_policy() { dd if="$1" of=$TRIAGE/policy bs=2M 2>$B/err; }

# ---------------------------------------------------------------------
# The generated cases: $G/NAME.policy, with $G/NAME.expect when the
# exact error is known.
# gen NAME EXPECT: the case's text is on stdin
gen() {
	f=$G/$1
	cat >"$f.policy"
	if [ -n "$2" ]; then printf '%s\n' "$2" >"$f.expect"; fi
}
# every byte that is not printable ASCII, tab or newline, in a type value
# at column 17 (one awk writes them all: a fork per case is slow here)
awk -v g=$G 'BEGIN {
	for (b = 0; b < 256; b++) {
		if (b == 9 || b == 10 || (b >= 32 && b <= 126))
			continue
		f = g "/byte-" b
		printf "protect type=web%c_t\n", b >f ".policy"
		if (b == 13)
			why = "carriage return (DOS line ending?)"
		else if (b < 128)
			why = sprintf("control character 0x%02x", b)
		else
			why = sprintf("non-ASCII byte 0x%02x", b)
		print "1:17: " why >f ".expect"
		close(f ".policy"); close(f ".expect")
	} }'

# UTF-8, broken UTF-8, UTF-16, byte order marks
printf '\357\273\277protect type=web_t\n' | gen utf8-bom "1:1: non-ASCII byte 0xef"
printf '\377\376p\000r\000o\000\n\000' | gen utf16le-bom "1:1: non-ASCII byte 0xff"
printf 'p\000r\000o\000t\000e\000c\000t\000\n\000' | gen utf16le "1:2: control character 0x00"
printf '\000p\000r\000o\000t\000\n' | gen utf16be "1:1: control character 0x00"
printf 'protect type=caf\303\251_t\n' | gen utf8-e-acute "1:17: non-ASCII byte 0xc3"
printf 'protect type=\300\257etc\n' | gen utf8-overlong "1:14: non-ASCII byte 0xc0"
printf 'protect type=\200\n' | gen utf8-lone-continuation "1:14: non-ASCII byte 0x80"
printf 'protect type=ab\355\240\200\n' | gen utf8-surrogate "1:16: non-ASCII byte 0xed"
printf 'protect type=\364\220\200\200\n' | gen utf8-beyond-u10ffff "1:14: non-ASCII byte 0xf4"
printf '# \342\200\224 a dash\nprotect type=web_t\n' | gen utf8-in-comment "1:3: non-ASCII byte 0xe2"
printf 'protect label="caf\303\251"\n' | gen utf8-in-string "1:19: non-ASCII byte 0xc3"
printf 'protect type=web_t\nsacrifice type=batch_t\nadjust +1 type=x\n\377' | gen latin1-last-byte "4:1: non-ASCII byte 0xff"

# slices of a binary (busybox): rejected, whatever the first bad byte is
for off in 1 4097 20011 65536 100003 200009 300007 400009 500009 600011 \
	   700001 800011 900001 1000003; do
	for len in 64 4096; do
		tail -c +$off /bin/busybox | head -c $len | gen "binary-$off-$len" ""
	done
done
head -c 65536 /bin/busybox | gen binary-64k ""

# truncations of a valid policy, each cut inside a statement
full='mode enforce
fallback least-protected
protect type=protected_t range="s0-s0:c0.c3"
sacrifice type=batch_t rank=10 group
adjust -300 type=web_t'
printf '%s\n' "$full" >$B/full.policy
for cut in 4 14 22 28 66 70 79 95 118 124 131; do
	head -c $cut $B/full.policy | gen "truncated-$cut" ""
done

# oversized: E2BIG before any parsing
awk 'BEGIN { for (i = 0; i < 2621; i++) printf "# %097d\n", i; printf "#%043d\n", 0 }' |
	gen oversized-262145-comments ""
awk 'BEGIN { for (i = 0; i < 9000; i++) printf "protect type=t%04d_t range=s0\n", i }' |
	gen oversized-9000-rules ""
head -c 327680 /bin/busybox | gen oversized-320k-binary ""
awk 'BEGIN { for (i = 0; i < 1048576 / 16; i++) printf "protect type=x\n#" }' |
	gen oversized-1m ""

# deeply repeated
awk 'BEGIN { for (i = 0; i < 3000; i++) print "mode enforce" }' |
	gen repeated-setting "2:1: duplicate setting 'mode' (first on line 1)"
awk 'BEGIN { printf "protect"; for (i = 0; i < 2000; i++) printf " type=a"; print "" }' |
	gen repeated-matcher "1:16: duplicate matcher 'type'"
awk 'BEGIN { printf "sacrifice type=a"; for (i = 0; i < 2000; i++) printf " group"; print "" }' |
	gen repeated-option "1:24: duplicate option 'group'"
awk 'BEGIN { for (i = 0; i < 20000; i++) print ""; print "bogus" }' |
	gen blank-lines-then-bad "20001:1: unknown keyword 'bogus'"
awk 'BEGIN { for (i = 0; i < 10000; i++) print "#c"; print "protect" }' |
	gen comments-then-no-matcher "10001:1: rule has no matcher"
awk 'BEGIN { for (i = 0; i < 3500; i++) print "protect type=a"; print "x" }' |
	gen 3500-rules-then-bad "3501:1: unknown keyword 'x'"
awk 'BEGIN { for (i = 0; i < 3500; i++) print "adjust +1 type=a"; print "adjust 1001 type=y" }' |
	gen 3500-rules-then-range "3501:8: adjust value out of range -1000..1000"
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "protect label=\"%d*\"\n", i; print "protect label=\"open" }' |
	gen 3000-strings-then-unterminated "3001:15: unterminated string"
awk 'BEGIN { print "protect type=a \\"; for (i = 0; i < 6000; i++) print "\\" }' |
	gen continuations-to-eof "6001:1: line continuation at end of file"
awk 'BEGIN { for (i = 0; i < 60000; i++) printf " "; print "x" }' |
	gen 60000-spaces-then-bad "1:60001: unknown keyword 'x'"
awk 'BEGIN { for (i = 0; i < 1000; i++) printf "\""; print "" }' |
	gen 1000-quotes "1:1: expected keyword"
awk 'BEGIN { printf "protect type="; for (i = 0; i < 60000; i++) printf "a"; print "" }' |
	gen 60000-byte-value "1:14: value too long (max 255 bytes)"
awk 'BEGIN { printf "protect label=\""; for (i = 0; i < 30000; i++) printf "\\\\"; print "\"" }' |
	gen 30000-escapes "1:15: value too long (max 255 bytes)"
awk 'BEGIN { for (i = 0; i < 8000; i++) printf "protect=" ; print "" }' |
	gen equals-chain "1:8: expected space or end of line"
awk 'BEGIN { for (i = 0; i < 5000; i++) printf "=" ; print "" }' |
	gen 5000-equals "1:1: expected keyword"

# adversarial values
printf 'sacrifice type=a rank=99999999999999999999999\n' | gen rank-overflow ""
printf 'sacrifice type=a rank=-1\n' | gen rank-negative ""
printf 'adjust -9223372036854775808 type=a\n' | gen adjust-int-min ""
printf 'adjust +-1 type=a\n' | gen adjust-double-sign ""
printf 'adjust 0x10 type=a\n' | gen adjust-hex ""
printf 'protect type=a:b\n' | gen colon-in-type ""
printf 'protect type=""\n' | gen empty-string ""
printf 'protect type=a\\\n' | gen continuation-last-line ""
printf 'protect label=a\\\\\n' | gen label-backslash-unquoted ""
printf 'group\n' | gen bare-group ""
printf 'protect group type=a\n' | gen group-on-protect ""
printf 'mode enforce permissive\n' | gen mode-two-values ""
printf 'fallback\n' | gen fallback-empty ""
printf 'protect\ttype=a\tbogus=b\n' | gen unknown-matcher ""
printf 'protect type=a\n\n\n\nprotect  label="a\\q"\n' | gen invalid-escape ""

# ---------------------------------------------------------------------
t1=$(date +%s)
set_oom_policy "triage classic"
check "the policy in force loads" load_policy "fallback classic
protect type=protected_t
sacrifice type=batch_t"
h0=$(hash_now)
g0=$(stat_of policy_generation)
canon0=$(cat $TRIAGE/policy)

# try FILE: write it; print a line for each thing that went wrong
try() {
	f=$1
	size=$(stat -c %s "$f")
	if write_policy "$f"; then
		echo "$f ($size bytes): accepted"
		return
	fi
	if [ "$size" -gt 262144 ]; then
		grep -q "Argument list too long" $B/err ||
			echo "$f ($size bytes): not E2BIG: $(cat $B/err)"
	else
		grep -qE "Invalid argument|Argument list too long" $B/err ||
			echo "$f: not EINVAL or E2BIG: $(cat $B/err)"
		got=$(cat $TRIAGE/load_error)
		if [ -f "${f%.policy}.expect" ]; then
			want=$(cat "${f%.policy}.expect")
			[ "$got" = "$want" ] ||
				echo "$f: load_error '$got', expected '$want'"
		else
			case "$got" in
			[1-9]*:[1-9]*:\ ?*) ;;
			*) echo "$f: load_error '$got' is not LINE:COLUMN: REASON" ;;
			esac
		fi
	fi
	[ "$(hash_now)" = "$h0" ] || echo "$f: the policy in force changed"
}

ncorpus=$(ls /corpus/bad/*.policy | wc -l)
nexpect=$(for f in /corpus/bad/*.policy; do [ -f "${f%.policy}.expect" ] && echo; done | wc -l)
for f in /corpus/bad/*.policy; do try "$f"; done >$B/corpus.problems
check_eq_empty "$ncorpus corpus policies rejected, $nexpect with their .expect error, hash kept" \
	"$(cat $B/corpus.problems)"
[ -s $B/corpus.problems ] && diag "$(head -n 20 $B/corpus.problems)"

ngen=$(ls $G/*.policy | wc -l)
ngexp=$(ls $G/*.expect | wc -l)
for f in $G/*.policy; do try "$f"; done >$B/gen.problems
check_eq_empty "$ngen generated policies rejected, $ngexp with an exact error, hash kept" \
	"$(cat $B/gen.problems)"
[ -s $B/gen.problems ] && diag "$(head -n 20 $B/gen.problems)"
t2=$(date +%s)
diag "bad input: $((ncorpus + ngen)) cases ($ncorpus corpus, $ngen generated); generated in $((t1 - t0)) s, written in $((t2 - t1)) s"
check "at least 200 bad policies were tried" [ $((ncorpus + ngen)) -ge 200 ]
check_eq "no bad policy changed policy_generation" "$g0" "$(stat_of policy_generation)"
check_eq "the policy reads back unchanged" "$canon0" "$(cat $TRIAGE/policy)"

# a policy over the size limit never reaches the parser: E2BIG, and
# load_error is left as it was
write_policy /corpus/bad/098-too-large.policy
diag "after a $(stat -c %s /corpus/bad/098-too-large.policy)-byte write: load_error '$(cat $TRIAGE/load_error)'" \
	"(the parser would say '$(cat /corpus/bad/098-too-large.expect)')"

# ---------------------------------------------------------------------
# write semantics
printf 'protect type=web_t\n' >$B/small
if dd if=$B/small of=$TRIAGE/policy bs=64k seek=1 conv=notrunc 2>$B/err; then
	tap_fail "a write at a non-zero offset is refused"
else
	check "a write at a non-zero offset is refused with EINVAL" grep -q "Invalid argument" $B/err
fi
check_eq "and the policy in force is kept" "$h0" "$(hash_now)"

# two write()s on one open file: the first is a whole policy, the
# second (at its end offset) is refused; nothing is assembled
printf 'protect type=web_t\nsacrifice type=user_t\n' >$B/two
if dd if=$B/two of=$TRIAGE/policy bs=19 2>$B/err; then
	tap_fail "a second write() on the same open file is refused"
else
	check "a second write() on the same open file is refused with EINVAL" grep -q "Invalid argument" $B/err
fi
check_eq "the first write() alone was loaded as a whole policy" "protect type=web_t" \
	"$(sed -n '4,$p' $TRIAGE/policy)"
check "the policy in force loads again" load_policy "$canon0"
check_eq "its hash is the same as before" "$h0" "$(hash_now)"

# unprivileged writers of a good and of a bad policy
for p in $B/small /corpus/bad/001-unknown-keyword.policy; do
	if tr-asuser 1000 dd if=$p of=$TRIAGE/policy bs=64k 2>$B/err; then
		tap_fail "uid 1000 may not write $(basename $p)"
	else
		check "uid 1000 writing $(basename $p) is refused (EPERM/EACCES)" \
			grep -qE "Operation not permitted|Permission denied" $B/err
	fi
done
check_eq_empty "load_error did not record the unprivileged bad write" "$(cat $TRIAGE/load_error)"
check_eq "and the policy in force is kept" "$h0" "$(hash_now)"

# eight writers at once, each writing good and bad policies 10 times:
# the policy in force at the end is one of the good ones, whole, and
# every accepted write counts once in policy_generation
good_hashes=
for i in 1 2 3 4; do
	printf 'protect type=protected_t\nadjust +%d type=web_t\nsacrifice type=batch_t\n' $i >$B/good$i
	write_policy $B/good$i
	good_hashes="$good_hashes $(hash_now)"
done
g1=$(stat_of policy_generation)
: >$B/accepted
set -- $G/*.policy
w=1
while [ $w -le 8 ]; do
	(
		i=0
		while [ $i -lt 10 ]; do
			k=$(( (w + i) % 4 + 1 ))
			write_policy $B/good$k 2>/dev/null && echo "$w $i" >>$B/accepted
			eval "bad=\${$(( (w * 10 + i) % ngen + 1 ))}"
			write_policy "$bad" 2>/dev/null && echo "BAD $w $i $bad" >>$B/accepted
			i=$((i + 1))
		done
	) &
	w=$((w + 1))
done
wait
check_eq_empty "no bad policy was accepted by the concurrent writers" "$(grep BAD $B/accepted)"
check_eq "every good write was accepted (80)" 80 "$(wc -l <$B/accepted)"
check_eq "policy_generation counts each accepted write once" $((g1 + 80)) "$(stat_of policy_generation)"
final=$(hash_now)
check "the policy in force is one of the good ones" sh -c "echo '$good_hashes' | grep -qw '$final'"
check "and reads back whole (3 settings + 3 rules)" [ "$(wc -l <$TRIAGE/policy)" -eq 6 ]

# the old policy still decides: the sacrificed batch_t task dies first
check "the policy in force loads again" load_policy "$canon0"
check_eq "with its old hash" "$h0" "$(hash_now)"
cg=$(memcg badin 64M)
hog db protected_t "$cg" 30
hog batch batch_t "$cg" 4
hog web web_t "$cg" 12
push pusher user_t "$cg" 30
check_eq "after all that, the sacrificed batch_t task died first" killed:9 "$(status batch)"
check "the protected_t task survived" alive db
check_eq "the decision names the sacrifice rule (rule 2)" "sacrifice 2" \
	"$(decision_for batch verdict) $(decision_for batch rule)"
stop_all
