// SPDX-License-Identifier: GPL-2.0
/* A UART of the 8250 family on a device tree (as 8250_bcm2835aux): the
 * console chosen/stdout-path names. */
static const struct of_device_id kf_dtuart_match[] = {
	{ .compatible = "kfit,dt-uart" },
	{ },
};
MODULE_DEVICE_TABLE(of, kf_dtuart_match);
