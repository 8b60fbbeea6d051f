// SPDX-License-Identifier: GPL-2.0
/* ieee1394_device_id (FireWire units) */
#include <linux/firewire.h>

static const struct ieee1394_device_id kf_fw_ids[] = {
	{
		.match_flags	= IEEE1394_MATCH_VENDOR_ID | IEEE1394_MATCH_MODEL_ID,
		.vendor_id	= 0x00a0de,
		.model_id	= 0x10000b,
	},
	{
		.match_flags	= IEEE1394_MATCH_SPECIFIER_ID | IEEE1394_MATCH_VERSION,
		.specifier_id	= 0x00609e,
		.version	= 0x010483,
	},
	{ }
};
MODULE_DEVICE_TABLE(ieee1394, kf_fw_ids);
