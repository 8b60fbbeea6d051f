// SPDX-License-Identifier: GPL-2.0
/* pcmcia_device_id: the product-string hashes are literal in the table
 * (crc32(0, s, strlen(s)), which the PCMCIA core checks at run time). */
#include <pcmcia/device_id.h>
#include <pcmcia/ds.h>

static const struct pcmcia_device_id kf_cs_ids[] = {
	PCMCIA_DEVICE_MANF_CARD(0x0101, 0x0562),
	PCMCIA_DEVICE_FUNC_ID(2),
	PCMCIA_DEVICE_PROD_ID12("KFit Labs", "Modem 56K", 0xfa795064, 0x8af4928c),
	PCMCIA_PFC_DEVICE_PROD_ID13(1, "KFit Labs", "Dual Port", 0xfa795064, 0x361f4765),
	PCMCIA_MFC_DEVICE_MANF_CARD(1, 0x0105, 0xea15),
	PCMCIA_DEVICE_NULL
};
MODULE_DEVICE_TABLE(pcmcia, kf_cs_ids);
