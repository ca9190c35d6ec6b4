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
#include "multihead.h"

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

    /* The configuration's Virtual size is the largest the screen can be: the framebuffer's. */
    ms->max_width = scrn->display->virtualX > 0 ? scrn->display->virtualX : 8192;
    ms->max_height = scrn->display->virtualY > 0 ? scrn->display->virtualY : 8192;
    xf86CrtcConfigInit(scrn, &mh_config_funcs);
    xf86CrtcSetSizeRange(scrn, 8, 8, ms->max_width, ms->max_height);
    if (!mh_outputs_init(scrn))
        return FALSE;
    /* Every cable starts unplugged. Without a Virtual size the core starts the screen as a real server
     * with nothing connected does (1024x768, or the NoOutputInitialSize option), not at the framebuffer's
     * size: a screen the size of its monitors once they are plugged (RandR grows it), and a root window
     * whose first paint touches only its own pages. */
    scrn->display->virtualX = 0;
    scrn->display->virtualY = 0;
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
    /* The four rotations (a portrait monitor), no reflections or transforms: nothing is scanned out, so a
     * turned CRTC needs no shadow buffer; RandR gives it the turned size in the root window. */
    xf86RandR12SetRotations(screen, RR_Rotate_0 | RR_Rotate_90 | RR_Rotate_180 | RR_Rotate_270);
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

/* The hash of the source this module was built from, set by its builder (the kit, Scripts/package): the
 * kit uses a prebuilt module only when it was built from the source the kit carries. */
#ifndef MH_SOURCE_HASH
#define MH_SOURCE_HASH "unknown"
#endif
__attribute__((used)) static const char mh_source_hash[] = "multihead-driver-source-hash=" MH_SOURCE_HASH;

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
