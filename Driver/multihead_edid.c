/*
 * Multihead's Xorg video driver: what an EDID a client hands the driver must be before the server's
 * parser sees it. What the driver is, and its license (MIT): multihead_drv.c and README.md.
 *
 * Xorg's EDID code trusts its input: xf86InterpretEDID takes the extension count from byte 126 as a
 * signed char and every later walk (xf86ForEachDetailedBlock, xf86OutputSetEDID, the CEA video blocks)
 * reads that many 128-byte blocks; a CEA block's data offset (byte 2) and data block lengths are followed
 * as given; each display range descriptor is appended to a fixed array of eight in xf86ProbeOutputModes.
 * So the driver takes only EDIDs whose every one of those numbers stays inside what was sent.
 * No X server header here: the check is a pure function, and the suite compiles it on its own.
 */
#include "multihead_edid.h"

#include <string.h>

#define BLOCK 128
#define EXTENSION_COUNT 126
#define CEA_TAG 0x02
#define CEA_FIRST_DATA 4
#define CEA_LAST_OFFSET 127
#define DESCRIPTOR 18
#define RANGE_DESCRIPTOR 0xFD

static const unsigned char header[8] = { 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00 };

/* Whether an 18-byte descriptor is a display range limits descriptor (a display descriptor: clock 0). */
static int
is_range_descriptor(const unsigned char *d)
{
    return d[0] == 0 && d[1] == 0 && d[2] == 0 && d[3] == RANGE_DESCRIPTOR;
}

/* Checks a CEA-861 extension block: its detailed timings' offset and its data blocks stay inside it.
 * Counts its display range descriptors into *ranges. */
static enum mh_edid_fault
check_cea(const unsigned char *block, int *ranges)
{
    int offset = block[2];
    int at;

    /* 0: no detailed timings and no data blocks; else the data blocks run from byte 4 up to it. */
    if (offset == 0)
        return MH_EDID_OK;
    if (offset < CEA_FIRST_DATA || offset > CEA_LAST_OFFSET)
        return MH_EDID_CEA_OFFSET;
    for (at = CEA_FIRST_DATA; at < offset; at += 1 + (block[at] & 0x1F)) {
        if (at + 1 + (block[at] & 0x1F) > offset)
            return MH_EDID_CEA_DATA_BLOCK;
    }
    /* The detailed timings after the data blocks, as far as the server reads them. */
    for (at = offset; at + DESCRIPTOR <= CEA_LAST_OFFSET; at += DESCRIPTOR)
        *ranges += is_range_descriptor(block + at);
    return MH_EDID_OK;
}

enum mh_edid_fault
mh_edid_check(const unsigned char *edid, int length)
{
    int extensions, i, ranges = 0;

    if (length == 0)
        return MH_EDID_OK;
    if (!edid || length < BLOCK || length % BLOCK != 0 || length > MH_EDID_MAX)
        return MH_EDID_LENGTH;
    if (memcmp(edid, header, sizeof(header)) != 0)
        return MH_EDID_HEADER;
    if (edid[18] != 1)
        return MH_EDID_VERSION;
    extensions = edid[EXTENSION_COUNT];
    /* The server reads the count as a signed char: 128 and more would be negative there. */
    if (extensions > MH_EDID_MAX / BLOCK - 1)
        return MH_EDID_EXTENSION_COUNT;
    if (length != BLOCK * (1 + extensions))
        return MH_EDID_LENGTH_MISMATCH;
    for (i = 54; i + DESCRIPTOR <= EXTENSION_COUNT; i += DESCRIPTOR)
        ranges += is_range_descriptor(edid + i);
    for (i = 1; i <= extensions; i++) {
        const unsigned char *block = edid + BLOCK * i;

        if (block[0] == CEA_TAG) {
            enum mh_edid_fault fault = check_cea(block, &ranges);

            if (fault != MH_EDID_OK)
                return fault;
        }
    }
    if (ranges > 1)
        return MH_EDID_RANGE_DESCRIPTORS;
    return MH_EDID_OK;
}

const char *
mh_edid_fault_text(enum mh_edid_fault fault)
{
    switch (fault) {
    case MH_EDID_OK: return "valid";
    case MH_EDID_LENGTH: return "not whole 128-byte blocks, or more than 128 of them";
    case MH_EDID_HEADER: return "no EDID header";
    case MH_EDID_VERSION: return "not EDID version 1";
    case MH_EDID_EXTENSION_COUNT: return "more than 127 extension blocks";
    case MH_EDID_LENGTH_MISMATCH: return "its length does not match its extension count (byte 126)";
    case MH_EDID_CEA_OFFSET: return "a CEA block's detailed timing offset is outside the block";
    case MH_EDID_CEA_DATA_BLOCK: return "a CEA data block runs past the detailed timing offset";
    case MH_EDID_RANGE_DESCRIPTORS: return "more than one display range limits descriptor";
    }
    return "unknown";
}
