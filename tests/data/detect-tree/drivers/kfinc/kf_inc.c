// SPDX-License-Identifier: GPL-2.0
/* "kf_aux.h" and <kf_inc_ids.h> are in drivers/misc, found through the
 * Makefile's ccflags -I (brcmfmac's <brcm_hw_ids.h>) */
#include <linux/auxiliary_bus.h>
#include <kf_inc_ids.h>
#include "kf_aux.h"

static const struct auxiliary_device_id kf_inc_id_table[] = {
	{ .name = KF_ADEV_NAME ".inc", },
	{ .name = KF_ADEV_NAME KF_INC_SUFFIX, },
	{},
};
MODULE_DEVICE_TABLE(auxiliary, kf_inc_id_table);
