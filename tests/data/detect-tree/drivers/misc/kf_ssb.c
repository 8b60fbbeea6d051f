// SPDX-License-Identifier: GPL-2.0
#include <linux/ssb/ssb.h>

static const struct ssb_device_id kf_ssb_tbl[] = {
	SSB_DEVICE(SSB_VENDOR_BROADCOM, SSB_DEV_80211, 5),
	SSB_DEVICE(SSB_VENDOR_BROADCOM, SSB_DEV_80211, SSB_ANY_REV),
	{ 0, },
};
MODULE_DEVICE_TABLE(ssb, kf_ssb_tbl);
