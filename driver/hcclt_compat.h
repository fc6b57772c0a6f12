/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: the differences between the kernels we build for, in one
 * place. Everything else in the driver is version-independent.
 *
 * - Kernels with CONFIG_DRM_ACCEL (6.2 and later): a compute accelerator
 *   (DRIVER_COMPUTE_ACCEL, /dev/accel/accelN, accel_open()).
 *   DRIVER_COMPUTE_ACCEL is an enum member, so it cannot be tested with
 *   #ifdef; the Kconfig symbol, which only such kernels have, decides.
 * - Other kernels (Debian's 6.1): a render-only DRM driver
 *   (DRIVER_RENDER, /dev/dri/renderDN).
 * - Either way a GEM driver (device memory, hcclt_mem.c) with the DRM file
 *   operations of DEFINE_DRM_GEM_FOPS / DEFINE_DRM_ACCEL_FOPS.
 * - struct platform_driver.remove returns void from 6.11 on (probed by
 *   Kbuild, which greps the kernel's platform_device.h).
 * - struct drm_driver lost .date in 6.14 (probed by Kbuild in
 *   drm_drv.h); from_timer() became timer_container_of() in 6.16.
 * - drm_show_fdinfo() and drm_file.client_id came in 6.5 (probed by Kbuild
 *   in drm_file.h); before, the fops print the fdinfo keys themselves.
 * - The DRM device's debugfs directory: drm_device.debugfs_root where it
 *   exists (probed by Kbuild in drm_device.h; 6.12:
 *   /sys/kernel/debug/accel/<unique>/), else the node's minor's
 *   (6.1: /sys/kernel/debug/dri/<render minor>/).
 */
#ifndef _HCCLT_COMPAT_H_
#define _HCCLT_COMPAT_H_

#include <linux/fs.h>
#include <linux/platform_device.h>
#include <linux/timer.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>

#if IS_ENABLED(CONFIG_DRM_ACCEL)
#include <drm/drm_accel.h>

#define HCCLT_DRIVER_FEATURES	(DRIVER_COMPUTE_ACCEL | DRIVER_GEM | \
				 DRIVER_SYNCOBJ | DRIVER_SYNCOBJ_TIMELINE)
#define HCCLT_NODE_KIND		"accel"
#define HCCLT_FOPS_OPEN		accel_open
#else
#define HCCLT_DRIVER_FEATURES	(DRIVER_RENDER | DRIVER_GEM | \
				 DRIVER_SYNCOBJ | DRIVER_SYNCOBJ_TIMELINE)
#define HCCLT_NODE_KIND		"render"
#define HCCLT_FOPS_OPEN		drm_open
#endif

/*
 * 6.12 made drm_open_helper() refuse file operations without
 * FOP_UNSIGNED_OFFSET (a #define, where it exists).
 */
#ifdef FOP_UNSIGNED_OFFSET
#define HCCLT_FOPS_FLAGS	.fop_flags = FOP_UNSIGNED_OFFSET,
#else
#define HCCLT_FOPS_FLAGS
#endif

/*
 * DEFINE_DRM_ACCEL_FOPS / DEFINE_DRM_GEM_FOPS, with .mmap = drm_gem_mmap
 * for the memory objects (DRIVER_GEM gives the device the GEM offset
 * manager it needs). The ioctl entry points are hcclt_ioctl() and
 * hcclt_compat_ioctl(), which refuse the DRM core ioctls an hcclthread
 * client has no use for before drm_ioctl() sees them (hcclt_drv.c) and
 * serve the syncobj ioctls with a handle array themselves
 * (hcclt_syncobj_ioctl.c).
 */
#define HCCLT_DEFINE_FOPS(name)					\
	static const struct file_operations name = {		\
		.owner		= THIS_MODULE,			\
		.open		= HCCLT_FOPS_OPEN,		\
		.release	= drm_release,			\
		.unlocked_ioctl	= hcclt_ioctl,			\
		.compat_ioctl	= hcclt_compat_ioctl,		\
		.poll		= drm_poll,			\
		.read		= drm_read,			\
		.mmap		= drm_gem_mmap,			\
		.llseek		= noop_llseek,			\
		HCCLT_FOPS_FLAGS				\
		HCCLT_FOPS_SHOW_FDINFO				\
	}

/*
 * The return type of struct platform_driver.remove; HCCLT_VOID_REMOVE is
 * set by the Kbuild probe on kernels where it is void (6.11 and later).
 * A remove function ends with "return HCCLT_REMOVE_DONE;".
 */
#ifdef HCCLT_VOID_REMOVE
#define hcclt_remove_ret	void
#define HCCLT_REMOVE_DONE
#else
#define hcclt_remove_ret	int
#define HCCLT_REMOVE_DONE	0
#endif

/*
 * HCCLT_DRM_DATE(d): the .date initialiser of struct drm_driver, on
 * kernels whose struct has it (HCCLT_DRM_HAS_DATE, set by the Kbuild probe).
 */
#ifdef HCCLT_DRM_HAS_DATE
#define HCCLT_DRM_DATE(d)	.date = (d),
#else
#define HCCLT_DRM_DATE(d)
#endif

/*
 * HCCLT_DRM_GEM_PRIME_MMAP: drm_driver.gem_prime_mmap on kernels that map
 * an exported dma-buf only through it (before 6.6; HCCLT_CHANNEL_BUFFER's
 * dma-buf of a peer's HCCL buffer); later ones call funcs->mmap directly.
 */
#ifdef HCCLT_DRM_HAS_GEM_PRIME_MMAP
#define HCCLT_DRM_GEM_PRIME_MMAP	.gem_prime_mmap = drm_gem_prime_mmap,
#else
#define HCCLT_DRM_GEM_PRIME_MMAP
#endif

/*
 * fdinfo (Documentation/gpu/drm-usage-stats.rst, hcclt_fdinfo.c): from 6.5
 * drm_show_fdinfo() prints drm-driver and drm-client-id and calls
 * drm_driver.show_fdinfo; on older kernels (6.1) the fops' own
 * hcclt_fops_show_fdinfo() prints the same keys, with a client id the
 * driver counts itself.
 */
#ifdef HCCLT_DRM_SHOW_FDINFO
#define HCCLT_FOPS_SHOW_FDINFO		.show_fdinfo = drm_show_fdinfo,
#define HCCLT_DRM_SHOW_FDINFO_CB(fn)	.show_fdinfo = (fn),
#else
struct seq_file;
void hcclt_fops_show_fdinfo(struct seq_file *m, struct file *f);
#define HCCLT_FOPS_SHOW_FDINFO		.show_fdinfo = hcclt_fops_show_fdinfo,
#define HCCLT_DRM_SHOW_FDINFO_CB(fn)
#endif

#ifdef HCCLT_DRM_DEV_DEBUGFS
#define hcclt_drm_debugfs_root(drm)	((drm)->debugfs_root)
#elif IS_ENABLED(CONFIG_DRM_ACCEL)
#define hcclt_drm_debugfs_root(drm)	((drm)->accel->debugfs_root)
#else
#define hcclt_drm_debugfs_root(drm)	((drm)->render->debugfs_root)
#endif

#ifndef timer_container_of
#define timer_container_of(var, timer, field)	from_timer(var, timer, field)
#endif

#endif /* _HCCLT_COMPAT_H_ */
