// SPDX-License-Identifier: GPL-2.0
/* An AMBA (primecell) driver: amba_id entries with whole, cleared and
 * partial nibbles of the mask (file2alias.c's append_nibble_mask: a
 * digit, '?', or the digits the mask allows in brackets), as
 * amba-pl011.c's table (the PL011 of the Raspberry Pi 4 is 0x00241011);
 * its name is nested in .drv. */
static const struct amba_id kf_amba_ids[] = {
	{
		.id	= 0x00041011,
		.mask	= 0x000fffff,
	},
	{ 0x00380802, 0x00ffffff, NULL },
	{ .id = 0x01041080, .mask = 0x0f0ffffe },
	{ 0, 0 },
};
MODULE_DEVICE_TABLE(amba, kf_amba_ids);

static struct amba_driver kf_amba_driver = {
	.drv = {
		.name	= "kf-uart",
	},
	.id_table	= kf_amba_ids,
};
