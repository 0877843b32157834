/* SPDX-License-Identifier: GPL-2.0 */
/*
 * triagectl conform: the conformance spec language (conformspec.c, used
 * by conform.c only) and the live runner.  Grammar: docs/conform.md.
 */
#ifndef TRIAGE_CONFORM_H
#define TRIAGE_CONFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "triagectl.h"

/* the LSM a label belongs to */
enum tc_cf_lsm { TC_CF_SELINUX, TC_CF_APPARMOR, TC_CF_SMACK, TC_CF_NLSM };

enum tc_cf_kind {
	TC_CF_BEFORE,	/* A SIZE dies before B SIZE */
	TC_CF_NEVER,	/* Z SIZE is never killed */
	TC_CF_GROUP,	/* W SIZE [xN] dies as a group */
	TC_CF_ADJUST,	/* adjust puts A SIZE before B SIZE */
};

/* defaults and limits of the settings and sizes */
#define TC_CF_MEMORY_DEFAULT	64	/* MiB: each expectation's memory.max */
#define TC_CF_MEMORY_MIN	16
#define TC_CF_MEMORY_MAX	4096
#define TC_CF_TIMEOUT_DEFAULT	30	/* seconds per expectation */
#define TC_CF_TIMEOUT_MAX	3600
#define TC_CF_GROWER_ROOM	8	/* MiB the probes must leave the grower */
#define TC_CF_GROUP_DEFAULT	3
#define TC_CF_GROUP_MAX		16
#define TC_CF_LABEL_MAX		255

struct tc_cf_label {
	enum tc_cf_lsm lsm;
	bool context;		/* SELinux: a whole context, not a type */
	char *name;		/* the type, context, profile or Smack label */
	char *text;		/* as written: "type=batch_t" */
	unsigned int line, column;
};

struct tc_cf_probe {
	struct tc_cf_label label;
	unsigned int mib;
	unsigned int count;	/* copies (a group), 1 otherwise */
};

struct tc_cf_expect {
	enum tc_cf_kind kind;
	bool todo;		/* an expected failure */
	unsigned int line;
	char *text;		/* the statement, blanks squeezed */
	struct tc_cf_probe probe[2];
	unsigned int nprobes;
};

struct tc_cf_spec {
	unsigned int memory_mib;
	unsigned int timeout_s;
	/* the growing probe's label, per LSM; NULL name: the runner's own */
	struct tc_cf_label grower[TC_CF_NLSM];
	struct tc_cf_expect *ex;
	size_t nex;
};

/*
 * Parse a spec.  Every error goes to @diags (LINE:COLUMN, as triagectl
 * check reports them; tc_check_print() prints them); returns 0, or -1
 * when there was an error (then @spec holds what parsed).
 */
int tc_cf_parse(const char *text, size_t len, struct tc_cf_spec *spec,
		struct tc_check *diags);
void tc_cf_free(struct tc_cf_spec *spec);
/* "SELinux", "AppArmor", "Smack" */
const char *tc_cf_lsm_name(enum tc_cf_lsm lsm);

/* the hidden probe mode: "triagectl --conform-probe ..." */
#define TC_CF_PROBE_ARG	"--conform-probe"
int tc_cf_probe_main(int argc, char **argv);

#endif /* TRIAGE_CONFORM_H */
