// SPDX-License-Identifier: GPL-2.0
#include <linux/auxiliary_bus.h>
#include "kf_aux.h"

static const struct auxiliary_device_id kf_aux_id_table[] = {
	{ .name = KBUILD_MODNAME ".eth", },
	{ .name = KF_ADEV_NAME ".rdma", },
	{},
};
MODULE_DEVICE_TABLE(auxiliary, kf_aux_id_table);
