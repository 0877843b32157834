# SPDX-License-Identifier: GPL-2.0
#
# Include this from a userspace Makefile to build against the kernel's own
# triage policy parser and matcher (security/triage/policy.c, match.c):
#
#   TRIAGE_TOP := /path/to/repo
#   include $(TRIAGE_TOP)/userspace/lib/triage-policy.mk
#   CFLAGS += $(TRIAGE_POLICY_CFLAGS)     # -I userspace/compat comes first
#   prog: prog.c $(TRIAGE_POLICY_SRCS)    # or link libtriage-policy.a
#
# Code then does #include "policy.h" and calls triage_policy_parse() etc.
# exactly as the kernel does.

TRIAGE_TOP ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../..)

TRIAGE_POLICY_SRCS := $(TRIAGE_TOP)/security/triage/policy.c \
		      $(TRIAGE_TOP)/security/triage/match.c
TRIAGE_POLICY_HDRS := $(TRIAGE_TOP)/security/triage/policy.h \
		      $(wildcard $(TRIAGE_TOP)/userspace/compat/linux/*.h)
TRIAGE_POLICY_CFLAGS := -I$(TRIAGE_TOP)/userspace/compat \
			-I$(TRIAGE_TOP)/security/triage
