// SPDX-License-Identifier: GPL-2.0
/*
 * triagectl: the SELinux binary policy, through libsepol (linked
 * statically: the symbol tables are not part of the shared library's
 * API).  Answers "is this a user / role / type / range of the policy?",
 * "which name is closest?" and "can a context have these together?".
 */
#define _GNU_SOURCE

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sepol/context.h>
#include <sepol/debug.h>
#include <sepol/handle.h>
#include <sepol/policydb.h>
#include <sepol/policydb/ebitmap.h>
#include <sepol/policydb/hashtab.h>
#include <sepol/policydb/policydb.h>

#include "triagectl.h"

struct tc_sepol {
	sepol_handle_t *handle;
	sepol_policydb_t *db;
};

static policydb_t *tc_db(const struct tc_sepol *s)
{
	return &s->db->p;
}

static void tc_sepol_quiet(void *arg, sepol_handle_t *h, const char *fmt, ...)
{
	(void)arg;
	(void)h;
	(void)fmt;
}

struct tc_sepol *tc_sepol_open(const char *path, char *why, size_t n)
{
	sepol_policy_file_t *pf = NULL;
	struct tc_sepol *s;
	FILE *fp;

	fp = fopen(path, "re");
	if (!fp) {
		snprintf(why, n, "%s", strerror(errno));
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s || !(s->handle = sepol_handle_create()) ||
	    sepol_policy_file_create(&pf) || sepol_policydb_create(&s->db)) {
		snprintf(why, n, "out of memory");
		goto fail;
	}
	sepol_msg_set_callback(s->handle, tc_sepol_quiet, NULL);
	sepol_policy_file_set_fp(pf, fp);
	sepol_policy_file_set_handle(pf, s->handle);
	if (sepol_policydb_read(s->db, pf)) {
		snprintf(why, n, "not a valid SELinux binary policy");
		goto fail;
	}
	sepol_policy_file_free(pf);
	fclose(fp);
	return s;
fail:
	sepol_policy_file_free(pf);
	fclose(fp);
	if (s) {
		if (s->db)
			sepol_policydb_free(s->db);
		if (s->handle)
			sepol_handle_destroy(s->handle);
		free(s);
	}
	return NULL;
}

void tc_sepol_close(struct tc_sepol *s)
{
	if (!s)
		return;
	sepol_policydb_free(s->db);
	sepol_handle_destroy(s->handle);
	free(s);
}

bool tc_sepol_mls(const struct tc_sepol *s)
{
	return tc_db(s)->mls;
}

static hashtab_t tc_table(const struct tc_sepol *s, enum triage_field f)
{
	policydb_t *p = tc_db(s);

	switch (f) {
	case TRIAGE_FIELD_USER:
		return p->p_users.table;
	case TRIAGE_FIELD_ROLE:
		return p->p_roles.table;
	case TRIAGE_FIELD_TYPE:
		return p->p_types.table;
	default:
		return NULL;
	}
}

enum tc_name_kind tc_sepol_lookup(const struct tc_sepol *s,
				  enum triage_field f, const char *name,
				  const char **primary)
{
	hashtab_t h = tc_table(s, f);
	void *d;

	if (!h)
		return TC_NAME_UNKNOWN;
	d = hashtab_search(h, name);
	if (!d)
		return TC_NAME_UNKNOWN;
	if (f == TRIAGE_FIELD_TYPE) {
		type_datum_t *t = d;

		if (t->flavor == TYPE_ATTRIB)
			return TC_NAME_ATTRIBUTE;
		if (!t->primary || t->flavor == TYPE_ALIAS) {
			if (primary)
				*primary = tc_db(s)->p_type_val_to_name[t->s.value - 1];
			return TC_NAME_ALIAS;
		}
	}
	if (f == TRIAGE_FIELD_ROLE && ((role_datum_t *)d)->flavor == ROLE_ATTRIB)
		return TC_NAME_ATTRIBUTE;
	return TC_NAME_OK;
}

struct tc_near {
	const char *name;
	const char *best;
	unsigned int dist;
	bool types;
};

static int tc_near_apply(hashtab_key_t k, hashtab_datum_t d, void *arg)
{
	struct tc_near *n = arg;
	unsigned int dist;

	if (n->types && ((type_datum_t *)d)->flavor == TYPE_ATTRIB)
		return 0;
	dist = tc_edit_distance(n->name, k);
	/* ties: the alphabetically first, so the answer is stable */
	if (dist < n->dist || (dist == n->dist && n->best &&
			       strcmp(k, n->best) < 0)) {
		n->dist = dist;
		n->best = k;
	}
	return 0;
}

/* The nearest name, if it is near: at most 1 edit per 4 characters (min 1). */
const char *tc_sepol_suggest(const struct tc_sepol *s, enum triage_field f,
			     const char *name)
{
	struct tc_near n = { name, NULL, ~0u, f == TRIAGE_FIELD_TYPE };
	hashtab_t h = tc_table(s, f);
	unsigned int limit = strlen(name) / 4;

	if (!h)
		return NULL;
	if (limit < 1)
		limit = 1;
	hashtab_map(h, tc_near_apply, &n);
	return n.best && n.dist <= limit ? n.best : NULL;
}

bool tc_sepol_range_valid(const struct tc_sepol *s, const char *range)
{
	if (!tc_sepol_mls(s))
		return false;
	return sepol_mls_check(s->handle, s->db, range) == 0;
}

static bool tc_role_has_type(const role_datum_t *r, const type_datum_t *t)
{
	return ebitmap_get_bit(&r->types.types, t->s.value - 1);
}

/*
 * Can some context have this user, role and type together?  Each NULL is
 * "any".  The kernel refuses contexts where the user may not have the
 * role or the role may not have the type, so such a rule never matches.
 * object_r is the role of objects, never of a process.
 */
bool tc_sepol_compatible(const struct tc_sepol *s, const char *user,
			 const char *role, const char *type)
{
	policydb_t *p = tc_db(s);
	user_datum_t *u = user ? hashtab_search(p->p_users.table, user) : NULL;
	role_datum_t *r = role ? hashtab_search(p->p_roles.table, role) : NULL;
	type_datum_t *t = type ? hashtab_search(p->p_types.table, type) : NULL;
	unsigned int i;

	/* unknown names are reported as errors elsewhere */
	if ((user && !u) || (role && !r) || (type && !t))
		return true;
	if (u && r && !ebitmap_get_bit(&u->roles.roles, r->s.value - 1))
		return false;
	if (r && t)
		return tc_role_has_type(r, t);
	if (!t)
		return true;
	/* a type and maybe a user: some role (of the user) must have it */
	for (i = 0; i < p->p_roles.nprim; i++) {
		role_datum_t *ri = p->role_val_to_struct[i];

		if (!ri || i + 1 == OBJECT_R_VAL)
			continue;
		if (u && !ebitmap_get_bit(&u->roles.roles, i))
			continue;
		if (tc_role_has_type(ri, t))
			return true;
	}
	return false;
}
