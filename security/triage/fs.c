// SPDX-License-Identifier: GPL-2.0
/*
 * triage: the securityfs interface, /sys/kernel/security/triage/.
 *
 * Read-only files are rendered whole at open() and served from that
 * snapshot, so a reader never sees two states mixed.  Writers need
 * CAP_MAC_ADMIN.
 */

#define pr_fmt(fmt) "triage: " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/oom_policy.h>
#include <linux/pid_namespace.h>
#include <linux/poll.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "triage.h"

struct triage_snapshot {
	char *text;
	size_t len;
	u64 seq;
};

static int triage_snapshot_open(struct inode *inode, struct file *file,
				char *text, size_t len)
{
	struct triage_snapshot *s;

	if (!text)
		return -ENOMEM;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		kvfree(text);
		return -ENOMEM;
	}
	s->text = text;
	s->len = len;
	file->private_data = s;
	return 0;
}

static ssize_t triage_snapshot_read(struct file *file, char __user *buf,
				    size_t count, loff_t *ppos)
{
	struct triage_snapshot *s = file->private_data;

	if (!s)
		return 0;
	return simple_read_from_buffer(buf, count, ppos, s->text, s->len);
}

static int triage_snapshot_release(struct inode *inode, struct file *file)
{
	struct triage_snapshot *s = file->private_data;

	if (s) {
		kvfree(s->text);
		kfree(s);
	}
	return 0;
}

static char *triage_policy_snapshot(size_t *len)
{
	const struct triage_loaded *l;
	char *text;

	/* the loaders' mutex, not RCU: a big policy is copied to vmalloc */
	mutex_lock(&triage_load_mutex);
	l = rcu_dereference_protected(triage_active,
				      lockdep_is_held(&triage_load_mutex));
	*len = l ? l->text_len : 0;
	text = kvmalloc(*len + 1, GFP_KERNEL);
	if (text && l)
		memcpy(text, l->text, *len);
	mutex_unlock(&triage_load_mutex);
	return text;
}

static int triage_policy_open(struct inode *inode, struct file *file)
{
	size_t len;
	char *text;

	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	if (!(file->f_mode & FMODE_READ))
		return 0;
	text = triage_policy_snapshot(&len);
	return triage_snapshot_open(inode, file, text, len);
}

/*
 * A policy arrives in one write at offset 0: a policy is never assembled
 * from the pieces of two writers, and a short write cannot half-load one.
 */
static ssize_t triage_policy_write(struct file *file, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	char *text;
	int rc;

	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	if (*ppos != 0)
		return -EINVAL;
	if (len > TRIAGE_POLICY_MAX_SIZE)
		return -E2BIG;
	text = vmemdup_user(ubuf, len);
	if (IS_ERR(text))
		return PTR_ERR(text);
	rc = triage_load_policy(text, len);
	kvfree(text);
	if (rc)
		return rc;
	*ppos = len;
	return len;
}

static const struct file_operations triage_policy_fops = {
	.open		= triage_policy_open,
	.read		= triage_snapshot_read,
	.write		= triage_policy_write,
	.release	= triage_snapshot_release,
	.llseek		= generic_file_llseek,
};

static int triage_load_error_open(struct inode *inode, struct file *file)
{
	size_t len = 0;
	char *text;

	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	text = kvmalloc(160, GFP_KERNEL);
	if (text) {
		len = triage_load_error(text, 158);
		if (len)
			text[len++] = '\n';
	}
	return triage_snapshot_open(inode, file, text, len);
}

static const struct file_operations triage_load_error_fops = {
	.open		= triage_load_error_open,
	.read		= triage_snapshot_read,
	.release	= triage_snapshot_release,
	.llseek		= generic_file_llseek,
};

static ssize_t triage_mode_read(struct file *file, char __user *buf,
				size_t count, loff_t *ppos)
{
	char text[16];
	int len;

	len = scnprintf(text, sizeof(text), "%s\n",
			triage_mode_name(triage_get_mode()));
	return simple_read_from_buffer(buf, count, ppos, text, len);
}

/* Anybody may read the mode; only CAP_MAC_ADMIN may open it to write */
static int triage_mode_open(struct inode *inode, struct file *file)
{
	if ((file->f_mode & FMODE_WRITE) && !capable(CAP_MAC_ADMIN))
		return -EPERM;
	return 0;
}

static ssize_t triage_mode_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	char text[16];
	int mode;

	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	if (*ppos != 0 || len >= sizeof(text))
		return -EINVAL;
	if (copy_from_user(text, ubuf, len))
		return -EFAULT;
	text[len] = '\0';
	strim(text);
	for (mode = TRIAGE_MODE_ENFORCE; mode <= TRIAGE_MODE_PERMISSIVE; mode++)
		if (!strcmp(text, triage_mode_name(mode)))
			break;
	if (mode > TRIAGE_MODE_PERMISSIVE)
		return -EINVAL;
	triage_set_mode(mode);
	return len;
}

static const struct file_operations triage_mode_fops = {
	.open		= triage_mode_open,
	.read		= triage_mode_read,
	.write		= triage_mode_write,
	.llseek		= generic_file_llseek,
};

static int triage_stats_open(struct inode *inode, struct file *file)
{
	const struct triage_counters *c = &triage_counters;
	const struct triage_loaded *l;
	size_t size = 1024, len;
	unsigned int i, rules;
	char *text;

	rcu_read_lock();
	l = rcu_dereference(triage_active);
	rules = l ? l->policy->nr_rules : 0;
	rcu_read_unlock();
	size += (size_t)rules * 40;
	text = kvmalloc(size, GFP_KERNEL);
	if (!text)
		return -ENOMEM;

	rcu_read_lock();
	l = rcu_dereference(triage_active);
	len = scnprintf(text, size,
			"policy_generation %u\npolicy_hash %016llx\n"
			"policy_load_time %lld\npolicy_rules %u\nmode %s\n"
			"oom_select_hook %s\n",
			l ? l->generation : 0, l ? l->hash : 0,
			l ? (long long)l->load_time : 0LL,
			l ? l->policy->nr_rules : 0,
			triage_mode_name(triage_get_mode()),
			security_oom_select_wanted() ? "on" : "off");
	len += scnprintf(text + len, size - len,
			 "oom_events %ld\nprotected_skipped %ld\nsacrificed %ld\n"
			 "adjusted %ld\nlabel_misses %ld\nlabels_learnt %ld\n"
			 "fallbacks %ld\ngroup_kills %ld\n"
			 "audit_drops %ld\ntable_rebuilds %ld\nprotection_refusals %ld\n"
			 "early_kills %ld\nearly_refusals %ld\n"
			 "resolved_tasks %u\nunlabelled_tasks %u\n"
			 "selection_ns_last %llu\nselection_ns_max %llu\n",
			 atomic_long_read(&c->oom_events),
			 atomic_long_read(&c->protected_skipped),
			 atomic_long_read(&c->sacrificed),
			 atomic_long_read(&c->adjusted),
			 atomic_long_read(&c->label_misses),
			 atomic_long_read(&c->labels_learnt),
			 atomic_long_read(&c->fallbacks),
			 atomic_long_read(&c->group_kills),
			 atomic_long_read(&c->audit_drops),
			 atomic_long_read(&c->table_rebuilds),
			 atomic_long_read(&oom_protection_refusals),
			 atomic_long_read(&c->early_kills),
			 atomic_long_read(&c->early_refusals),
			 READ_ONCE(c->resolved_tasks),
			 READ_ONCE(c->unlabelled_tasks),
			 READ_ONCE(c->selection_ns_last),
			 READ_ONCE(c->selection_ns_max));
	for (i = 0; l && i < l->policy->nr_rules && i < rules; i++)
		len += scnprintf(text + len, size - len, "rule %u hits %ld\n",
				 i + 1, atomic_long_read(&l->hits[i]));
	rcu_read_unlock();
	return triage_snapshot_open(inode, file, text, len);
}

static const struct file_operations triage_stats_fops = {
	.open		= triage_stats_open,
	.read		= triage_snapshot_read,
	.release	= triage_snapshot_release,
	.llseek		= generic_file_llseek,
};

static int triage_ranking_open(struct inode *inode, struct file *file)
{
	size_t len;
	char *text;

	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	text = triage_ranking_text(&len);
	return triage_snapshot_open(inode, file, text, len);
}

static const struct file_operations triage_ranking_fops = {
	.open		= triage_ranking_open,
	.read		= triage_snapshot_read,
	.release	= triage_snapshot_release,
	.llseek		= generic_file_llseek,
};

/* A victim's pid as the reader's pid namespace sees it, 0 if it does not */
static pid_t triage_pid_for_reader(pid_t nr, struct pid_namespace *ns)
{
	struct pid *pid;
	pid_t vnr;

	if (ns == &init_pid_ns)
		return nr;
	rcu_read_lock();
	pid = find_pid_ns(nr, &init_pid_ns);
	vnr = pid ? pid_nr_ns(pid, ns) : 0;
	rcu_read_unlock();
	return vnr;
}

static int triage_decisions_open(struct inode *inode, struct file *file)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct triage_snapshot *s;
	struct triage_decision *d;
	size_t size, len;
	unsigned int n, i;
	char **labels;
	char *text;
	int rc;
	u64 seq;

	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	d = kcalloc(TRIAGE_DECISIONS, sizeof(*d), GFP_KERNEL);
	labels = kcalloc(TRIAGE_DECISIONS, sizeof(*labels), GFP_KERNEL);
	if (!d || !labels) {
		kfree(d);
		kfree(labels);
		return -ENOMEM;
	}
	seq = triage_decisions_seq();
	n = triage_copy_decisions(d, TRIAGE_DECISIONS);
	size = 128;
	for (i = 0; i < n; i++) {
		labels[i] = triage_secid_label(d[i].secid);
		size += 256 + 4 * TASK_COMM_LEN +
			4 * (labels[i] ? strlen(labels[i]) : 1);
	}
	text = kvmalloc(size, GFP_KERNEL);
	if (!text) {
		len = 0;
		goto out;
	}
	len = scnprintf(text, size,
			"# seq\ttime\tmode\tscope\tpid\tpoints\tverdict\trule\toutcome\tlabel\tcomm\tgroup\n");
	for (i = 0; i < n; i++) {
		pid_t pid = triage_pid_for_reader(d[i].pid, ns);
		char rule[12] = "-", vpid[12] = "-";

		if (d[i].rule >= 0)
			snprintf(rule, sizeof(rule), "%d", d[i].rule + 1);
		if (pid)
			snprintf(vpid, sizeof(vpid), "%d", pid);
		len += scnprintf(text + len, size - len,
				 "%llu\t%llu.%09llu\t%s\t%s\t%s\t%ld\t%s\t%s\t%s\t",
				 d[i].seq, d[i].time_ns / NSEC_PER_SEC,
				 d[i].time_ns % NSEC_PER_SEC,
				 triage_mode_name(d[i].mode),
				 triage_scope_name(&d[i]), vpid,
				 d[i].points, triage_verdict_name(d[i].verdict),
				 rule, triage_outcome_names[d[i].outcome]);
		len += triage_escape(text + len, size - len,
				     labels[i] ? labels[i] : "?");
		len += scnprintf(text + len, size - len, "\t");
		len += triage_escape(text + len, size - len, d[i].comm);
		len += scnprintf(text + len, size - len, "\t%u\n", d[i].group);
	}
out:
	for (i = 0; i < n; i++)
		kfree(labels[i]);
	kfree(labels);
	kfree(d);
	rc = triage_snapshot_open(inode, file, text, len);
	if (rc)
		return rc;
	s = file->private_data;
	s->seq = seq;
	return 0;
}

/*
 * Readable always, like a file; EPOLLPRI (and EPOLLERR, as sysfs_notify()
 * gives) once a decision newer than the snapshot was recorded: the reader
 * then opens the file again.  A reader that polls never misses one
 * unnoticed; the sequence numbers tell it which the ring dropped.
 */
static __poll_t triage_decisions_poll(struct file *file, poll_table *wait)
{
	struct triage_snapshot *s = file->private_data;
	__poll_t mask = EPOLLIN | EPOLLRDNORM;

	poll_wait(file, &triage_decisions_wait, wait);
	if (triage_decisions_seq() > s->seq)
		mask |= EPOLLPRI | EPOLLERR;
	return mask;
}

static const struct file_operations triage_decisions_fops = {
	.open		= triage_decisions_open,
	.read		= triage_snapshot_read,
	.poll		= triage_decisions_poll,
	.release	= triage_snapshot_release,
	.llseek		= generic_file_llseek,
};

static int triage_pressure_open(struct inode *inode, struct file *file)
{
	size_t len = 0;
	char *text;

	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	if (!(file->f_mode & FMODE_READ))
		return 0;
	text = triage_pressure_text(&len);
	return triage_snapshot_open(inode, file, text, len);
}

/*
 * "fire GENERATION STATEMENT": the PSI trigger of that pressure statement
 * fired; kill early in its scope.  One request per write.
 */
static ssize_t triage_pressure_write(struct file *file,
				     const char __user *ubuf, size_t len,
				     loff_t *ppos)
{
	char buf[48], word[8];
	unsigned int nr;
	u64 generation;
	int n, rc;

	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	if (*ppos != 0 || !len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%7s %llu %u%n", word, &generation, &nr, &n) != 3 ||
	    strcmp(word, "fire") || (buf[n] && strcmp(buf + n, "\n")))
		return -EINVAL;
	rc = triage_pressure_fire(generation, nr);
	return rc ? rc : len;
}

static const struct file_operations triage_pressure_fops = {
	.open		= triage_pressure_open,
	.read		= triage_snapshot_read,
	.write		= triage_pressure_write,
	.release	= triage_snapshot_release,
	.llseek		= generic_file_llseek,
};

static int __init triage_fs_init(void)
{
	static const struct {
		const char *name;
		umode_t mode;
		const struct file_operations *fops;
	} files[] = {
		{ "policy", 0644, &triage_policy_fops },
		{ "load_error", 0444, &triage_load_error_fops },
		{ "mode", 0644, &triage_mode_fops },
		{ "stats", 0444, &triage_stats_fops },
		{ "ranking", 0444, &triage_ranking_fops },
		{ "decisions", 0444, &triage_decisions_fops },
		{ "pressure", 0600, &triage_pressure_fops },
	};
	struct dentry *dir, *f;
	unsigned int i;

	if (!triage_enabled)
		return 0;
	dir = securityfs_create_dir("triage", NULL);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		f = securityfs_create_file(files[i].name, files[i].mode, dir,
					   NULL, files[i].fops);
		if (IS_ERR(f)) {
			securityfs_remove(dir);
			return PTR_ERR(f);
		}
	}
	return 0;
}
fs_initcall(triage_fs_init);
