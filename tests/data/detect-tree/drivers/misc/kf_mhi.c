// SPDX-License-Identifier: GPL-2.0
#include <linux/mhi.h>

static const struct mhi_device_id kf_mhi_match[] = {
	{ .chan = "IPCR" },
	{ .chan = "QMI", .driver_data = 1 },
	{},
};
MODULE_DEVICE_TABLE(mhi, kf_mhi_match);
