# triage: label-driven OOM policy for Linux 6.12.
#   make demo    build everything, boot QEMU, show a real OOM decided by labels
#   make check   build everything and run every test; ends "N passed, N failed"
# Both install missing Debian packages first (scripts/debian-packages).

BUILD ?= $(CURDIR)/build
export BUILD

# every scenario but lib, bench, nochain and secure-boot (make
# secure-boot-test boots it, under OVMF); deb-triagectl boots the
# triagectl .deb's files (tests/check builds the packages first:
# tests/deb/check)
SCENARIOS ?= $(sort $(basename $(notdir $(filter-out %/lib.sh %/bench.sh %/nochain.sh %/secure-boot.sh,$(wildcard tests/scenarios/*.sh)))))
# booted on the kernel built without the chain (kernel/configs/nochain.config):
# it must behave as upstream
NOCHAIN_SCENARIOS ?= nochain memcg-stock-kill
# booted again on the debug kernel (KASAN, kmemleak, debug objects, UBSAN,
# hung-task detector; lockdep is in the test kernel too): the scenarios
# whose kernel paths allocate, free, take references or iterate tasks in
# a way no other one does (the storm: races of reloads, mode flips and
# readers with 60 OOMs; the module removed while OOMs run; group kills
# and memory.oom.group; fallbacks; blame-parent's table; policy changes;
# the readers; an exiting victim).  The others run the same kernel paths
# with other verdicts (tiers, oom_score_adj overrides, the panic and
# sysrq scopes, the boot without a major LSM: comparisons and branches,
# which the storm's 60 OOMs also take under KASAN) or parse text
# (bad-input and the parser are fuzzed under ASan), and would add
# minutes under KASAN at the end of make check, where the debug boots
# are its critical path.  AppArmor, Debian's default LSM, and
# Smack boot there too (stacking-apparmor, stacking-smack: replacements,
# relabels and reused labels under KASAN and lockdep), and so do the
# concurrent loaders of triage-interface.  So do the scenarios whose
# kernel paths are the newest: budgets (triage-budget: task_lock and the
# mm counters from the hook), a relabel without exec (triage-relabel,
# lsm-order-*: triage listed before the major LSM), sysrq's request
# (triage-sysrq).  triage-conform stays on the test kernel: under KASAN
# a false spec's case met, once in three boots, the kernel's second OOM
# before the first victim's pages were uncharged (the race first_victim
# in tests/scenarios/lib.sh describes), which the case does not expect.
# triage-pressure stays on the test kernel: its
# thrash is calibrated for 256 MiB with swap on zram, which KASAN's
# shadow memory and its slower reclaim change beyond what it measures
# (on the debug kernel zram could not be set up and the scenario's own
# shell was OOM-killed); its locking is lockdep's on the test kernel.
# kmemleak tracks the boots where triage allocates and frees (loads,
# reloads, refused loads, relabels, the module, the readers, the storm);
# the OOM-decision scenarios turn it off ("# append: kmemleak=off":
# triage-tiers took 55 s with it, 32 s without, 2026-12-06); KASAN, UBSAN,
# lockdep and debug objects still watch them.
DEBUG_SCENARIOS ?= $(filter storm chain-module chain-blame-parent \
	triage-fallback triage-group triage-oom-group triage-readers \
	triage-interface triage-selinux-reload \
	stacking-apparmor stacking-smack edge-exiting \
	triage-budget triage-relabel triage-sysrq \
	lsm-order-apparmor lsm-order-selinux lsm-order-smack,$(SCENARIOS))
# booted on the test kernel: every scenario but those the debug kernel
# boots (the same checks, there with KASAN and kmemleak watching: a second
# boot of each on the test kernel was 335 s of QEMU time, about 3 minutes
# of make check at two boots at once), and
# the storm, whose 250 OOMs on the fast kernel are a stress test of their
# own (the debug kernel's storm has 60)
TEST_SCENARIOS ?= $(filter-out $(filter-out storm,$(DEBUG_SCENARIOS)),$(SCENARIOS))
export SCENARIOS TEST_SCENARIOS DEBUG_SCENARIOS NOCHAIN_SCENARIOS

.PHONY: all deps kernel debug-kernel nochain-kernel debug-kernel-build nochain-kernel-build initramfs userspace patches demo check bench fuzz clean distclean \
	deb kernel-deb audit-deb system-image system-test secure-boot-test mutants series-build compare \
	nomemcg-kernel

all: kernel initramfs userspace

deps:
	@scripts/install-deps

kernel: deps
	@scripts/kernel-tree
	@scripts/kernel-build test base test

# the debug variant: the same sources, plus kernel/configs/debug.config
debug-kernel: deps
	@scripts/kernel-tree
	@$(MAKE) -s debug-kernel-build

# the kernel without the OOM policy chain (nor triage): upstream behaviour;
# the test kernel's config with the chain off, built from a copy of the
# test kernel's objects when it has none yet: only what the chain's
# options touch is rebuilt (a minute, not six)
nochain-kernel: deps
	@scripts/kernel-tree
	@$(MAKE) -s nochain-kernel-build

# the two builds alone, on the tree as assembled: tests/check runs them in
# the background beside its own make kernel, whose set-up steps they skip
debug-kernel-build:
	@scripts/kernel-build debug base test debug
nochain-kernel-build:
	@KERNEL_SEED=test scripts/kernel-build nochain base test nochain

# a build check, not in make check (3.5 minutes on 2 cores from the test
# kernel's objects): the series without memory cgroups (CONFIG_MEMCG=n),
# which early action's cgroup statements and the chain's memcg scope must
# compile out of
nomemcg-kernel: deps
	@scripts/kernel-tree
	@KERNEL_SEED=test scripts/kernel-build nomemcg base test nomemcg

initramfs: deps userspace
	@scripts/initramfs

# only the packages the CLI needs (userspace/debian-packages), not the kernel's
userspace:
	@scripts/install-deps userspace/debian-packages
	@if [ -f userspace/Makefile ]; then $(MAKE) -s -C userspace OUT=$(BUILD)/userspace; fi

patches: deps
	@scripts/kernel-tree
	@scripts/make-patches

# the series built commit by commit (about 25 min here; not part of make check)
series-build: deps
	@scripts/kernel-tree
	@scripts/series-build

demo: kernel initramfs
	@tests/qemu/demo

# tests/check builds the kernels, the initramfs and userspace itself: the
# debug kernel first, in the background at the lowest priority, beside the
# test kernel's build and then the tests of the test kernel; and the Debian
# packages (scripts/build-debs, lintian: about 30 s) for the short form of
# make system-test, the deb-triagectl boot (docs/testing.md)
check: deps
	@scripts/kernel-tree
	@tests/check

# a benchmark, not a test: Debian's unpatched kernel and the kernel with
# our series, built from the same config (base + bench) with the same
# timing harness, booted side by side, twice (the wall clock, then QEMU
# counting guest instructions); prints a table of ratios (scripts/bench,
# docs/testing.md)
bench: deps initramfs
	@scripts/kernel-tree
	@scripts/bench

# mutation testing of the kernel side (not part of make check): each mutant of
# tests/mutants/list is applied to a private copy of build/linux, built
# incrementally in build/mutants/obj and booted on the scenarios expected to
# kill it; writes tests/mutants/RESULTS (commit, machine, each mutant's
# result and, for a kill, its scenario, test point and kind), ending
# "mutants: K of N killed" (deb-triagectl's boot needs the triagectl .deb's
# initramfs: built first).  Resumable (a re-run skips what is recorded for
# this commit) and shardable (MUTANTS=id1,id2); 1 to 3 minutes a mutant on
# 2 cores (see docs/testing.md)
mutants: deps initramfs
	@scripts/kernel-tree
	@scripts/build-debs
	@scripts/initramfs-deb
	@scripts/mutants

# a long fuzzing run of the policy parser: FUZZ_TIME seconds (default 1 h)
FUZZ_TIME ?= 3600
fuzz: deps
	@$(MAKE) -s -C tests/unit OUT=$(BUILD)/unit FUZZ_TIME=$(FUZZ_TIME) fuzz-smoke

# Debian packages: triagectl and triage-selinux from debian/,
# lintian-checked, into build/deb/ (make check builds them too, in
# tests/deb/check).  DIST=trixie: built and lintian-checked in a Debian 13
# chroot made here (scripts/debian-env, scripts/debian-packages-trixie),
# into build/deb/trixie/
DIST ?= bookworm
deb: deps
	@DIST=$(DIST) scripts/build-debs

# the kernel as a linux-image .deb with Debian's own config (linux-config-6.12)
# plus triage, into build/deb/; LOCALMODCONFIG=lsmod-output trims it to a
# system's modules (kernel/configs/vm.lsmod: a small QEMU VM).  Hours for
# Debian's full config on 2 cores: see docs/deploying.md.  DIST=trixie:
# trixie's linux-source-6.12 and config, built in the Debian 13 chroot,
# with Debian's debug info and BTF, into build/deb/trixie/;
# SIGN_KEY=key.pem SIGN_CERT=cert.pem: the packaged image signed (sbsign);
# CONFIG_ONLY=1: stop after the configuration
kernel-deb: deps
	@if [ "$(DIST)" = bookworm ]; then scripts/kernel-tree; fi
	@DIST=$(DIST) LOCALMODCONFIG=$(LOCALMODCONFIG) scripts/kernel-deb

# Debian's audit userspace rebuilt with names for triage's record types
# (deploy/audit/: ausearch -i says TRIAGE_DECISION, not UNKNOWN[1427]),
# into build/deb/audit/ (DIST=trixie: build/deb/trixie/audit/, built in the
# Debian 13 environment; a mirror without trixie's upstream tarball needs
# AUDIT_UPSTREAM_GIT=clone of linux-audit/audit-userspace)
audit-deb: deps
	@DIST=$(DIST) deploy/audit/audit-deb

# a Debian 12 root filesystem (mmdebstrap) with systemd, sshd, auditd, nginx,
# SELinux and AppArmor policies, and our .debs installed by dpkg (the triage
# kernel's too when make kernel-deb has made it): build/system/rootfs.ext4;
# DIST=trixie: Debian 13's, with the trixie .debs, build/system/trixie/
system-image: deb audit-deb
	@DIST=$(DIST) scripts/system-image

# the full-system VM (not part of make check, 8 to 15 min once built; its
# short form in make check is tests/deb/check and deb-triagectl): the
# system-image booted under QEMU (TCG) on a small triage kernel
# (kernel/configs/system.config), with SELinux enforcing, rebooted through
# the GRUB that the first boot installed, rolled back to Debian's kernel,
# and once with AppArmor as Debian ships it (no security= on the command
# line); real OOMs, TAP, "N passed, M failed".
# SYSTEM_TEST_KERNEL=deb boots instead the kernel .deb of make kernel-deb
# that make system-image installed in the image (logs: build/logs/system-deb/).
# DIST=trixie: the Debian 13 image (make system-image DIST=trixie), the same
# boots, logs in build/logs/system-trixie/ (system-deb-trixie/ on the
# trixie kernel .deb, SYSTEM_TEST_KERNEL=deb).
# Builds the image only when there is none (make system-image rebuilds it
# from new .debs).  Logs in build/logs/system/; see docs/deploying.md
system-test: deps
	@test -f $(BUILD)/system/$(if $(filter trixie,$(DIST)),trixie/)rootfs.ext4 || $(MAKE) -s system-image DIST=$(DIST)
	@DIST=$(DIST) scripts/system-test

# Secure Boot in the VM (not part of make check): OVMF with Secure Boot
# enforcing runs the test kernel signed by sbsign (built with an EFI stub,
# kernel/configs/efi.config) and refuses it unsigned; the signed boot runs
# tests/scenarios/secure-boot.sh.  Logs in build/logs/secure-boot/
# (scripts/secure-boot-test, docs/testing.md)
secure-boot-test: kernel initramfs
	@scripts/secure-boot-test

# a benchmark, not a test (not part of make check): triage beside the stock
# kernel, earlyoom, nohang and systemd-oomd (each as Debian packages it and
# tuned) in the full-system VM, five workloads each, COMPARE_REPS times
# (default 10: about 9 hours on 2 cores; each run at most COMPARE_TIMEOUT
# s); the image booted on the system kernel with swap (build/obj/compare,
# from a copy of build/linux).  A CSV a run, a table and a plot in
# build/compare/; COMPARE_PUBLISH=1 also into docs/compare.md and
# docs/compare/ (scripts/compare, tests/compare/, docs/compare.md)
compare: deps
	@scripts/kernel-tree
	@test -f $(BUILD)/system/rootfs.ext4 || $(MAKE) -s system-image DIST=bookworm
	@scripts/compare

clean:
	rm -rf $(BUILD)/obj $(BUILD)/initramfs $(BUILD)/initramfs.cpio $(BUILD)/guest \
		$(BUILD)/selinux $(BUILD)/logs $(BUILD)/userspace $(BUILD)/unit $(BUILD)/patches \
		$(BUILD)/deb-src

distclean:
	rm -rf $(BUILD)
