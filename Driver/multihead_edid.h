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
    MH_EDID_DISPLAYID_SECTION,
    MH_EDID_DISPLAYID_DATA_BLOCK,
};

/* A detailed timing of a DisplayID extension block, in X's terms (what a mode line holds). */
struct mh_edid_timing {
    int clock_khz;
    int hdisplay, hsync_start, hsync_end, htotal;
    int vdisplay, vsync_start, vsync_end, vtotal;
    int hsync_positive, vsync_positive, preferred;
};

/* MH_EDID_OK when the server's EDID code can parse `edid` without reading or writing past what it
 * holds (length 0: no EDID); else the first fault found. Checksums are not checked (real monitors
 * send bad ones; the server ignores them). */
enum mh_edid_fault mh_edid_check(const unsigned char *edid, int length);

/* The progressive type I detailed timings (DisplayID 1.x) of the DisplayID extension blocks of an EDID
 * that mh_edid_check passed, in their order, at most `max` of them into `timings`; returns how many.
 * Xorg's own EDID code reads no DisplayID block: these are the modes of 4096 pixels and more a side, or
 * past 655.35 MHz, that a base block cannot hold. */
int mh_edid_displayid_timings(const unsigned char *edid, int length, struct mh_edid_timing *timings, int max);

/* A fault in words, for the server's log. */
const char *mh_edid_fault_text(enum mh_edid_fault fault);

#endif
