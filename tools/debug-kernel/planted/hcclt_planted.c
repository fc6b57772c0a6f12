// SPDX-License-Identifier: GPL-2.0
/*
 * hcclt_planted - deliberately broken module that proves the debug kernel's
 * checkers fire. Never load it anywhere but in the debug-kernel VM.
 *
 * insmod hcclt_planted.ko bug=<name>, one bug per boot:
 *   none     load and unload cleanly (the control case)
 *   kasan    slab out-of-bounds read       -> "BUG: KASAN: slab-out-of-bounds"
 *   uaf      use after free                -> "BUG: KASAN: use-after-free"
 *   lockdep  AB-BA lock order              -> "possible circular locking dependency"
 *   sleep    mutex_lock() under a spinlock
 *            -> "BUG: sleeping function called from invalid context"
 *   ubsan    shift by 40 of an int         -> "UBSAN: shift-out-of-bounds"
 *   leak     kmalloc'd at load, never freed at unload -> kmemleak report
 *            (its backtrace points into this module's freed text)
 *   list     list_add of an entry twice    -> "list_add double add"
 *   nonstatic a lock whose key lockdep was never given, in heap memory
 *            -> "INFO: trying to register non-static key", after which
 *            lockdep turns itself off for the rest of the boot
 *   errleak  the debugfs "alloc" file leaks its first allocation when the
 *            second one fails: only fault injection finds it
 *
 * Every bug value also creates <debugfs>/hcclt_planted/alloc: each write
 * allocates two objects and frees them, or fails with -ENOMEM; a stress
 * target for faultinject.sh.
 */
#include <linux/compiler.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

static char *bug = "none";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "which bug to plant: none|kasan|uaf|lockdep|sleep|ubsan|leak|list|nonstatic|errleak");

/* hcclt_planted_a/b: protect nothing; a lock-order cycle, a mutex in atomic */
static DEFINE_MUTEX(hcclt_planted_a);
static DEFINE_MUTEX(hcclt_planted_b);
/* hcclt_planted_spin: protects nothing; held around a sleep on purpose */
static DEFINE_SPINLOCK(hcclt_planted_spin);

static void *hcclt_planted_kept;
static struct dentry *hcclt_planted_dir;
static atomic_long_t hcclt_planted_ok;
static atomic_long_t hcclt_planted_enomem;

static ssize_t hcclt_planted_alloc_write(struct file *file, const char __user *buf,
					 size_t count, loff_t *ppos)
{
	void *a = kmalloc(64, GFP_KERNEL);
	void *b = kmalloc(128, GFP_KERNEL);

	if (!a || !b) {
		if (strcmp(bug, "errleak"))
			kfree(a);
		kfree(b);
		atomic_long_inc(&hcclt_planted_enomem);
		return -ENOMEM;
	}
	kfree(b);
	kfree(a);
	atomic_long_inc(&hcclt_planted_ok);
	return count;
}

static const struct file_operations hcclt_planted_alloc_fops = {
	.owner = THIS_MODULE,
	.write = hcclt_planted_alloc_write,
	.llseek = noop_llseek,
};

static noinline void hcclt_planted_kasan(void)
{
	char *p = kmalloc(16, GFP_KERNEL);
	int i = 16;

	OPTIMIZER_HIDE_VAR(i);
	if (!p)
		return;
	pr_info("hcclt_planted: read %d\n", p[i]);
	kfree(p);
}

static noinline void hcclt_planted_uaf(void)
{
	char *p = kmalloc(32, GFP_KERNEL);
	int i = 3;

	OPTIMIZER_HIDE_VAR(i);
	if (!p)
		return;
	kfree(p);
	pr_info("hcclt_planted: read %d\n", p[i]);
}

static noinline void hcclt_planted_lockdep(void)
{
	mutex_lock(&hcclt_planted_a);
	mutex_lock(&hcclt_planted_b);
	mutex_unlock(&hcclt_planted_b);
	mutex_unlock(&hcclt_planted_a);

	mutex_lock(&hcclt_planted_b);
	mutex_lock(&hcclt_planted_a);
	mutex_unlock(&hcclt_planted_a);
	mutex_unlock(&hcclt_planted_b);
}

static noinline void hcclt_planted_sleep(void)
{
	spin_lock(&hcclt_planted_spin);
	mutex_lock(&hcclt_planted_a);
	mutex_unlock(&hcclt_planted_a);
	spin_unlock(&hcclt_planted_spin);
}

static noinline void hcclt_planted_ubsan(void)
{
	int s = 40;
	int v = 1;

	OPTIMIZER_HIDE_VAR(s);
	OPTIMIZER_HIDE_VAR(v);
	pr_info("hcclt_planted: shifted %d\n", v << s);
}

static noinline void hcclt_planted_leak(void)
{
	hcclt_planted_kept = kzalloc(200, GFP_KERNEL);
}

static noinline void hcclt_planted_list(void)
{
	static LIST_HEAD(head);
	static struct list_head e;

	list_add(&e, &head);
	list_add(&e, &head);
	list_del_init(&e);
}

static noinline void hcclt_planted_nonstatic(void)
{
#ifdef CONFIG_LOCKDEP
	struct lockdep_map *map = kzalloc(sizeof(*map), GFP_KERNEL);

	if (!map)
		return;
	map->name = "hcclt_planted_nonstatic";
	lock_map_acquire(map);
	lock_map_release(map);
	kfree(map);
#endif
}

static int __init hcclt_planted_init(void)
{
	pr_info("hcclt_planted: planting '%s'\n", bug);
	if (!strcmp(bug, "kasan"))
		hcclt_planted_kasan();
	else if (!strcmp(bug, "uaf"))
		hcclt_planted_uaf();
	else if (!strcmp(bug, "lockdep"))
		hcclt_planted_lockdep();
	else if (!strcmp(bug, "sleep"))
		hcclt_planted_sleep();
	else if (!strcmp(bug, "ubsan"))
		hcclt_planted_ubsan();
	else if (!strcmp(bug, "leak"))
		hcclt_planted_leak();
	else if (!strcmp(bug, "list"))
		hcclt_planted_list();
	else if (!strcmp(bug, "nonstatic"))
		hcclt_planted_nonstatic();
	else if (strcmp(bug, "none") && strcmp(bug, "errleak"))
		return -EINVAL;
	hcclt_planted_dir = debugfs_create_dir("hcclt_planted", NULL);
	debugfs_create_file("alloc", 0200, hcclt_planted_dir, NULL,
			    &hcclt_planted_alloc_fops);
	return 0;
}

static void __exit hcclt_planted_exit(void)
{
	/* bug=leak: hcclt_planted_kept is dropped here, never freed. */
	debugfs_remove_recursive(hcclt_planted_dir);
	pr_info("hcclt_planted: unloaded (alloc: %ld ok, %ld -ENOMEM)\n",
		atomic_long_read(&hcclt_planted_ok),
		atomic_long_read(&hcclt_planted_enomem));
}

module_init(hcclt_planted_init);
module_exit(hcclt_planted_exit);
MODULE_DESCRIPTION("Deliberately buggy module to test the hcclthread debug kernel");
MODULE_LICENSE("GPL");
