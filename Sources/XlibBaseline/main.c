/* The raw C/Xlib baseline for Scripts/bench: the same work as the Swift API, without it.
 * Usage: XlibBaseline enumerate N | enumerate-xcb N | enumerate-xcb-edid N | listen | hotplug N | stacking N OPS | hittest VIEWS CALLS
 *        | push W H N FILL [X Y W H] | label W H N X Y W H | animate W H FRAMES | memory W H N | pytestshape N
 *        | gl W H FRAMES WINDOWS (gl.c) | …
 * Prints "median_us=…" (and the figures it measured); DISPLAY and XAUTHORITY pick the server. */
#include <X11/Xlib.h>
#include <X11/extensions/Xrandr.h>
#include <X11/extensions/XShm.h>
#include <X11/Xlib-xcb.h>
#include <xcb/randr.h>
#include <X11/Xutil.h>
#include <cairo/cairo.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <unistd.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double median(double *v, int n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Lock step (MULTIHEAD_BASELINE_STEPPED), defined below: "ready" once set up, then one iteration per line read
 * from stdin, its µs printed after it. */
static void step_ready(void);
static void step_wait(void);
static void step_done(double us);

/* Atom names are cached, as the Swift reader caches them. */
static Atom cached_atoms[64];
static char *cached_names[64];
static int ncached;

static const char *atom_name(Display *d, Atom a) {
    for (int i = 0; i < ncached; i++) if (cached_atoms[i] == a) return cached_names[i];
    char *n = XGetAtomName(d, a);
    if (ncached < 64) { cached_atoms[ncached] = a; cached_names[ncached++] = n; }
    return n;
}

/* One full read: monitors, resources, every output and CRTC, names; returns a checksum. */
static long read_monitors(Display *d, Window root) {
    long sum = 0;
    int n = 0;
    XRRMonitorInfo *m = XRRGetMonitors(d, root, True, &n);
    XRRScreenResources *res = XRRGetScreenResourcesCurrent(d, root);
    if (res) {
        for (int i = 0; i < res->noutput; i++) {
            XRROutputInfo *o = XRRGetOutputInfo(d, res, res->outputs[i]);
            if (o) { sum += o->nmode + o->nameLen; XRRFreeOutputInfo(o); }
        }
        for (int i = 0; i < res->ncrtc; i++) {
            XRRCrtcInfo *c = XRRGetCrtcInfo(d, res, res->crtcs[i]);
            if (c) { sum += c->width; XRRFreeCrtcInfo(c); }
        }
        for (int i = 0; i < res->nmode; i++) sum += res->modes[i].width;
        XRRFreeScreenResources(res);
    }
    for (int i = 0; m && i < n; i++) sum += m[i].width + (long)strlen(atom_name(d, m[i].name));
    if (m) XRRFreeMonitors(m);
    return sum;
}

static int enumerate(int iters) {
    Display *d = XOpenDisplay(NULL);
    if (!d) { fprintf(stderr, "cannot open display\n"); return 69; }
    Window root = DefaultRootWindow(d);
    double *t = calloc(iters, sizeof *t);
    long sum = 0;
    step_ready();
    for (int i = 0; i < iters; i++) {
        step_wait();
        double s = now_us();
        sum += read_monitors(d, root);
        t[i] = now_us() - s;
        step_done(t[i]);
    }
    printf("median_us=%.2f checksum=%ld\n", median(t, iters), sum);
    XCloseDisplay(d);
    return 0;
}

/* A screenshot as a C program takes one: XGetImage of the root over W×H, each pixel into a 0xRRGGBB array. */
static int getimage(int iters, int w, int h) {
    Display *d = XOpenDisplay(NULL);
    if (!d) { fprintf(stderr, "cannot open display\n"); return 69; }
    double *t = calloc(iters, sizeof *t);
    unsigned *out = malloc((size_t)w * h * sizeof *out);
    long sum = 0;
    for (int i = 0; i < iters; i++) {
        double s = now_us();
        XImage *im = XGetImage(d, DefaultRootWindow(d), 0, 0, w, h, AllPlanes, ZPixmap);
        if (!im) return 70;
        for (int y = 0; y < h; y++) {
            const unsigned *row = (const unsigned *)(im->data + (size_t)y * im->bytes_per_line);
            for (int x = 0; x < w; x++) out[(size_t)y * w + x] = row[x] & 0xFFFFFF;
        }
        XDestroyImage(im);
        t[i] = now_us() - s;
        sum += out[(size_t)i % ((size_t)w * h)];
    }
    printf("median_us=%.2f checksum=%ld\n", median(t, iters), sum);
    XCloseDisplay(d);
    return 0;
}

/* The same read pipelined over XCB: {monitors, resources}, then every output's and every CRTC's info in
 * flight together: two round trips whatever the number of outputs. Atom names cached as above.
 * `edid` (an atom, else 0): each output's EDID property is read in the second round trip too, its bytes
 * copied out, as the Swift reader reads them (`enumerate-xcb-edid`: the same server work as the Swift side). */
static long read_monitors_xcb(Display *d, xcb_connection_t *x, xcb_window_t root, xcb_atom_t edid) {
    long sum = 0;
    xcb_randr_get_monitors_cookie_t mc = xcb_randr_get_monitors(x, root, 1);
    xcb_randr_get_screen_resources_current_cookie_t rc = xcb_randr_get_screen_resources_current(x, root);
    xcb_randr_get_monitors_reply_t *m = xcb_randr_get_monitors_reply(x, mc, NULL);
    xcb_randr_get_screen_resources_current_reply_t *res = xcb_randr_get_screen_resources_current_reply(x, rc, NULL);
    if (res) {
        int no = xcb_randr_get_screen_resources_current_outputs_length(res);
        int nc = xcb_randr_get_screen_resources_current_crtcs_length(res);
        xcb_randr_output_t *outs = xcb_randr_get_screen_resources_current_outputs(res);
        xcb_randr_crtc_t *crtcs = xcb_randr_get_screen_resources_current_crtcs(res);
        xcb_randr_get_output_info_cookie_t oc[256];
        xcb_randr_get_output_property_cookie_t ec[256];
        xcb_randr_get_crtc_info_cookie_t cc[256];
        static uint8_t edids[256][256];
        if (no > 256) no = 256;
        if (nc > 256) nc = 256;
        for (int i = 0; i < no; i++) oc[i] = xcb_randr_get_output_info(x, outs[i], res->config_timestamp);
        /* 64 longs: the base block and one extension, as the Swift reader asks. */
        for (int i = 0; edid && i < no; i++) ec[i] = xcb_randr_get_output_property(x, outs[i], edid, XCB_ATOM_INTEGER, 0, 64, 0, 0);
        for (int i = 0; i < nc; i++) cc[i] = xcb_randr_get_crtc_info(x, crtcs[i], res->config_timestamp);
        for (int i = 0; i < no; i++) {
            xcb_randr_get_output_info_reply_t *o = xcb_randr_get_output_info_reply(x, oc[i], NULL);
            if (o) { sum += o->num_modes + o->name_len; free(o); }
        }
        for (int i = 0; edid && i < no; i++) {
            xcb_randr_get_output_property_reply_t *p = xcb_randr_get_output_property_reply(x, ec[i], NULL);
            if (!p) continue;
            int n = xcb_randr_get_output_property_data_length(p);
            if (p->format == 8 && n > 0) {
                if (n > 256) n = 256;
                memcpy(edids[i], xcb_randr_get_output_property_data(p), n);
                sum += n + edids[i][n - 1];
            }
            free(p);
        }
        for (int i = 0; i < nc; i++) {
            xcb_randr_get_crtc_info_reply_t *c = xcb_randr_get_crtc_info_reply(x, cc[i], NULL);
            if (c) { sum += c->width; free(c); }
        }
        xcb_randr_mode_info_t *modes = xcb_randr_get_screen_resources_current_modes(res);
        for (int i = 0; i < xcb_randr_get_screen_resources_current_modes_length(res); i++) sum += modes[i].width;
        free(res);
    }
    if (m) {
        for (xcb_randr_monitor_info_iterator_t it = xcb_randr_get_monitors_monitors_iterator(m); it.rem; xcb_randr_monitor_info_next(&it))
            sum += it.data->width + (long)strlen(atom_name(d, it.data->name));
        free(m);
    }
    return sum;
}

static int enumerate_xcb(int iters, int with_edid) {
    Display *d = XOpenDisplay(NULL);
    if (!d) { fprintf(stderr, "cannot open display\n"); return 69; }
    xcb_connection_t *x = XGetXCBConnection(d);
    xcb_window_t root = (xcb_window_t)DefaultRootWindow(d);
    /* Interned once, as the Swift reader interns it with its first read. */
    xcb_atom_t edid = with_edid ? (xcb_atom_t)XInternAtom(d, "EDID", False) : 0;
    double *t = calloc(iters, sizeof *t);
    long sum = 0;
    step_ready();
    for (int i = 0; i < iters; i++) {
        step_wait();
        double s = now_us();
        sum += read_monitors_xcb(d, x, root, edid);
        t[i] = now_us() - s;
        step_done(t[i]);
    }
    printf("median_us=%.2f checksum=%ld\n", median(t, iters), sum);
    XCloseDisplay(d);
    return 0;
}

/* The raw listener: waits for the root ConfigureNotify (or a RandR event), re-reads only XRRGetMonitors,
 * and prints one line per change with the monitors' names, as `multihead watch` does with its JSON.
 * Says "listening" on stderr once the events are selected; ends at the connection's end. */
static int listen_monitors(void) {
    Display *d = XOpenDisplay(NULL);
    if (!d) { fprintf(stderr, "cannot open display\n"); return 69; }
    Window root = DefaultRootWindow(d);
    int eb = 0, erb = 0;
    XRRQueryExtension(d, &eb, &erb);
    XSelectInput(d, root, StructureNotifyMask);
    XRRSelectInput(d, root, RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask);
    XSync(d, False);
    fprintf(stderr, "listening\n");
    int before = -1;
    for (;;) {
        XEvent e;
        XNextEvent(d, &e);
        if (e.type != ConfigureNotify && e.type != eb + RRScreenChangeNotify && e.type != eb + RRNotify) continue;
        while (XPending(d)) XNextEvent(d, &e);
        int n = 0;
        XRRMonitorInfo *m = XRRGetMonitors(d, root, True, &n);
        if (n != before) {
            printf("{\"event\":\"%s\",\"monitors\":[", n > before ? "connect" : "disconnect");
            for (int i = 0; i < n; i++) printf("%s\"%s\"", i ? "," : "", atom_name(d, m[i].name));
            printf("]}\n");
            fflush(stdout);
        }
        before = n;
        if (m) XRRFreeMonitors(m);
    }
}

/* Connection B plugs or unplugs a monitor (XRRSetMonitor/XRRDeleteMonitor + XSync); connection A waits
 * for the root ConfigureNotify and re-reads the monitors: the latency is from the request to the re-read. */
static int hotplug(int iters) {
    Display *a = XOpenDisplay(NULL), *b = XOpenDisplay(NULL);
    if (!a || !b) { fprintf(stderr, "cannot open display\n"); return 69; }
    Window root = DefaultRootWindow(a);
    XSelectInput(a, root, StructureNotifyMask);
    XRRSelectInput(a, root, RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask);
    XSync(a, False);
    Atom name = XInternAtom(b, "BENCH-C", False);
    double *t = calloc(iters, sizeof *t);
    for (int i = 0; i < iters; i++) {
        double s = now_us();
        if (i % 2 == 0) {
            XRRMonitorInfo *m = XRRAllocateMonitor(b, 0);
            m->name = name; m->x = 7000; m->y = 0; m->width = 640; m->height = 480;
            m->mwidth = 169; m->mheight = 127;
            XRRSetMonitor(b, DefaultRootWindow(b), m);
            XFree(m);
        } else {
            XRRDeleteMonitor(b, DefaultRootWindow(b), name);
        }
        XSync(b, False);
        int got = 0;
        /* Spin on XPending as the Swift side does (its benchmark drains in a loop too). */
        while (!got) {
            while (XPending(a)) {
                XEvent e;
                XNextEvent(a, &e);
                if (e.type == ConfigureNotify) got = 1;
            }
        }
        read_monitors(a, root);
        t[i] = now_us() - s;
    }
    printf("median_us=%.2f\n", median(t, iters));
    XCloseDisplay(a);
    XCloseDisplay(b);
    return 0;
}

/* The same work as the model's stacking order, done the plain way: a sorted array of (level, sequence)
 * with memmove, n windows; each op re-levels one window or brings one to the front. */
typedef struct { double level; unsigned long seq; int id; } key_t2;

static int key_index(key_t2 *k, int n, double level, unsigned long seq) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (k[mid].level < level || (k[mid].level == level && k[mid].seq < seq)) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static int stacking(int n, int ops) {
    key_t2 *k = calloc(n + 1, sizeof *k);
    double *lv = calloc(n, sizeof *lv);
    unsigned long *sq = calloc(n, sizeof *sq), next = 0;
    for (int i = 0; i < n; i++) { k[i].level = 0; k[i].seq = ++next; k[i].id = i; lv[i] = 0; sq[i] = next; }
    double *t = calloc(ops, sizeof *t);
    srand(7);
    for (int o = 0; o < ops; o++) {
        int id = rand() % n;
        double s = now_us();
        int at = key_index(k, n, lv[id], sq[id]);
        memmove(&k[at], &k[at + 1], (n - at - 1) * sizeof *k);
        if (o % 2) lv[id] = (double)(rand() % 3) * 1000; else sq[id] = ++next;
        int to = key_index(k, n - 1, lv[id], sq[id]);
        memmove(&k[to + 1], &k[to], (n - 1 - to) * sizeof *k);
        k[to].level = lv[id]; k[to].seq = sq[id]; k[to].id = id;
        t[o] = now_us() - s;
    }
    printf("median_us=%.3f\n", median(t, ops));
    return 0;
}

/* A tree of views as the Swift benchmark builds it: each node has `fan` children laid out in a row. */
typedef struct node { double x, y, w, h; int nchild; struct node **child; } node;

static node *build(int depth, int fan, double w, double h, int *count, int limit) {
    node *v = calloc(1, sizeof *v);
    v->w = w; v->h = h;
    (*count)++;
    if (depth == 0) return v;
    v->child = calloc(fan, sizeof *v->child);
    for (int i = 0; i < fan && *count < limit; i++) {
        node *c = build(depth - 1, fan, w / fan, h, count, limit);
        c->x = i * (w / fan); c->y = 0;
        v->child[v->nchild++] = c;
    }
    return v;
}

static node *hit(node *v, double x, double y) {
    if (x < 0 || y < 0 || x >= v->w || y >= v->h) return NULL;
    for (int i = v->nchild - 1; i >= 0; i--) {
        node *r = hit(v->child[i], x - v->child[i]->x, y - v->child[i]->y);
        if (r) return r;
    }
    return v;
}

static int hittest(int views, int calls, int depth, int fan) {
    int count = 0;
    node *root = build(depth, fan, 100000, 1000, &count, views);
    /* Timed in batches of 20 calls, as the Swift side is; the same points. */
    int batch = 20, n = calls / batch;
    double *t = calloc(n, sizeof *t);
    long found = 0;
    for (int b = 0; b < n; b++) {
        double s = now_us();
        for (int i = b * batch; i < (b + 1) * batch; i++) {
            double x = (double)(((long)i * 7919) % 100000), y = (double)(((long)i * 104729) % 1000);
            found += hit(root, x, y) != NULL;
        }
        t[b] = (now_us() - s) / batch;
    }
    printf("median_us=%.4f views=%d found=%ld\n", median(t, n), count, found);
    return 0;
}

/* A shared-memory image of w×h, attached and marked for removal. */
static XImage *shm_image(Display *d, Visual *v, XShmSegmentInfo *info, int w, int h) {
    XImage *img = XShmCreateImage(d, v, 24, ZPixmap, NULL, info, w, h);
    info->shmid = shmget(IPC_PRIVATE, img->bytes_per_line * h, IPC_CREAT | 0600);
    info->shmaddr = img->data = shmat(info->shmid, NULL, 0);
    info->readOnly = False;
    XShmAttach(d, info);
    XSync(d, False);
    shmctl(info->shmid, IPC_RMID, NULL);
    return img;
}

/* Create, map and put the pixels of N small override-redirect windows, then XSync: what the presenter
 * does for N newly shown windows. Prints the total. */
static int windows(int n) {
    Display *d = XOpenDisplay(NULL);
    if (!d) return 69;
    XVisualInfo vi;
    XMatchVisualInfo(d, DefaultScreen(d), 24, TrueColor, &vi);
    Window root = DefaultRootWindow(d);
    GC gc = XCreateGC(d, root, 0, NULL);
    double s = now_us();
    Window *ws = calloc(n, sizeof *ws);
    XShmSegmentInfo *infos = calloc(n, sizeof *infos);
    XImage **imgs = calloc(n, sizeof *imgs);
    for (int i = 0; i < n; i++) {
        XSetWindowAttributes a = {0};
        a.override_redirect = True;
        a.background_pixmap = None;
        a.colormap = XCreateColormap(d, root, vi.visual, AllocNone);
        a.event_mask = ExposureMask | ButtonPressMask | ButtonReleaseMask | PointerMotionMask | KeyPressMask
            | KeyReleaseMask | StructureNotifyMask;
        ws[i] = XCreateWindow(d, root, (i % 40) * 10, (i / 40) * 10, 64, 64, 0, 24, InputOutput, vi.visual,
                              CWOverrideRedirect | CWBackPixmap | CWBorderPixel | CWColormap | CWEventMask, &a);
        imgs[i] = shm_image(d, vi.visual, &infos[i], 64, 64);
        memset(imgs[i]->data, 0x40, 64 * 64 * 4);
        XShmPutImage(d, ws[i], gc, imgs[i], 0, 0, 0, 0, 64, 64, False);
        XMapWindow(d, ws[i]);
    }
    XSync(d, False);
    printf("median_us=%.1f\n", now_us() - s);
    XCloseDisplay(d);
    return 0;
}

/* Lock step, for `push` and `label` when MULTIHEAD_BASELINE_STEPPED is set: after its set-up the program
 * prints "ready", then runs each iteration when a line comes on stdin and prints its time, so that the
 * Swift side's iterations and C's alternate in the same seconds (a slow stretch of the machine then slows
 * both). MULTIHEAD_BASELINE_X places the window, beside the Swift side's rather than over it: a covered
 * window's pushes would cost the server less. */
static int stepped, origin_x;
/* Pixels per point for the text a baseline draws (MULTIHEAD_BASELINE_SCALE): a 2x screen's label. */
static double text_scale = 1;

static void step_ready(void) {
    if (!stepped) return;
    printf("ready\n");
    fflush(stdout);
}

static void step_wait(void) {
    char line[16];
    if (stepped && !fgets(line, sizeof line, stdin)) stepped = 0;
}

static void step_done(double us) {
    if (!stepped) return;
    printf("%.1f\n", us);
    fflush(stdout);
}

/* An override-redirect w×h window with a shared w×h image: what `push`, `label` and `animate` draw in. */
typedef struct { Display *d; Window win; GC gc; XShmSegmentInfo info; XImage *img; } frame_window;

static int open_frame_window(frame_window *f, int w, int h) {
    f->d = XOpenDisplay(NULL);
    if (!f->d) return 0;
    XVisualInfo vi;
    XMatchVisualInfo(f->d, DefaultScreen(f->d), 24, TrueColor, &vi);
    Window root = DefaultRootWindow(f->d);
    XSetWindowAttributes a = {0};
    a.override_redirect = True;
    a.colormap = XCreateColormap(f->d, root, vi.visual, AllocNone);
    f->win = XCreateWindow(f->d, root, origin_x, 0, w, h, 0, 24, InputOutput, vi.visual,
                           CWOverrideRedirect | CWBorderPixel | CWColormap, &a);
    XMapWindow(f->d, f->win);
    f->gc = XCreateGC(f->d, f->win, 0, NULL);
    f->img = shm_image(f->d, vi.visual, &f->info, w, h);
    return 1;
}

/* A label's text changing in a w×h window: each frame clips cairo to the label's rectangle, fills it
 * white, draws "12:00:N" in DejaVu Sans 17 (times MULTIHEAD_BASELINE_SCALE: a 2x screen's pixels) at its left
 * edge, centred vertically by the font's extents (as Label does), pushes the rectangle and XSyncs: the least
 * a C program does for that change. */
static int label(int w, int h, int iters, int rx, int ry, int rw, int rh) {
    frame_window f;
    if (!open_frame_window(&f, w, h)) return 69;
    cairo_surface_t *s = cairo_image_surface_create_for_data((unsigned char *)f.img->data, CAIRO_FORMAT_RGB24, w, h,
                                                             f.img->bytes_per_line);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    XShmPutImage(f.d, f.win, f.gc, f.img, 0, 0, 0, 0, w, h, False);
    XSync(f.d, False);
    double *t = calloc(iters, sizeof *t);
    char text[32];
    step_ready();
    for (int i = 0; i < iters; i++) {
        step_wait();
        double st = now_us();
        snprintf(text, sizeof text, "12:00:%d", i % 60);
        cairo_save(cr);
        cairo_rectangle(cr, rx, ry, rw, rh);
        cairo_clip(cr);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_paint(cr);
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr, 17 * text_scale);
        cairo_font_extents_t fe;
        cairo_font_extents(cr, &fe);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_move_to(cr, rx, ry + (int)((rh - (fe.ascent + fe.descent)) / 2 + 0.5) + fe.ascent);
        cairo_show_text(cr, text);
        cairo_restore(cr);
        cairo_surface_flush(s);
        XShmPutImage(f.d, f.win, f.gc, f.img, rx, ry, rx, ry, rw, rh, False);
        XSync(f.d, False);
        t[i] = now_us() - st;
        step_done(t[i]);
    }
    printf("median_us=%.1f\n", median(t, iters));
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    XCloseDisplay(f.d);
    return 0;
}

/* A 100×100 square crossing a w×h window in `n` frames at 60 Hz (clock_nanosleep to each frame's time):
 * each frame fills where it was with the background and where it is with its colour, pushes the union of
 * the two, XSyncs. Prints "ready" once set up, reads frame 0's time from stdin, and prints the process's
 * CPU time per frame. */
static void fill_rect(XImage *img, int x0, int y0, int w, int h, unsigned int c) {
    unsigned int *p = (unsigned int *)img->data;
    int stride = img->bytes_per_line / 4;
    for (int y = y0; y < y0 + h; y++)
        for (int x = x0; x < x0 + w; x++) p[y * stride + x] = c;
}

double cpu_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int animate(int w, int h, int n) {
    frame_window f;
    if (!open_frame_window(&f, w, h)) return 69;
    fill_rect(f.img, 0, 0, w, h, 0xFFFFFF);
    int y = (h - 100) / 2, x = 0;
    fill_rect(f.img, x, y, 100, 100, 0x0000FF);
    XShmPutImage(f.d, f.win, f.gc, f.img, 0, 0, 0, 0, w, h, False);
    XSync(f.d, False);
    /* Set up. The caller answers with the CLOCK_MONOTONIC nanosecond of this loop's frame 0 (its own
     * animation runs half a frame apart, in the same seconds); none (end of input) starts now. */
    printf("ready\n");
    fflush(stdout);
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    long long start_ns;
    if (scanf("%lld", &start_ns) == 1 && start_ns > 0) {
        next.tv_sec = start_ns / 1000000000;
        next.tv_nsec = start_ns % 1000000000;
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
    }
    double start = cpu_us();
    for (int i = 1; i <= n; i++) {
        next.tv_nsec += 16666667;
        if (next.tv_nsec >= 1000000000) { next.tv_nsec -= 1000000000; next.tv_sec++; }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
        int nx = (int)((double)(w - 100) * i / n + 0.5);
        fill_rect(f.img, x, y, 100, 100, 0xFFFFFF);
        fill_rect(f.img, nx, y, 100, 100, 0x0000FF);
        int ux = x < nx ? x : nx, uw = (x < nx ? nx - x : x - nx) + 100;
        XShmPutImage(f.d, f.win, f.gc, f.img, ux, y, ux, y, uw, 100, False);
        XSync(f.d, False);
        x = nx;
    }
    printf("median_us=%.1f\n", (cpu_us() - start) / n);
    XCloseDisplay(f.d);
    return 0;
}

/* A w×h window: push its pixels (all, or the rectangle rx,ry,rw,rh when rw > 0), filling what is pushed
 * first when asked, and XSync: the least a frame costs. */
static int push(int w, int h, int iters, int fill, int rx, int ry, int rw, int rh) {
    if (rw <= 0) { rx = 0; ry = 0; rw = w; rh = h; }
    frame_window f;
    if (!open_frame_window(&f, w, h)) return 69;
    double *t = calloc(iters, sizeof *t);
    step_ready();
    for (int i = 0; i < iters; i++) {
        step_wait();
        double s = now_us();
        if (fill) fill_rect(f.img, rx, ry, rw, rh, (i & 1) ? 0xFF0000 : 0x0000FF);
        XShmPutImage(f.d, f.win, f.gc, f.img, rx, ry, rx, ry, rw, rh, False);
        XSync(f.d, False);
        t[i] = now_us() - s;
        step_done(t[i]);
    }
    printf("median_us=%.1f\n", median(t, iters));
    XCloseDisplay(f.d);
    return 0;
}

/* Resident memory of one w×h buffer, touched: what a window's pixels cost at the least. */
long rss_kb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = 0;
    while (f && fgets(line, sizeof line, f)) if (!strncmp(line, "VmRSS:", 6)) kb = atol(line + 6);
    if (f) fclose(f);
    return kb;
}

static char *volatile kept[64];

static int memory(int w, int h, int count) {
    long before = rss_kb();
    for (int i = 0; i < count && i < 64; i++) {
        kept[i] = malloc((size_t)w * h * 4);
        memset(kept[i], 1, (size_t)w * h * 4);
    }
    printf("median_us=%.1f\n", (double)(rss_kb() - before) / count / 1024.0);
    return 0;
}

/* Sleep to absolute 60 Hz targets with clock_nanosleep; the error of each wake-up. */
static int frames(int n) {
    double *t = calloc(n, sizeof *t);
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (int i = 0; i < n; i++) {
        next.tv_nsec += 16666667;
        if (next.tv_nsec >= 1000000000) { next.tv_nsec -= 1000000000; next.tv_sec++; }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
        double target = next.tv_sec * 1e6 + next.tv_nsec / 1e3;
        double err = now_us() - target;
        t[i] = err < 0 ? -err : err;
    }
    printf("median_us=%.1f\n", median(t, n));
    return 0;
}

/* Start a plain Xvfb on a free display (-displayfd), open a connection to it, stop it: the median start time. */
extern char **environ;
/* Spawns Xvfb on a free display (-displayfd, -noreset, no TCP, the kit's framebuffer size) and reads its
 * display number; with glx 0 as the kit starts it (-extension GLX), with 1 as a plain Xvfb (xvfb-run).
 * The pid and the pipe's read end are returned for stop_xvfb. */
static int spawn_xvfb(pid_t *pid, int *out, char *name, size_t size, int glx) {
    int fds[2];
    if (pipe(fds)) return 70;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {"Xvfb", "-displayfd", "1", "-noreset", "-nolisten", "tcp", "-br", "-screen", "0", "7680x4320x24",
                    glx ? NULL : "-extension", "GLX", NULL};
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGINT);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    int failed = posix_spawnp(pid, "Xvfb", &fa, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (failed) { close(fds[0]); return 69; }
    char buf[32] = {0};
    int n = 0;
    while (n < 31 && read(fds[0], buf + n, 1) == 1 && buf[n] != '\n') n++;
    buf[n] = 0;
    snprintf(name, size, ":%s", buf);
    *out = fds[0];
    return 0;
}

static void stop_xvfb(pid_t pid, int out) {
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    close(out);
}

static int start(int iters) {
    double *t = calloc(iters, sizeof *t);
    for (int i = 0; i < iters; i++) {
        pid_t pid;
        int out;
        char name[40];
        double s = now_us();
        if (spawn_xvfb(&pid, &out, name, sizeof name, 1)) return 69;
        Display *d = XOpenDisplay(name);
        t[i] = now_us() - s;
        if (d) XCloseDisplay(d);
        stop_xvfb(pid, out);
    }
    printf("median_us=%.1f\n", median(t, iters));
    return 0;
}

static void set_monitor(Display *d, const char *name, int x, int y, int w, int h) {
    XRRMonitorInfo *m = XRRAllocateMonitor(d, 0);
    m->name = XInternAtom(d, name, False);
    m->x = x; m->y = y; m->width = w; m->height = h; m->mwidth = w * 254 / 960; m->mheight = h * 254 / 960;
    XRRSetMonitor(d, DefaultRootWindow(d), m);
    XFree(m);
}

/* The X work of the hotplug test docs/hotplug-testing.md shows: a 1280x720 MAIN, then a 1920x1080 TV
 * plugged beside it and a white window shown on it, one pixel of it read back, the TV unplugged and the
 * window taken down. 0 when the pixel was white. */
/* The TV monitor's pixels read as the kit's screenshot(of:) reads them: through a shared segment of the
 * harness's connection `h` (kept from test to test, as the kit keeps its own), copied out as 0xRRGGBB. */
static unsigned long monitor_pixel(Display *h, XImage *shot, int x, int y, int w, int hgt, int px, int py) {
    if (!XShmGetImage(h, DefaultRootWindow(h), shot, x, y, AllPlanes)) return 0;
    uint32_t *pixels = malloc((size_t)w * hgt * 4);
    if (!pixels) return 0;
    for (int row = 0; row < hgt; row++) {
        const uint32_t *src = (const uint32_t *)(shot->data + (size_t)row * shot->bytes_per_line);
        for (int col = 0; col < w; col++) pixels[(size_t)row * w + col] = src[col] & 0xFFFFFF;
    }
    unsigned long pixel = pixels[(size_t)py * w + px];
    free(pixels);
    return pixel;
}

static int doctest_work(Display *d, Display *h, XImage *shot) {
    Window root = DefaultRootWindow(d);
    set_monitor(d, "MAIN", 0, 0, 1280, 720);
    set_monitor(d, "TV", 1280, 0, 1920, 1080);
    XSync(d, False);
    XSetWindowAttributes a;
    a.override_redirect = True;
    a.background_pixel = WhitePixel(d, DefaultScreen(d));
    Window w = XCreateWindow(d, root, 1280, 0, 1920, 1080, 0, CopyFromParent, InputOutput, CopyFromParent,
                             CWOverrideRedirect | CWBackPixel, &a);
    XMapWindow(d, w);
    XSync(d, False);
    unsigned long pixel = 0;
    if (shot) {
        pixel = monitor_pixel(h, shot, 1280, 0, 1920, 1080, 960, 540);
    } else {
        XImage *img = XGetImage(d, root, 1280 + 960, 540, 1, 1, AllPlanes, ZPixmap);
        pixel = img ? XGetPixel(img, 0, 0) & 0xFFFFFF : 0;
        if (img) XDestroyImage(img);
    }
    XRRDeleteMonitor(d, root, XInternAtom(d, "TV", False));
    XDestroyWindow(d, w);
    XSync(d, False);
    return pixel == 0xFFFFFF ? 0 : 1;
}

/* The documented test N times: `fresh`, a new Xvfb each (started, connected, stopped); `reused`, one Xvfb
 * for all, each test connecting, doing the work, and resetting what it left (MAIN deleted), then
 * disconnecting. With `monitor`, the test reads the TV monitor whole as the documented test does
 * (`screenshot(of: "TV").pixel(…)`), through a shared segment of a harness connection kept as long as its
 * server (the kit keeps its own control connection and segment so); else one pixel. Prints the median. */
static int doctest(int iters, int reused, int monitor) {
    double *t = calloc(iters, sizeof *t);
    pid_t pid = 0;
    int out = -1;
    char name[40];
    Display *h = NULL;
    XImage *shot = NULL;
    XShmSegmentInfo seg;
    if (reused && spawn_xvfb(&pid, &out, name, sizeof name, 0)) return 69;
    for (int i = 0; i < iters; i++) {
        double s = now_us();
        if (!reused && spawn_xvfb(&pid, &out, name, sizeof name, 0)) return 69;
        if (monitor && !h) {
            if (!(h = XOpenDisplay(name))) return 69;
            XVisualInfo vi;
            /* A row labelled "monitor" never falls back to one pixel. */
            if (!XMatchVisualInfo(h, DefaultScreen(h), 24, TrueColor, &vi)) return 69;
            shot = shm_image(h, vi.visual, &seg, 1920, 1080);
            if (!shot || seg.shmaddr == (char *)-1) return 69;
        }
        Display *d = XOpenDisplay(name);
        if (!d) return 69;
        int bad = doctest_work(d, h, shot);
        if (reused) {
            XRRDeleteMonitor(d, DefaultRootWindow(d), XInternAtom(d, "MAIN", False));
            XSync(d, False);
        }
        XCloseDisplay(d);
        if (!reused) {
            if (h) {
                XShmDetach(h, &seg);
                XDestroyImage(shot);
                shmdt(seg.shmaddr);
                XCloseDisplay(h);
                h = NULL;
            }
            stop_xvfb(pid, out);
        }
        t[i] = now_us() - s;
        if (bad) { fprintf(stderr, "test %d: the pixel was not white\n", i); return 1; }
    }
    if (h) {
        XShmDetach(h, &seg);
        XDestroyImage(shot);
        shmdt(seg.shmaddr);
        XCloseDisplay(h);
    }
    if (reused) stop_xvfb(pid, out);
    printf("median_us=%.1f\n", median(t, iters));
    return 0;
}

/* The pytest test of docs/control-socket.md's shape, N times, each on a fresh Xvfb as a C test would start
 * one: a 1920x1080 monitor, a second plugged beside it, the monitors read, an X client (`xrandr
 * --listmonitors`) run against it and waited for, the second unplugged, the server stopped. Prints the
 * median of each test less its client's time (what the plugin's row measures the same way). */
static int pytestshape(int iters) {
    double *t = calloc(iters, sizeof *t);
    for (int i = 0; i < iters; i++) {
        pid_t pid, client;
        int out, n = 0;
        char name[40];
        double s = now_us();
        if (spawn_xvfb(&pid, &out, name, sizeof name, 0)) return 69;
        Display *d = XOpenDisplay(name);
        if (!d) {
            stop_xvfb(pid, out);
            return 69;
        }
        set_monitor(d, "MAIN", 0, 0, 1920, 1080);
        set_monitor(d, "SECOND", 1920, 0, 1280, 720);
        XRRMonitorInfo *m = XRRGetMonitors(d, DefaultRootWindow(d), True, &n);
        if (m) XRRFreeMonitors(m);
        if (n < 2) {
            fprintf(stderr, "test %d: %d monitors\n", i, n);
            XCloseDisplay(d);
            stop_xvfb(pid, out);
            return 1;
        }
        double c = now_us();
        setenv("DISPLAY", name, 1);
        char *argv[] = {"xrandr", "--listmonitors", NULL};
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
        int failed = posix_spawnp(&client, "xrandr", &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        if (failed) {
            XCloseDisplay(d);
            stop_xvfb(pid, out);
            return 69;
        }
        waitpid(client, NULL, 0);
        double own = now_us() - c;
        XRRDeleteMonitor(d, DefaultRootWindow(d), XInternAtom(d, "SECOND", False));
        XSync(d, False);
        XCloseDisplay(d);
        stop_xvfb(pid, out);
        t[i] = now_us() - s - own;
    }
    printf("median_us=%.1f\n", median(t, iters));
    return 0;
}

/* Plugs and unplugs a virtual monitor N times, reading one line from stdin after each change (a watcher's
 * output piped in) and checking it names the event: what the watch test drives from a process of its own,
 * so that no test's main actor is busy for N round trips. Prints "all ok N" or where it went wrong. */
static int plugloop(int n) {
    Display *b = XOpenDisplay(NULL);
    if (!b) { fprintf(stderr, "cannot open display\n"); return 69; }
    Atom name = XInternAtom(b, "PLUG-LOOP", False);
    static char line[1 << 16];
    for (int i = 0; i < n; i++) {
        if (i % 2 == 0) {
            XRRMonitorInfo *m = XRRAllocateMonitor(b, 0);
            m->name = name; m->x = 0; m->y = 0; m->width = 640; m->height = 480; m->mwidth = 169; m->mheight = 127;
            XRRSetMonitor(b, DefaultRootWindow(b), m);
            XFree(m);
        } else {
            XRRDeleteMonitor(b, DefaultRootWindow(b), name);
        }
        XSync(b, False);
        if (!fgets(line, sizeof line, stdin)) { printf("no line after change %d\n", i); return 1; }
        const char *want = i % 2 == 0 ? "\"event\":\"connect\"" : "\"event\":\"disconnect\"";
        if (!strstr(line, want) || !strstr(line, "PLUG-LOOP")) { printf("change %d: %s", i, line); return 1; }
    }
    printf("all ok %d\n", n);
    XCloseDisplay(b);
    return 0;
}

/* Peak resident memory of a command, in kB: fork (not posix_spawn, whose child shares the parent's
 * memory until exec and counts it in ru_maxrss), exec, wait4. Prints "maxrss_kb=N". */
static int maxrss(char **argv) {
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1);
        execvp(argv[0], argv);
        _exit(127);
    }
    if (pid < 0) return 70;
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) return 70;
    printf("maxrss_kb=%ld status=%d\n", ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128);
    return 0;
}

int gl_bench(int w, int h, int frames, int windows); /* gl.c */

int main(int argc, char **argv) {
    stepped = getenv("MULTIHEAD_BASELINE_STEPPED") != NULL;
    origin_x = getenv("MULTIHEAD_BASELINE_X") ? atoi(getenv("MULTIHEAD_BASELINE_X")) : 0;
    text_scale = getenv("MULTIHEAD_BASELINE_SCALE") ? atof(getenv("MULTIHEAD_BASELINE_SCALE")) : 1;
    if (!(text_scale > 0)) text_scale = 1;
    if (argc == 2 && !strcmp(argv[1], "listen")) return listen_monitors();
    if (argc > 2 && !strcmp(argv[1], "maxrss")) return maxrss(argv + 2);
    if (argc > 2 && !strcmp(argv[1], "plugloop")) return plugloop(atoi(argv[2]));
    if (argc < 3) { fprintf(stderr, "usage: XlibBaseline enumerate N | enumerate-xcb N | listen | hotplug N | stacking N OPS | hittest VIEWS CALLS DEPTH FAN\n"); return 64; }
    int a = atoi(argv[2]);
    if (!strcmp(argv[1], "enumerate")) return enumerate(a);
    if (!strcmp(argv[1], "enumerate-xcb")) return enumerate_xcb(a, 0);
    if (!strcmp(argv[1], "enumerate-xcb-edid")) return enumerate_xcb(a, 1);
    if (!strcmp(argv[1], "hotplug")) return hotplug(a);
    if (!strcmp(argv[1], "stacking") && argc > 3) return stacking(a, atoi(argv[3]));
    if (!strcmp(argv[1], "windows")) return windows(a);
    if (!strcmp(argv[1], "start")) return start(a);
    if (!strcmp(argv[1], "pytestshape")) return pytestshape(a);
    if (!strcmp(argv[1], "doctest") && argc > 3)
        return doctest(a, !strcmp(argv[3], "reused"), argc > 4 && !strcmp(argv[4], "monitor"));
    if (!strcmp(argv[1], "getimage") && argc > 4) return getimage(a, atoi(argv[3]), atoi(argv[4]));
    if (!strcmp(argv[1], "push") && argc > 4)
        return push(a, atoi(argv[3]), atoi(argv[4]), argc > 5 ? atoi(argv[5]) : 0, argc > 9 ? atoi(argv[6]) : 0,
                    argc > 9 ? atoi(argv[7]) : 0, argc > 9 ? atoi(argv[8]) : 0, argc > 9 ? atoi(argv[9]) : 0);
    if (!strcmp(argv[1], "label") && argc > 8)
        return label(a, atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), atoi(argv[7]), atoi(argv[8]));
    if (!strcmp(argv[1], "animate") && argc > 4) return animate(a, atoi(argv[3]), atoi(argv[4]));
    if (!strcmp(argv[1], "memory") && argc > 4) return memory(a, atoi(argv[3]), atoi(argv[4]));
    if (!strcmp(argv[1], "frames")) return frames(a);
    if (!strcmp(argv[1], "gl") && argc > 5) return gl_bench(a, atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    if (!strcmp(argv[1], "hittest") && argc > 5) return hittest(a, atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    fprintf(stderr, "unknown mode %s\n", argv[1]);
    return 64;
}
