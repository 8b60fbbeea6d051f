// SPDX-License-Identifier: GPL-2.0
/* "kf_aux.h" is in drivers/misc, found through the Makefile's ccflags -I */
#include <linux/auxiliary_bus.h>
#include "kf_aux.h"

static const struct auxiliary_device_id kf_inc_id_table[] = {
	{ .name = KF_ADEV_NAME ".inc", },
	{},
};
MODULE_DEVICE_TABLE(auxiliary, kf_inc_id_table);
