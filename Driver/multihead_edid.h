/*
 * Multihead's Xorg video driver: the check of an EDID a client sets (multihead_edid.c).
 * What the driver is, and its license (MIT): multihead_drv.c and README.md.
 */
#ifndef MULTIHEAD_EDID_H
#define MULTIHEAD_EDID_H

/* An EDID's base block and at most 127 extension blocks (the server counts them in a signed char). */
#define MH_EDID_MAX (128 * 128)

enum mh_edid_fault {
    MH_EDID_OK = 0,
    MH_EDID_LENGTH,
    MH_EDID_HEADER,
    MH_EDID_VERSION,
    MH_EDID_EXTENSION_COUNT,
    MH_EDID_LENGTH_MISMATCH,
    MH_EDID_CEA_OFFSET,
    MH_EDID_CEA_DATA_BLOCK,
    MH_EDID_RANGE_DESCRIPTORS,
};

/* MH_EDID_OK when the server's EDID code can parse `edid` without reading or writing past what it
 * holds (length 0: no EDID); else the first fault found. Checksums are not checked (real monitors
 * send bad ones; the server ignores them). */
enum mh_edid_fault mh_edid_check(const unsigned char *edid, int length);

/* A fault in words, for the server's log. */
const char *mh_edid_fault_text(enum mh_edid_fault fault);

#endif
