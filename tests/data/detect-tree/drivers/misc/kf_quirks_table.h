/* SPDX-License-Identifier: GPL-2.0 */
{ PCI_DEVICE(0x1d6c, 0x0001) },
#define KF_QUIRK(dev) \
{ \
	/* the body goes on
	 * over several lines
	 */ \
	PCI_DEVICE(0x2a39, dev) \
}
KF_QUIRK(0x3f8c),
KF_QUIRK(0x3fa0),
#undef KF_QUIRK
