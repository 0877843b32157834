# triage: label-driven OOM policy for Linux 6.12.
#   make demo    build everything, boot QEMU, show a real OOM decided by labels
#   make check   build everything and run every test; ends "N passed, N failed"
# Both install missing Debian packages first (scripts/debian-packages).

BUILD ?= $(CURDIR)/build
export BUILD

SCENARIOS ?= $(sort $(basename $(notdir $(filter-out %/lib.sh %/bench-triage.sh,$(wildcard tests/scenarios/*.sh)))))

.PHONY: all deps kernel initramfs userspace patches demo check bench fuzz clean distclean

all: kernel initramfs userspace

deps:
	@scripts/install-deps

kernel: deps
	@scripts/kernel-tree
	@scripts/kernel-build test base test

initramfs: deps userspace
	@scripts/initramfs

userspace: deps
	@if [ -f userspace/Makefile ]; then $(MAKE) -s -C userspace OUT=$(BUILD)/userspace; fi

patches: deps
	@scripts/kernel-tree
	@scripts/make-patches

demo: kernel initramfs
	@tests/qemu/demo

check: kernel initramfs userspace
	@tests/check $(SCENARIOS)

bench: kernel initramfs
	@VERBOSE=1 tests/qemu/run bench-triage

# a long fuzzing run of the policy parser: FUZZ_TIME seconds (default 1 h)
FUZZ_TIME ?= 3600
fuzz: deps
	@$(MAKE) -s -C tests/unit OUT=$(BUILD)/unit FUZZ_TIME=$(FUZZ_TIME) fuzz-smoke

clean:
	rm -rf $(BUILD)/obj $(BUILD)/initramfs $(BUILD)/initramfs.cpio $(BUILD)/guest \
		$(BUILD)/selinux $(BUILD)/logs $(BUILD)/userspace $(BUILD)/unit $(BUILD)/patches

distclean:
	rm -rf $(BUILD)
