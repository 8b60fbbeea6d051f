// SPDX-License-Identifier: GPL-2.0
/* the same struct under MODULE_DEVICE_TABLE(mhi_ep, ...): "mhi_ep:" */
#include <linux/mhi_ep.h>

static const struct mhi_device_id kf_mhi_ep_match[] = {
	{ .chan = "IPCR" },
	{}
};
MODULE_DEVICE_TABLE(mhi_ep, kf_mhi_ep_match);
