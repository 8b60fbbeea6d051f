// SPDX-License-Identifier: GPL-2.0
/* A watchdog matched by its OpenFirmware node name alone, as SPARC's cpwd
 * ({ .name = "watchdog" }): it claims a node named so without compatible
 * strings, not a flattened device tree's node that has them. */
static const struct of_device_id kf_sparcwd_match[] = {
	{ .name = "watchdog" },
	{},
};
MODULE_DEVICE_TABLE(of, kf_sparcwd_match);
