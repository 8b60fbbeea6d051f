// SPDX-License-Identifier: GPL-2.0
#include <linux/soundwire/sdw.h>

static const struct sdw_device_id kf_sdw_id[] = {
	SDW_SLAVE_ENTRY_EXT(0x025d, 0x711, 0x3, 0x1, 0),
	SDW_SLAVE_ENTRY(0x025d, 0x5682, 0),
	{},
};
MODULE_DEVICE_TABLE(sdw, kf_sdw_id);
