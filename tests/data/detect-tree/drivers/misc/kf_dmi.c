// SPDX-License-Identifier: GPL-2.0
/* dmi_system_id: only the table named in MODULE_DEVICE_TABLE(dmi, ...)
 * gives aliases; file2alias orders the fields by its own dmi_fields list
 * and drops spaces and ':' from the strings. */
#include <linux/dmi.h>
#include <linux/module.h>

static int kf_quirk(const struct dmi_system_id *id)
{
	return 0;
}

static const struct dmi_system_id kf_dmi_table[] = {
	{
		.callback = kf_quirk,
		.ident = "ThinkPad X1",
		.matches = {
			DMI_MATCH(DMI_SYS_VENDOR, "LENOVO"),
			DMI_MATCH(DMI_PRODUCT_VERSION, "ThinkPad X1: Carbon"),
		},
	},
	{
		/* bvn comes before rn whatever the order here */
		.matches = {
			DMI_EXACT_MATCH(DMI_BOARD_NAME, "Board 1"),
			DMI_MATCH(DMI_BIOS_VENDOR, "coreboot"),
		},
	},
	{
		/* positional; the product serial is no field of the alias */
		NULL, "positional", {
			DMI_MATCH(DMI_CHASSIS_TYPE, "10"),
			DMI_MATCH(DMI_PRODUCT_SERIAL, "123"),
		},
	},
	{ }
};
MODULE_DEVICE_TABLE(dmi, kf_dmi_table);

/* not exported: no aliases (like the many __initconst quirk tables) */
static const struct dmi_system_id kf_dmi_quirks[] __initconst = {
	{ .matches = { DMI_MATCH(DMI_SYS_VENDOR, "Quirky") } },
	{ }
};
