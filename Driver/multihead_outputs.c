/*
 * Multihead's Xorg video driver: the CRTCs, and the outputs with their cables.
 * What the driver is, and its license (MIT): multihead_drv.c and README.md.
 */
#include "multihead.h"

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

    /* Immutable: a client changes their values (through set_property) but cannot delete them, nor
     * configure them anew; a cable without its properties could never be plugged again. */
    o->connected_atom = MakeAtom("MULTIHEAD_CONNECTED", strlen("MULTIHEAD_CONNECTED"), TRUE);
    RRConfigureOutputProperty(output->randr_output, o->connected_atom, FALSE, TRUE, TRUE, 2, range);
    RRChangeOutputProperty(output->randr_output, o->connected_atom, XA_INTEGER, 32, PropModeReplace, 1,
                           &value, FALSE, FALSE);
    o->edid_atom = MakeAtom("MULTIHEAD_EDID", strlen("MULTIHEAD_EDID"), TRUE);
    RRConfigureOutputProperty(output->randr_output, o->edid_atom, FALSE, FALSE, TRUE, 0, NULL);
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
        enum mh_edid_fault fault;

        if (value->type != XA_INTEGER || value->format != 8 || value->size > MH_EDID_MAX)
            return FALSE;
        fault = mh_edid_check(value->data, (int) value->size);
        if (fault != MH_EDID_OK) {
            xf86DrvMsg(output->scrn->scrnIndex, X_WARNING, "%s: EDID refused: %s\n", output->name,
                       mh_edid_fault_text(fault));
            return FALSE;
        }
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

/* The EDID's DisplayID timings as modes, added to `modes` (the base block's, as the server read them):
 * Xorg reads no DisplayID block, and a 5K, 8K or 4K-at-144-Hz monitor describes its mode only there. A
 * preferred DisplayID timing is the monitor's native mode: the base block's then stop being preferred. */
#define MH_DISPLAYID_MODES 16
static DisplayModePtr
mh_output_add_displayid_modes(xf86OutputPtr output, DisplayModePtr modes)
{
    MultiheadOutput *o = output->driver_private;
    struct mh_edid_timing timings[MH_DISPLAYID_MODES];
    int count = mh_edid_displayid_timings(o->parsed, o->parsed_length, timings, MH_DISPLAYID_MODES);
    int i;

    for (i = 0; i < count; i++) {
        const struct mh_edid_timing *t = timings + i;
        DisplayModePtr mode = calloc(1, sizeof(DisplayModeRec));

        if (!mode)
            break;
        mode->Clock = t->clock_khz;
        mode->HDisplay = t->hdisplay;
        mode->HSyncStart = t->hsync_start;
        mode->HSyncEnd = t->hsync_end;
        mode->HTotal = t->htotal;
        mode->VDisplay = t->vdisplay;
        mode->VSyncStart = t->vsync_start;
        mode->VSyncEnd = t->vsync_end;
        mode->VTotal = t->vtotal;
        mode->Flags = (t->hsync_positive ? V_PHSYNC : V_NHSYNC) | (t->vsync_positive ? V_PVSYNC : V_NVSYNC);
        mode->type = M_T_DRIVER;
        if (t->preferred) {
            DisplayModePtr m;

            for (m = modes; m; m = m->next)
                m->type &= ~M_T_PREFERRED;
            mode->type |= M_T_PREFERRED;
        }
        xf86SetModeDefaultName(mode);
        modes = xf86ModesAdd(modes, mode);
    }
    return modes;
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
        return mh_output_add_displayid_modes(output, xf86OutputGetEDIDModes(output));
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
    /* Checked when it was set: its length is its extension count's. */
    monitor->flags |= EDID_COMPLETE_RAWDATA;
    xf86OutputSetEDID(output, monitor);
    free(o->parsed);
    o->parsed = copy;
    o->parsed_length = o->edid_length;
    return mh_output_add_displayid_modes(output, xf86OutputGetEDIDModes(output));
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

/* Creates the CRTCs and the outputs, every cable out. */
Bool
mh_outputs_init(ScrnInfoPtr scrn)
{
    int i;

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
    return TRUE;
}
