/*
 * Window states: fullscreen, maximized and minimized, asked by a client (xdg-shell requests, or the EWMH
 * and ICCCM messages xwayland.c passes on) or by a command (window_commands.c). A window leaving the
 * normal state remembers its frame (its output, its place within that output, its size) and gets it
 * back once normal again, as a desktop's window manager does. Minimized is noted and reported but hides
 * nothing: there is no task bar to bring a window back from, so it stays shown, and its activation (a
 * click on it, move-window, fullscreen-window) ends the state.
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
#include <stdlib.h>
#include <wlr/xwayland.h>
#include "compositor.h"

/* Layout position and size: the size as last committed by an xdg client (a resize asked for shows
 * once the client commits it), as last configured for an X11 window. */
struct wlr_box mh_view_frame(struct mh_view *view) {
	struct wlr_box frame = { .x = view->x, .y = view->y };
	if (view->kind == MH_VIEW_XDG) {
		struct wlr_box geo;
		wlr_xdg_surface_get_geometry(view->xdg, &geo);
		frame.width = geo.width;
		frame.height = geo.height;
	} else {
		frame.width = view->xsurface->width;
		frame.height = view->xsurface->height;
	}
	return frame;
}

static struct mh_output *view_output(struct mh_view *view) {
	return view->output != NULL ? view->output->data : NULL;
}

static void save_normal(struct mh_view *view) {
	struct wlr_box frame = mh_view_frame(view);
	struct wlr_xdg_toplevel_configure *asked = view->kind == MH_VIEW_XDG ? &view->xdg->toplevel->scheduled : NULL;
	if (asked != NULL && asked->width > 0 && asked->height > 0) {
		/* The size last asked (move-window's) is the one meant, committed or not yet. */
		frame.width = (int)asked->width;
		frame.height = (int)asked->height;
	}
	struct mh_output *output = view_output(view);
	struct wlr_box box = output != NULL ? mh_output_box(output) : (struct wlr_box){0};
	view->normal_output = output != NULL ? output->wlr_output : NULL;
	view->normal_x = frame.x - box.x;
	view->normal_y = frame.y - box.y;
	view->normal_width = frame.width;
	view->normal_height = frame.height;
	view->has_normal = true;
}

/* The saved frame again: within its output if that one is still plugged, else at the top-left corner of
 * the output the window is on now (where unplugging moved it). */
static void restore_normal(struct mh_view *view) {
	struct mh_output *output = view->normal_output != NULL ? view->normal_output->data : NULL;
	int dx = view->normal_x, dy = view->normal_y;
	if (output == NULL) {
		output = view_output(view);
		dx = dy = 0;
	}
	struct wlr_box box = output != NULL ? mh_output_box(output) : (struct wlr_box){0};
	view->output = output != NULL ? output->wlr_output : NULL;
	mh_view_set_geometry(view, box.x + dx, box.y + dy, view->has_normal ? view->normal_width : 0,
		view->has_normal ? view->normal_height : 0);
}

/* The states as the client sees them: xdg-shell's configure, X11's _NET_WM_STATE. */
static void tell_client(struct mh_view *view) {
	if (view->kind == MH_VIEW_XDG) {
		wlr_xdg_toplevel_set_fullscreen(view->xdg, view->fullscreen);
		wlr_xdg_toplevel_set_maximized(view->xdg, view->maximized);
	} else if (!view->xsurface->override_redirect) {
		wlr_xwayland_surface_set_fullscreen(view->xsurface, view->fullscreen);
		wlr_xwayland_surface_set_maximized(view->xsurface, view->maximized);
	}
}

/* Fullscreen and maximized both fill `output` (NULL: the window's own), fullscreen above maximized in
 * what is reported; neither restores the saved frame. Unmapped, the states are noted for the map. */
void mh_view_set_state(struct mh_view *view, bool fullscreen, bool maximized, struct mh_output *output) {
	bool was_filling = view->fullscreen || view->maximized, filling = fullscreen || maximized;
	if (view->mapped && filling && !was_filling) {
		save_normal(view);
	}
	view->fullscreen = fullscreen;
	view->maximized = maximized;
	tell_client(view);
	if (!view->mapped) {
		return;
	}
	if (filling) {
		mh_view_put(view, output != NULL ? output : view_output(view));
	} else if (was_filling) {
		restore_normal(view);
	}
}

void mh_view_set_minimized(struct mh_view *view, bool minimized) {
	if (view->minimized == minimized) {
		return;
	}
	view->minimized = minimized;
	if (view->kind == MH_VIEW_X11 && !view->xsurface->override_redirect) {
		/* WM_STATE Iconic (or Normal) and _NET_WM_STATE_HIDDEN: an X11 window manager's answer. */
		wlr_xwayland_surface_set_minimized(view->xsurface, minimized);
	}
}

/* move-window: normal again (at its normal size unless a size is given), at x,y within `output`;
 * width and height 0 keep the size. */
void mh_view_move(struct mh_view *view, struct mh_output *output, int x, int y, int width, int height) {
	mh_view_set_minimized(view, false);
	if (view->fullscreen || view->maximized) {
		if (width == 0 && view->has_normal) {
			width = view->normal_width;
			height = view->normal_height;
		}
		view->fullscreen = view->maximized = false;
		tell_client(view);
	}
	struct wlr_box box = mh_output_box(output);
	view->output = output->wlr_output;
	mh_view_set_geometry(view, box.x + x, box.y + y, width, height);
}

const char *mh_view_state_name(struct mh_view *view) {
	/* Minimized first: the latest thing asked, and what a desktop would show (the window hidden). */
	return view->minimized ? "minimized" : view->fullscreen ? "fullscreen" : view->maximized ? "maximized"
		: "normal";
}

/* The client's process: the Wayland socket's peer for xdg-shell, _NET_WM_PID for X11 (0: unknown). */
int mh_view_pid(struct mh_view *view) {
	if (view->kind == MH_VIEW_X11) {
		return view->xsurface->pid > 0 ? (int)view->xsurface->pid : 0;
	}
	pid_t pid = 0;
	wl_client_get_credentials(wl_resource_get_client(view->xdg->resource), &pid, NULL, NULL);
	return pid > 0 ? (int)pid : 0;
}

/* A shown window by its id (the ids `toplevels` gives). */
struct mh_view *mh_view_find(struct mh_server *server, unsigned long id) {
	struct mh_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->id == id && view->mapped) {
			return view;
		}
	}
	return NULL;
}
