/*
 * Multihead's Xorg video driver: what its two files share.
 * What the driver is, and its license (MIT): multihead_drv.c and README.md.
 */
#ifndef MULTIHEAD_H
#define MULTIHEAD_H

#include <xorg-server.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xatom.h>
#include <dix.h>
#include <dixstruct.h>
#include <fb.h>
#include <micmap.h>
#include <mipointer.h>
#include <picturestr.h>
#include <randrstr.h>
#include <xf86.h>
#include <xf86Crtc.h>
#include <xf86DDC.h>
#include <xf86Modes.h>
#include <xf86RandR12.h>
#include <xf86_OSproc.h>

#include "multihead_edid.h"

#define MH_NAME "multihead"
#define MH_VERSION 1
#define MH_OUTPUTS 16

/* One output's cable: what a client set, and the copy the parsed EDID (output->MonInfo) points into. */
typedef struct {
    Bool connected;
    unsigned char *edid;
    int edid_length;
    unsigned char *parsed;
    int parsed_length;
    Atom connected_atom;
    Atom edid_atom;
} MultiheadOutput;

typedef struct {
    void *framebuffer;
    int pitch;
    int max_width;
    int max_height;
    Bool probe_queued;
    CloseScreenProcPtr close_screen;
} MultiheadScreen;

#define MH_SCREEN(scrn) ((MultiheadScreen *) (scrn)->driverPrivate)

/* multihead_outputs.c: the CRTCs and the outputs with their cables. */
Bool mh_outputs_init(ScrnInfoPtr scrn);

#endif
