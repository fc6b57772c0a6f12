/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: the state file in the DRM device's debugfs directory
 * (hcclt_debugfs.c).
 */
#ifndef _HCCLT_DEBUGFS_H_
#define _HCCLT_DEBUGFS_H_

struct hcclt_device;

void hcclt_debugfs_dev_init(struct hcclt_device *hdev);
void hcclt_debugfs_dev_fini(struct hcclt_device *hdev);

#endif /* _HCCLT_DEBUGFS_H_ */
