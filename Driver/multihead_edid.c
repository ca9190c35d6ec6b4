/*
 * Multihead's Xorg video driver: what an EDID a client hands the driver must be before the server's
 * parser sees it. What the driver is, and its license (MIT): multihead_drv.c and README.md.
 *
 * Xorg's EDID code trusts its input: xf86InterpretEDID takes the extension count from byte 126 as a
 * signed char and every later walk (xf86ForEachDetailedBlock, xf86OutputSetEDID, the CEA video blocks)
 * reads that many 128-byte blocks; a CEA block's data offset (byte 2) and data block lengths are followed
 * as given; each display range descriptor is appended to a fixed array of eight in xf86ProbeOutputModes.
 * So the driver takes only EDIDs whose every one of those numbers stays inside what was sent. The
 * server reads no DisplayID block; the driver does (its timings: mh_edid_displayid_timings), so a
 * DisplayID block's section and data blocks must stay inside it too.
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
#define DISPLAYID_TAG 0x70
#define DISPLAYID_HEADER 5
/* A block's 128 bytes less the section's header, its checksum byte and the block's checksum. */
#define DISPLAYID_MAX_SECTION (BLOCK - DISPLAYID_HEADER - 2)
#define DISPLAYID_TYPE_I 0x03
#define DISPLAYID_TYPE_I_SIZE 20

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

/* Checks a DisplayID extension block: its section and each data block (a 3-byte header and the payload
 * its byte 2 counts) stay inside it. */
static enum mh_edid_fault
check_displayid(const unsigned char *block)
{
    int end = DISPLAYID_HEADER + block[2];
    int at;

    if (block[2] > DISPLAYID_MAX_SECTION)
        return MH_EDID_DISPLAYID_SECTION;
    for (at = DISPLAYID_HEADER; at < end; at += 3 + block[at + 2]) {
        if (at + 3 > end || at + 3 + block[at + 2] > end)
            return MH_EDID_DISPLAYID_DATA_BLOCK;
    }
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

        enum mh_edid_fault fault = MH_EDID_OK;

        if (block[0] == CEA_TAG)
            fault = check_cea(block, &ranges);
        else if (block[0] == DISPLAYID_TAG)
            fault = check_displayid(block);
        if (fault != MH_EDID_OK)
            return fault;
    }
    if (ranges > 1)
        return MH_EDID_RANGE_DESCRIPTORS;
    return MH_EDID_OK;
}

/* A little-endian 16-bit field of a type I timing, plus one (DisplayID stores each value less one);
 * the offsets' top bit is their sync polarity, masked off here. */
static int
field(const unsigned char *d, int at, int mask)
{
    return ((d[at] | d[at + 1] << 8) & mask) + 1;
}

int
mh_edid_displayid_timings(const unsigned char *edid, int length, struct mh_edid_timing *timings, int max)
{
    int count = 0, block;

    if (!edid || length < BLOCK || mh_edid_check(edid, length) != MH_EDID_OK)
        return 0;
    for (block = 1; block < length / BLOCK; block++) {
        const unsigned char *b = edid + BLOCK * block;
        int end = DISPLAYID_HEADER + b[2];
        int at;

        /* DisplayID 1.x (2.0's timings are of another type). */
        if (b[0] != DISPLAYID_TAG || b[1] >> 4 != 1)
            continue;
        for (at = DISPLAYID_HEADER; at < end; at += 3 + b[at + 2]) {
            int d;

            if (b[at] != DISPLAYID_TYPE_I)
                continue;
            for (d = at + 3; d + DISPLAYID_TYPE_I_SIZE <= at + 3 + b[at + 2]; d += DISPLAYID_TYPE_I_SIZE) {
                const unsigned char *t = b + d;
                struct mh_edid_timing *m = timings + count;

                /* Interlaced timings (bit 4) are not offered: no monitor of ours sends one. */
                if (t[3] & 0x10)
                    continue;
                if (count == max)
                    return count;
                m->clock_khz = ((t[0] | t[1] << 8 | t[2] << 16) + 1) * 10;
                m->hdisplay = field(t, 4, 0xFFFF);
                m->htotal = m->hdisplay + field(t, 6, 0xFFFF);
                m->hsync_start = m->hdisplay + field(t, 8, 0x7FFF);
                m->hsync_end = m->hsync_start + field(t, 10, 0xFFFF);
                m->vdisplay = field(t, 12, 0xFFFF);
                m->vtotal = m->vdisplay + field(t, 14, 0xFFFF);
                m->vsync_start = m->vdisplay + field(t, 16, 0x7FFF);
                m->vsync_end = m->vsync_start + field(t, 18, 0xFFFF);
                m->hsync_positive = (t[9] & 0x80) != 0;
                m->vsync_positive = (t[17] & 0x80) != 0;
                m->preferred = (t[3] & 0x80) != 0;
                count++;
            }
        }
    }
    return count;
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
    case MH_EDID_DISPLAYID_SECTION: return "a DisplayID block's section is longer than the block";
    case MH_EDID_DISPLAYID_DATA_BLOCK: return "a DisplayID data block runs past its section";
    }
    return "unknown";
}
