// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's harness for victim selection, not part of the series.
 *
 * scripts/bench appends "#include "oom_select_bench.c"" to mm/oom_kill.c
 * of two private copies of the tree, Debian's unpatched linux-source-6.12
 * and the tree with our series, so that the same code times the same
 * static function, select_bad_process(), in both: the walk over every
 * task that a global OOM makes to choose its victim (with the series, the
 * walk in which the oom_select hook gives each candidate its tier).
 *
 * /proc/oom_select_bench (root only): writing a round count runs that
 * many timed selections under oom_lock, as a global OOM of an order-0
 * GFP_KERNEL allocation with no cpuset or mempolicy would, and kills
 * nothing; reading gives
 *   tasks N rounds R median_ns M min_ns M chosen PID
 * Under QEMU's -icount shift=0 the guest's clock advances one nanosecond
 * per guest instruction, so the same figures are instruction counts.
 */

#include <linux/proc_fs.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#define OOM_BENCH_MAX_ROUNDS	64

static char oom_bench_result[128];
static DEFINE_MUTEX(oom_bench_mutex);

static int oom_bench_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static ssize_t oom_bench_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct oom_control oc = {
		.gfp_mask = GFP_KERNEL,
		.order = 0,
	};
	u64 ns[OOM_BENCH_MAX_ROUNDS], start;
	unsigned int rounds, i, tasks = 0;
	struct task_struct *p;
	pid_t chosen = 0;
	int rc;

	rc = kstrtouint_from_user(ubuf, count, 10, &rounds);
	if (rc)
		return rc;
	rounds = clamp(rounds, 1U, (unsigned int)OOM_BENCH_MAX_ROUNDS);
	oc.totalpages = totalram_pages() + total_swap_pages;

	for (i = 0; i < rounds; i++) {
		mutex_lock(&oom_lock);
		start = ktime_get_ns();
		select_bad_process(&oc);
		ns[i] = ktime_get_ns() - start;
		if (oc.chosen && oc.chosen != (void *)-1UL) {
			chosen = task_pid_nr(oc.chosen);
			put_task_struct(oc.chosen);
		}
		oc.chosen = NULL;
		mutex_unlock(&oom_lock);
		cond_resched();
	}
	sort(ns, rounds, sizeof(u64), oom_bench_cmp, NULL);

	rcu_read_lock();
	for_each_process(p)
		tasks++;
	rcu_read_unlock();

	mutex_lock(&oom_bench_mutex);
	scnprintf(oom_bench_result, sizeof(oom_bench_result),
		  "tasks %u rounds %u median_ns %llu min_ns %llu chosen %d\n",
		  tasks, rounds, ns[rounds / 2], ns[0], chosen);
	mutex_unlock(&oom_bench_mutex);
	return count;
}

static ssize_t oom_bench_read(struct file *file, char __user *buf,
			      size_t count, loff_t *ppos)
{
	ssize_t rc;

	mutex_lock(&oom_bench_mutex);
	rc = simple_read_from_buffer(buf, count, ppos, oom_bench_result,
				     strlen(oom_bench_result));
	mutex_unlock(&oom_bench_mutex);
	return rc;
}

static const struct proc_ops oom_bench_proc_ops = {
	.proc_read	= oom_bench_read,
	.proc_write	= oom_bench_write,
	.proc_lseek	= default_llseek,
};

static int __init oom_bench_init(void)
{
	return proc_create("oom_select_bench", 0600, NULL,
			   &oom_bench_proc_ops) ? 0 : -ENOMEM;
}
late_initcall(oom_bench_init);
