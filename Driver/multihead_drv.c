/*
 * Multihead's Xorg video driver: sixteen outputs (DP-1…DP-8, HDMI-1…HDMI-8) whose cables a client
 * plugs and unplugs, for testing monitor hotplug without hardware.
 *
 * Each output has two output properties a client sets with RRChangeOutputProperty:
 *   MULTIHEAD_EDID       INTEGER/8: the monitor's EDID (a multiple of 128 bytes; empty: none)
 *   MULTIHEAD_CONNECTED  INTEGER/32: 1 with a cable, 0 without
 * A change is re-probed as a real connector's hotplug is (RRGetInfo): clients get RROutputChangeNotify
 * and RRScreenChangeNotify, the output's connection, its EDID property (set from MULTIHEAD_EDID) and its
 * modes (the EDID's) follow. The framebuffer is memory of ours; nothing is scanned out.
 *
 * Copyright (c) 2026 the Multihead authors
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
 * associated documentation files (the "Software"), to deal in the Software without restriction,
 * including without limitation the rights to use, copy, modify, merge, publish, distribute,
 * sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all copies or
 * substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
 * NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 * NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
 * OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
 * CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 */
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

#define MH_NAME "multihead"
#define MH_VERSION 1
#define MH_OUTPUTS 16
/* An EDID's base block and at most 255 extension blocks. */
#define MH_EDID_MAX (128 * 256)

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

/* ---- The re-probe a cable change asks for ---- */

/* Runs from the server's work queue, outside the request that changed the cable: RRGetInfo probes
 * every output again (detect, get_modes) and tells clients what changed. */
static Bool
mh_reprobe(ClientPtr client, void *closure)
{
    ScreenPtr screen = closure;
    ScrnInfoPtr scrn = xf86ScreenToScrn(screen);

    MH_SCREEN(scrn)->probe_queued = FALSE;
    RRGetInfo(screen, TRUE);
    return TRUE;
}

static void
mh_queue_reprobe(ScrnInfoPtr scrn)
{
    MultiheadScreen *ms = MH_SCREEN(scrn);

    if (ms->probe_queued || !scrn->pScreen)
        return;
    ms->probe_queued = QueueWorkProc(mh_reprobe, serverClient, scrn->pScreen);
}

/* ---- CRTCs: a mode is remembered (the core stores it), nothing is programmed ---- */

static void
mh_crtc_dpms(xf86CrtcPtr crtc, int mode)
{
}

static Bool
mh_crtc_set_mode_major(xf86CrtcPtr crtc, DisplayModePtr mode, Rotation rotation, int x, int y)
{
    return TRUE;
}

/* RandR keeps the ramps a client sets; there is no hardware to load them into. */
static void
mh_crtc_gamma_set(xf86CrtcPtr crtc, CARD16 *red, CARD16 *green, CARD16 *blue, int size)
{
}

static void
mh_crtc_destroy(xf86CrtcPtr crtc)
{
}

static const xf86CrtcFuncsRec mh_crtc_funcs = {
    .dpms = mh_crtc_dpms,
    .set_mode_major = mh_crtc_set_mode_major,
    .gamma_set = mh_crtc_gamma_set,
    .destroy = mh_crtc_destroy,
};

/* ---- Outputs: connection and modes from what a client set ---- */

static void
mh_output_create_resources(xf86OutputPtr output)
{
    MultiheadOutput *o = output->driver_private;
    INT32 range[2] = { 0, 1 };
    INT32 value = o->connected;

    o->connected_atom = MakeAtom("MULTIHEAD_CONNECTED", strlen("MULTIHEAD_CONNECTED"), TRUE);
    RRConfigureOutputProperty(output->randr_output, o->connected_atom, FALSE, TRUE, FALSE, 2, range);
    RRChangeOutputProperty(output->randr_output, o->connected_atom, XA_INTEGER, 32, PropModeReplace, 1,
                           &value, FALSE, FALSE);
    o->edid_atom = MakeAtom("MULTIHEAD_EDID", strlen("MULTIHEAD_EDID"), TRUE);
    RRConfigureOutputProperty(output->randr_output, o->edid_atom, FALSE, FALSE, FALSE, 0, NULL);
    RRChangeOutputProperty(output->randr_output, o->edid_atom, XA_INTEGER, 8, PropModeReplace, 0, NULL,
                           FALSE, FALSE);
}

static Bool
mh_output_set_property(xf86OutputPtr output, Atom property, RRPropertyValuePtr value)
{
    MultiheadOutput *o = output->driver_private;

    if (property == o->connected_atom) {
        INT32 connected;

        if (value->type != XA_INTEGER || value->format != 32 || value->size != 1)
            return FALSE;
        connected = *(INT32 *) value->data;
        if (connected != 0 && connected != 1)
            return FALSE;
        o->connected = connected;
        mh_queue_reprobe(output->scrn);
        return TRUE;
    }
    if (property == o->edid_atom) {
        unsigned char *copy = NULL;

        if (value->type != XA_INTEGER || value->format != 8 || value->size % 128 != 0 ||
            value->size > MH_EDID_MAX)
            return FALSE;
        if (value->size > 0) {
            copy = malloc(value->size);
            if (!copy)
                return FALSE;
            memcpy(copy, value->data, value->size);
        }
        free(o->edid);
        o->edid = copy;
        o->edid_length = value->size;
        if (o->connected)
            mh_queue_reprobe(output->scrn);
        return TRUE;
    }
    return TRUE;
}

static Bool
mh_output_get_property(xf86OutputPtr output, Atom property)
{
    return TRUE;
}

static xf86OutputStatus
mh_output_detect(xf86OutputPtr output)
{
    MultiheadOutput *o = output->driver_private;

    return o->connected ? XF86OutputStatusConnected : XF86OutputStatusDisconnected;
}

/* Drops the parsed EDID (and the EDID property with it), then the copy it pointed into. */
static void
mh_output_forget_edid(xf86OutputPtr output)
{
    MultiheadOutput *o = output->driver_private;

    xf86OutputSetEDID(output, NULL);
    free(o->parsed);
    o->parsed = NULL;
    o->parsed_length = 0;
}

/* A monitor that sends no EDID: what a driver offers for one. */
static DisplayModePtr
mh_output_fallback_mode(void)
{
    DisplayModePtr mode = xf86CVTMode(1024, 768, 60, FALSE, FALSE);

    if (!mode)
        return NULL;
    /* xf86CVTMode leaves the name empty in some servers (21.1, built on libxcvt). */
    if (!mode->name)
        xf86SetModeDefaultName(mode);
    mode->type = M_T_DRIVER | M_T_PREFERRED;
    return mode;
}

static DisplayModePtr
mh_output_get_modes(xf86OutputPtr output)
{
    MultiheadOutput *o = output->driver_private;
    unsigned char *copy;
    xf86MonPtr monitor;

    if (!o->connected) {
        mh_output_forget_edid(output);
        return NULL;
    }
    if (o->edid_length == 0) {
        mh_output_forget_edid(output);
        return mh_output_fallback_mode();
    }
    /* The same monitor as at the last probe (any client's XRRGetScreenResources probes): as it was. */
    if (output->MonInfo && o->parsed && o->parsed_length == o->edid_length &&
        memcmp(o->parsed, o->edid, o->edid_length) == 0)
        return xf86OutputGetEDIDModes(output);
    /* The parsed EDID keeps a pointer into the bytes it was made from: a copy of its own. */
    copy = malloc(o->edid_length);
    if (!copy)
        return NULL;
    memcpy(copy, o->edid, o->edid_length);
    monitor = xf86InterpretEDID(output->scrn->scrnIndex, copy);
    if (!monitor) {
        free(copy);
        mh_output_forget_edid(output);
        return mh_output_fallback_mode();
    }
    if (o->edid_length >= 128 * (1 + monitor->no_sections))
        monitor->flags |= EDID_COMPLETE_RAWDATA;
    xf86OutputSetEDID(output, monitor);
    free(o->parsed);
    o->parsed = copy;
    o->parsed_length = o->edid_length;
    return xf86OutputGetEDIDModes(output);
}

static void
mh_output_dpms(xf86OutputPtr output, int mode)
{
}

static int
mh_output_mode_valid(xf86OutputPtr output, DisplayModePtr mode)
{
    return MODE_OK;
}

static Bool
mh_output_mode_fixup(xf86OutputPtr output, DisplayModePtr mode, DisplayModePtr adjusted)
{
    return TRUE;
}

static void
mh_output_prepare(xf86OutputPtr output)
{
}

static void
mh_output_commit(xf86OutputPtr output)
{
}

static void
mh_output_mode_set(xf86OutputPtr output, DisplayModePtr mode, DisplayModePtr adjusted)
{
}

static void
mh_output_destroy(xf86OutputPtr output)
{
    MultiheadOutput *o = output->driver_private;

    if (!o)
        return;
    /* The core does not free the parsed EDID: it goes here, before the bytes it points into. */
    free(output->MonInfo);
    output->MonInfo = NULL;
    free(o->edid);
    free(o->parsed);
    free(o);
    output->driver_private = NULL;
}

static const xf86OutputFuncsRec mh_output_funcs = {
    .create_resources = mh_output_create_resources,
    .dpms = mh_output_dpms,
    .mode_valid = mh_output_mode_valid,
    .mode_fixup = mh_output_mode_fixup,
    .prepare = mh_output_prepare,
    .commit = mh_output_commit,
    .mode_set = mh_output_mode_set,
    .detect = mh_output_detect,
    .get_modes = mh_output_get_modes,
    .set_property = mh_output_set_property,
    .get_property = mh_output_get_property,
    .destroy = mh_output_destroy,
};

/* ---- The screen ---- */

/* The framebuffer is allocated once at its largest; a new size is a new view of it (same pitch). */
static Bool
mh_resize(ScrnInfoPtr scrn, int width, int height)
{
    MultiheadScreen *ms = MH_SCREEN(scrn);
    ScreenPtr screen = xf86ScrnToScreen(scrn);

    if (width > ms->max_width || height > ms->max_height)
        return FALSE;
    scrn->virtualX = width;
    scrn->virtualY = height;
    if (screen && ms->framebuffer) {
        PixmapPtr pixmap = screen->GetScreenPixmap(screen);

        if (!screen->ModifyPixmapHeader(pixmap, width, height, -1, -1, ms->pitch, NULL))
            return FALSE;
    }
    return TRUE;
}

static const xf86CrtcConfigFuncsRec mh_config_funcs = {
    .resize = mh_resize,
};

static Bool
mh_pre_init(ScrnInfoPtr scrn, int flags)
{
    MultiheadScreen *ms;
    int i;

    if (flags & PROBE_DETECT)
        return FALSE;
    if (scrn->numEntities != 1)
        return FALSE;
    ms = calloc(1, sizeof(MultiheadScreen));
    if (!ms)
        return FALSE;
    scrn->driverPrivate = ms;
    scrn->monitor = scrn->confScreen->monitor;

    if (!xf86SetDepthBpp(scrn, 0, 0, 0, Support24bppFb | Support32bppFb))
        return FALSE;
    if (scrn->depth != 8 && scrn->depth != 15 && scrn->depth != 16 && scrn->depth != 24) {
        xf86DrvMsg(scrn->scrnIndex, X_ERROR, "depth %d is not supported (8, 15, 16 or 24)\n", scrn->depth);
        return FALSE;
    }
    xf86PrintDepthBpp(scrn);
    if (scrn->depth > 8) {
        rgb zeros = { 0, 0, 0 };

        if (!xf86SetWeight(scrn, zeros, zeros))
            return FALSE;
    }
    if (!xf86SetDefaultVisual(scrn, -1))
        return FALSE;
    {
        Gamma zeros = { 0.0, 0.0, 0.0 };

        if (!xf86SetGamma(scrn, zeros))
            return FALSE;
    }
    xf86CollectOptions(scrn, NULL);
    scrn->progClock = TRUE;
    scrn->rgbBits = 8;
    scrn->chipset = (char *) MH_NAME;

    /* The configuration's Virtual size is the largest the screen can be. */
    ms->max_width = scrn->display->virtualX > 0 ? scrn->display->virtualX : 8192;
    ms->max_height = scrn->display->virtualY > 0 ? scrn->display->virtualY : 8192;
    xf86CrtcConfigInit(scrn, &mh_config_funcs);
    xf86CrtcSetSizeRange(scrn, 8, 8, ms->max_width, ms->max_height);
    for (i = 0; i < MH_OUTPUTS; i++) {
        if (!xf86CrtcCreate(scrn, &mh_crtc_funcs))
            return FALSE;
    }
    for (i = 0; i < MH_OUTPUTS; i++) {
        char name[16];
        xf86OutputPtr output;
        MultiheadOutput *o = calloc(1, sizeof(MultiheadOutput));

        if (!o)
            return FALSE;
        snprintf(name, sizeof(name), i < MH_OUTPUTS / 2 ? "DP-%d" : "HDMI-%d", i % (MH_OUTPUTS / 2) + 1);
        output = xf86OutputCreate(scrn, &mh_output_funcs, name);
        if (!output) {
            free(o);
            return FALSE;
        }
        output->driver_private = o;
        output->possible_crtcs = (1 << MH_OUTPUTS) - 1;
        output->possible_clones = 0;
    }
    /* Every cable starts unplugged: the screen comes up at its Virtual size with nothing lit. */
    if (!xf86InitialConfiguration(scrn, TRUE)) {
        xf86DrvMsg(scrn->scrnIndex, X_ERROR, "no initial configuration\n");
        return FALSE;
    }
    scrn->displayWidth = ms->max_width;
    if (!scrn->modes) {
        xf86DrvMsg(scrn->scrnIndex, X_ERROR, "no modes\n");
        return FALSE;
    }
    scrn->currentMode = scrn->modes;
    xf86SetDpi(scrn, 0, 0);
    if (!xf86LoadSubModule(scrn, "fb"))
        return FALSE;
    return TRUE;
}

static Bool
mh_save_screen(ScreenPtr screen, int mode)
{
    return TRUE;
}

static Bool
mh_close_screen(ScreenPtr screen)
{
    ScrnInfoPtr scrn = xf86ScreenToScrn(screen);
    MultiheadScreen *ms = MH_SCREEN(scrn);
    Bool closed;

    screen->CloseScreen = ms->close_screen;
    closed = (*screen->CloseScreen) (screen);
    /* fb's CloseScreen freed the screen pixmap, not the memory under it. */
    free(ms->framebuffer);
    ms->framebuffer = NULL;
    scrn->vtSema = FALSE;
    return closed;
}

static Bool
mh_screen_init(ScreenPtr screen, int argc, char **argv)
{
    ScrnInfoPtr scrn = xf86ScreenToScrn(screen);
    MultiheadScreen *ms = MH_SCREEN(scrn);

    ms->pitch = ((scrn->displayWidth * scrn->bitsPerPixel / 8) + 3) & ~3;
    /* Pages untouched stay unallocated: a large Virtual size costs only what is drawn. */
    ms->framebuffer = calloc(ms->pitch, ms->max_height);
    if (!ms->framebuffer)
        return FALSE;
    miClearVisualTypes();
    if (!miSetVisualTypes(scrn->depth, miGetDefaultVisualMask(scrn->depth), scrn->rgbBits, scrn->defaultVisual))
        return FALSE;
    if (!miSetPixmapDepths())
        return FALSE;
    if (!fbScreenInit(screen, ms->framebuffer, scrn->virtualX, scrn->virtualY, scrn->xDpi, scrn->yDpi,
                      scrn->displayWidth, scrn->bitsPerPixel))
        return FALSE;
    if (scrn->bitsPerPixel > 8) {
        VisualPtr visual = screen->visuals + screen->numVisuals;

        while (--visual >= screen->visuals) {
            if ((visual->class | DynamicClass) == DirectColor) {
                visual->offsetRed = scrn->offset.red;
                visual->offsetGreen = scrn->offset.green;
                visual->offsetBlue = scrn->offset.blue;
                visual->redMask = scrn->mask.red;
                visual->greenMask = scrn->mask.green;
                visual->blueMask = scrn->mask.blue;
            }
        }
    }
    if (!fbPictureInit(screen, NULL, 0))
        return FALSE;
    xf86SetBlackWhitePixels(screen);
    xf86SetBackingStore(screen);
    miDCInitialize(screen, xf86GetPointerScreenFuncs());
    scrn->vtSema = TRUE;
    screen->SaveScreen = mh_save_screen;
    ms->close_screen = screen->CloseScreen;
    screen->CloseScreen = mh_close_screen;
    if (!xf86CrtcScreenInit(screen))
        return FALSE;
    /* No rotation or transforms: a CRTC here has no shadow buffer to turn. */
    xf86RandR12SetRotations(screen, RR_Rotate_0);
    xf86RandR12SetTransformSupport(screen, FALSE);
    if (!miCreateDefColormap(screen))
        return FALSE;
    return xf86SetDesiredModes(scrn);
}

static Bool
mh_switch_mode(ScrnInfoPtr scrn, DisplayModePtr mode)
{
    return xf86SetSingleMode(scrn, mode, RR_Rotate_0);
}

static void
mh_adjust_frame(ScrnInfoPtr scrn, int x, int y)
{
}

static Bool
mh_enter_vt(ScrnInfoPtr scrn)
{
    return TRUE;
}

static void
mh_leave_vt(ScrnInfoPtr scrn)
{
}

static void
mh_free_screen(ScrnInfoPtr scrn)
{
    free(scrn->driverPrivate);
    scrn->driverPrivate = NULL;
}

static ModeStatus
mh_valid_mode(ScrnInfoPtr scrn, DisplayModePtr mode, Bool verbose, int flags)
{
    return MODE_OK;
}

/* ---- The driver and its module ---- */

static void
mh_identify(int flags)
{
    xf86Msg(X_INFO, "%s: sixteen outputs whose cables clients plug\n", MH_NAME);
}

/* No console, no hardware: the server needs no VT, so it runs as any user. */
static Bool
mh_driver_func(ScrnInfoPtr scrn, xorgDriverFuncOp op, void *data)
{
    if (op == GET_REQUIRED_HW_INTERFACES) {
        *(xorgHWFlags *) data = HW_SKIP_CONSOLE;
        return TRUE;
    }
    return FALSE;
}

static Bool mh_probe(DriverPtr driver, int flags);

static DriverRec MULTIHEAD = {
    .driverVersion = MH_VERSION,
    .driverName = MH_NAME,
    .Identify = mh_identify,
    .Probe = mh_probe,
    .driverFunc = mh_driver_func,
};

static Bool
mh_probe(DriverPtr driver, int flags)
{
    GDevPtr *sections;
    int count = xf86MatchDevice(MH_NAME, &sections);
    Bool found = FALSE;
    int i;

    if (count <= 0)
        return FALSE;
    if (flags & PROBE_DETECT) {
        free(sections);
        return TRUE;
    }
    for (i = 0; i < count; i++) {
        int entity = xf86ClaimNoSlot(driver, 0, sections[i], TRUE);
        ScrnInfoPtr scrn = xf86AllocateScreen(driver, 0);

        if (!scrn)
            continue;
        xf86AddEntityToScreen(scrn, entity);
        scrn->driverVersion = MH_VERSION;
        scrn->driverName = (char *) MH_NAME;
        scrn->name = (char *) MH_NAME;
        scrn->Probe = mh_probe;
        scrn->PreInit = mh_pre_init;
        scrn->ScreenInit = mh_screen_init;
        scrn->SwitchMode = mh_switch_mode;
        scrn->AdjustFrame = mh_adjust_frame;
        scrn->EnterVT = mh_enter_vt;
        scrn->LeaveVT = mh_leave_vt;
        scrn->FreeScreen = mh_free_screen;
        scrn->ValidMode = mh_valid_mode;
        found = TRUE;
    }
    free(sections);
    return found;
}

static XF86ModuleVersionInfo mh_version_info = {
    MH_NAME,
    "Multihead",
    MODINFOSTRING1,
    MODINFOSTRING2,
    XORG_VERSION_CURRENT,
    1, 0, 0,
    ABI_CLASS_VIDEODRV,
    ABI_VIDEODRV_VERSION,
    MOD_CLASS_VIDEODRV,
    { 0, 0, 0, 0 },
};

static void *
mh_setup(void *module, void *options, int *major, int *minor)
{
    static Bool added = FALSE;

    if (added) {
        if (major)
            *major = LDR_ONCEONLY;
        return NULL;
    }
    added = TRUE;
    xf86AddDriver(&MULTIHEAD, module, HaveDriverFuncs);
    return (void *) 1;
}

_X_EXPORT XF86ModuleData multiheadModuleData = { &mh_version_info, mh_setup, NULL };
