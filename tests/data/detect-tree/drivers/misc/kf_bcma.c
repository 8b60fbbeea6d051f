// SPDX-License-Identifier: GPL-2.0
#include <linux/bcma/bcma.h>

static const struct bcma_device_id kf_bcma_tbl[] = {
	BCMA_CORE(BCMA_MANUF_BCM, BCMA_CORE_80211, 0x11, BCMA_ANY_CLASS),
	BCMA_CORE(BCMA_MANUF_BCM, BCMA_ANY_ID, BCMA_ANY_REV, 0x2),
	{},
};
MODULE_DEVICE_TABLE(bcma, kf_bcma_tbl);
