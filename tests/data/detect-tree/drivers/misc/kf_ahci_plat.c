// SPDX-License-Identifier: GPL-2.0
/* A platform driver with the name of a PCI driver in another module (as
 * ahci_platform's "ahci" beside ahci.c's): a PCI device bound to "kf_ahci"
 * is never this module's. */
static const struct of_device_id kf_ahci_of_match[] = {
	{ .compatible = "kfit,ahci" },
	{ }
};
MODULE_DEVICE_TABLE(of, kf_ahci_of_match);

static struct platform_driver kf_ahci_plat_driver = {
	.driver = {
		.name = "kf_ahci",
		.of_match_table = kf_ahci_of_match,
	},
};
