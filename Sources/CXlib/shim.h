#ifndef MULTIHEAD_CXLIB_SHIM_H
#define MULTIHEAD_CXLIB_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/Xproto.h>
#include <X11/extensions/Xrandr.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/XTest.h>
#include <X11/XKBlib.h>
#include <X11/Xauth.h>
#include <X11/extensions/security.h>
#include <X11/Xlib-xcb.h>
#include <xcb/xcb.h>
#include <xcb/randr.h>

/* Xlib's accessors are macros, which Swift cannot import: one inline function each. */
static inline Window mh_default_root_window(Display *d) { return DefaultRootWindow(d); }
static inline int mh_default_screen(Display *d) { return DefaultScreen(d); }
static inline int mh_screen_count(Display *d) { return ScreenCount(d); }
static inline Window mh_root_window(Display *d, int s) { return RootWindow(d, s); }
static inline int mh_display_width(Display *d, int s) { return DisplayWidth(d, s); }
static inline int mh_display_height(Display *d, int s) { return DisplayHeight(d, s); }
static inline int mh_display_width_mm(Display *d, int s) { return DisplayWidthMM(d, s); }
static inline int mh_display_height_mm(Display *d, int s) { return DisplayHeightMM(d, s); }
static inline int mh_connection_number(Display *d) { return ConnectionNumber(d); }
static inline unsigned long mh_next_request(Display *d) { return NextRequest(d); }
static inline Visual *mh_default_visual(Display *d, int s) { return DefaultVisual(d, s); }
static inline int mh_default_depth(Display *d, int s) { return DefaultDepth(d, s); }
static inline unsigned long mh_black_pixel(Display *d, int s) { return BlackPixel(d, s); }
static inline int mh_destroy_image(XImage *i) { return XDestroyImage(i); }
static inline unsigned long mh_get_pixel(XImage *i, int x, int y) { return XGetPixel(i, x, y); }
static inline unsigned long mh_all_planes(void) { return AllPlanes; }
/* The event queue's length and the last request the server is known to have processed, read from the
   Display as Xlib's public macros do: no call into libX11 (and no lock) for what a frame asks each time. */
static inline int mh_q_length(Display *d) { return QLength(d); }
static inline unsigned long mh_last_known_request_processed(Display *d) { return LastKnownRequestProcessed(d); }

/* xcb_randr_id is an incomplete type to Swift, which cannot take its address. */
static inline const xcb_query_extension_reply_t *mh_randr_extension_data(xcb_connection_t *c) { return xcb_get_extension_data(c, &xcb_randr_id); }

/* glibc (2.34+) declares this only under _GNU_SOURCE, which Swift's Glibc module does not define: a child
   the kit spawns must not inherit this process's other descriptors (another child's pipe, kept open,
   never reaches end of file). */
#include <spawn.h>
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
static inline int mh_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

#endif
