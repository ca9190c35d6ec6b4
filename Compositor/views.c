/*
 * Views: xdg-shell toplevels (and, through xwayland.c, X11 windows) in the scene. Placement, as
 * Compositor/README.md documents it: a new window goes to the top-left corner of the output under the
 * pointer, else of the first plugged output; a fullscreen or maximized window fills the output it asked
 * for (else its own); when its output is unplugged, a window moves to the top-left of the first output
 * left; a changed output keeps its windows where they were within it.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/xwayland.h>
#include "compositor.h"

static struct mh_output *first_output(struct mh_server *server) {
	if (wl_list_empty(&server->outputs)) {
		return NULL;
	}
	struct mh_output *output = wl_container_of(server->outputs.next, output, link);
	return output;
}

/* Moves a view to x,y (layout coordinates); a width and height > 0 also resize it. */
void mh_view_set_geometry(struct mh_view *view, int x, int y, int width, int height) {
	view->x = x;
	view->y = y;
	if (view->node != NULL) {
		wlr_scene_node_set_position(view->node, x, y);
	}
	if (view->kind == MH_VIEW_XDG && width > 0 && height > 0) {
		wlr_xdg_toplevel_set_size(view->xdg, (uint32_t)width, (uint32_t)height);
	} else if (view->kind == MH_VIEW_X11) {
		mh_x11_view_move(view, x, y, width, height);
	}
	mh_fractional_scale_changed(view->server); /* perhaps on another output now */
}

/* Puts a view on `output` (NULL: the one under the pointer, else the first), top-left or, fullscreen or
 * maximized, filling it (no panels here: both fill the output's logical area). */
void mh_view_put(struct mh_view *view, struct mh_output *output) {
	struct mh_server *server = view->server;
	if (output == NULL) {
		output = mh_output_at(server, server->pointer_x, server->pointer_y);
	}
	if (output == NULL) {
		output = first_output(server);
	}
	if (output == NULL) {
		/* Nothing plugged: the window waits at the origin, shown on whatever is plugged there later. */
		view->output = NULL;
		mh_view_set_geometry(view, 0, 0, 0, 0);
		return;
	}
	view->output = output->wlr_output;
	struct wlr_box box = mh_output_box(output);
	if (view->fullscreen || view->maximized) {
		mh_view_set_geometry(view, box.x, box.y, box.width, box.height);
	} else {
		mh_view_set_geometry(view, box.x, box.y, 0, 0);
	}
}

void mh_view_place(struct mh_view *view) {
	mh_view_put(view, NULL);
}

void mh_views_output_gone(struct mh_server *server, struct wlr_output *gone) {
	struct mh_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->normal_output == gone) {
			/* Its normal frame's output is gone: back to normal, it goes to the top-left corner of the
			 * output it is on then (window_state.c). */
			view->normal_output = NULL;
		}
		if (view->output != gone) {
			continue;
		}
		/* The gone output is no longer in our list, so the first output is another one. */
		view->output = NULL;
		mh_view_put(view, first_output(server));
	}
}

/* `old` is the output's box before the change: a window keeps its offset within the output. */
void mh_views_output_changed(struct mh_server *server, struct wlr_output *changed, struct wlr_box old) {
	struct mh_output *output = changed->data;
	struct mh_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->output != changed || output == NULL) {
			continue;
		}
		if (view->fullscreen || view->maximized) {
			mh_view_put(view, output);
		} else {
			struct wlr_box box = mh_output_box(output);
			mh_view_set_geometry(view, box.x + view->x - old.x, box.y + view->y - old.y, 0, 0);
		}
	}
}

void mh_view_focus(struct mh_view *view) {
	struct mh_server *server = view->server;
	/* Front of the list and of the scene: the list is what `toplevels` reports, front first. */
	wl_list_remove(&view->link);
	wl_list_insert(&server->views, &view->link);
	if (view->node != NULL) {
		wlr_scene_node_raise_to_top(view->node);
	}
	struct wlr_surface *surface = NULL;
	if (view->kind == MH_VIEW_XDG) {
		struct mh_view *other;
		wl_list_for_each(other, &server->views, link) {
			if (other != view && other->kind == MH_VIEW_XDG && other->mapped) {
				wlr_xdg_toplevel_set_activated(other->xdg, false);
			}
		}
		wlr_xdg_toplevel_set_activated(view->xdg, true);
		surface = view->xdg->surface;
	} else {
		mh_x11_view_focus(view);
		surface = view->xsurface->surface;
	}
	struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(server->seat);
	if (keyboard != NULL && surface != NULL) {
		wlr_seat_keyboard_notify_enter(server->seat, surface, keyboard->keycodes,
			keyboard->num_keycodes, &keyboard->modifiers);
	}
}

struct mh_view *mh_view_at(struct mh_server *server, double lx, double ly,
		struct wlr_surface **surface, double *sx, double *sy) {
	*surface = NULL;
	struct wlr_scene_node *node = wlr_scene_node_at(&server->scene->node, lx, ly, sx, sy);
	if (node == NULL || node->type != WLR_SCENE_NODE_SURFACE) {
		return NULL;
	}
	*surface = wlr_scene_surface_from_node(node)->surface;
	/* The view is the data of the tree its surfaces hang from (set at map). */
	for (; node != NULL; node = node->parent) {
		if (node->data != NULL) {
			return node->data;
		}
	}
	return NULL;
}

void mh_view_json(FILE *out, struct mh_view *view) {
	const char *t = view->kind == MH_VIEW_XDG ? view->xdg->toplevel->title : mh_x11_view_title(view);
	const char *a = view->kind == MH_VIEW_XDG ? view->xdg->toplevel->app_id
		: view->xsurface->class;
	struct wlr_box frame = mh_view_frame(view);
	fprintf(out, "{\"id\":%lu,\"kind\":\"%s\",\"title\":", view->id, view->kind == MH_VIEW_XDG ? "xdg" : "x11");
	mh_json_string(out, t);
	fputs(",\"appId\":", out);
	mh_json_string(out, a);
	int pid = mh_view_pid(view);
	if (pid > 0) {
		fprintf(out, ",\"pid\":%d", pid);
	} else {
		fputs(",\"pid\":null", out);
	}
	fputs(",\"output\":", out);
	if (view->output != NULL) {
		mh_json_string(out, view->output->name);
	} else {
		fputs("null", out);
	}
	fprintf(out, ",\"state\":\"%s\",\"fullscreen\":%s,\"frame\":{\"x\":%d,\"y\":%d,\"width\":%d,"
		"\"height\":%d}}", mh_view_state_name(view), view->fullscreen ? "true" : "false", frame.x, frame.y,
		frame.width, frame.height);
}

/* xdg-shell toplevels */

static void xdg_map(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_view *view = wl_container_of(listener, view, map);
	view->mapped = true;
	wlr_scene_node_set_enabled(view->node, true);
	/* Placed as a normal window first: that is the frame it returns to from fullscreen or maximized,
	 * which a client may ask for before its first buffer (honoured now). */
	struct wlr_xdg_toplevel_requested *req = &view->xdg->toplevel->requested;
	view->fullscreen = view->maximized = false;
	mh_view_put(view, NULL);
	if (req->fullscreen || req->maximized) {
		struct mh_output *want = req->fullscreen && req->fullscreen_output != NULL
			? req->fullscreen_output->data : NULL;
		mh_view_set_state(view, req->fullscreen, req->maximized, want);
	}
	mh_view_focus(view);
}

static void xdg_unmap(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_view *view = wl_container_of(listener, view, unmap);
	view->mapped = false;
	wlr_scene_node_set_enabled(view->node, false);
}

static void xdg_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_view *view = wl_container_of(listener, view, destroy);
	wl_list_remove(&view->map.link);
	wl_list_remove(&view->unmap.link);
	wl_list_remove(&view->destroy.link);
	wl_list_remove(&view->request_fullscreen.link);
	wl_list_remove(&view->request_maximize.link);
	wl_list_remove(&view->request_minimize.link);
	wl_list_remove(&view->link);
	/* The scene tree is destroyed with the xdg surface (the scene listens to it). */
	free(view);
}

static void xdg_request_fullscreen(struct wl_listener *listener, void *data) {
	struct mh_view *view = wl_container_of(listener, view, request_fullscreen);
	struct wlr_xdg_toplevel_set_fullscreen_event *event = data;
	struct mh_output *want = event->output != NULL ? event->output->data : NULL;
	mh_view_set_state(view, event->fullscreen, view->maximized, want);
}

static void xdg_request_maximize(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_view *view = wl_container_of(listener, view, request_maximize);
	mh_view_set_state(view, view->fullscreen, view->xdg->toplevel->requested.maximized, NULL);
	/* xdg-shell wants an answer even when nothing changes (maximized while fullscreen): a configure. */
	if (view->xdg->added) {
		wlr_xdg_surface_schedule_configure(view->xdg);
	}
}

static void xdg_request_minimize(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_view *view = wl_container_of(listener, view, request_minimize);
	/* xdg-shell has no state for it and no way back but activation: noted, reported, nothing hidden. */
	mh_view_set_minimized(view, true);
}

static void handle_new_xdg_surface(struct wl_listener *listener, void *data) {
	struct mh_server *server = wl_container_of(listener, server, new_xdg_surface);
	struct wlr_xdg_surface *xdg = data;
	if (xdg->role == WLR_XDG_SURFACE_ROLE_POPUP) {
		/* A popup's tree hangs from its parent's, so it moves with it; wlroots positions it. */
		struct wlr_xdg_surface *parent = wlr_xdg_surface_from_wlr_surface(xdg->popup->parent);
		struct wlr_scene_node *parent_node = parent != NULL ? parent->data : NULL;
		if (parent_node != NULL) {
			xdg->data = wlr_scene_xdg_surface_create(parent_node, xdg);
		}
		return;
	}
	if (xdg->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
		return;
	}
	struct mh_view *view = calloc(1, sizeof(*view));
	if (view == NULL) {
		wl_resource_post_no_memory(xdg->resource);
		return;
	}
	view->server = server;
	view->id = ++server->view_count;
	view->kind = MH_VIEW_XDG;
	view->xdg = xdg;
	view->node = wlr_scene_xdg_surface_create(&server->scene->node, xdg);
	if (view->node == NULL) {
		free(view);
		wl_resource_post_no_memory(xdg->resource);
		return;
	}
	view->node->data = view;
	wlr_scene_node_set_enabled(view->node, false);
	xdg->data = view->node;
	view->map.notify = xdg_map;
	wl_signal_add(&xdg->events.map, &view->map);
	view->unmap.notify = xdg_unmap;
	wl_signal_add(&xdg->events.unmap, &view->unmap);
	view->destroy.notify = xdg_destroy;
	wl_signal_add(&xdg->events.destroy, &view->destroy);
	view->request_fullscreen.notify = xdg_request_fullscreen;
	wl_signal_add(&xdg->toplevel->events.request_fullscreen, &view->request_fullscreen);
	view->request_maximize.notify = xdg_request_maximize;
	wl_signal_add(&xdg->toplevel->events.request_maximize, &view->request_maximize);
	view->request_minimize.notify = xdg_request_minimize;
	wl_signal_add(&xdg->toplevel->events.request_minimize, &view->request_minimize);
	wl_list_insert(server->views.prev, &view->link);
}

void mh_views_init(struct mh_server *server) {
	server->xdg_shell = wlr_xdg_shell_create(server->display);
	server->new_xdg_surface.notify = handle_new_xdg_surface;
	wl_signal_add(&server->xdg_shell->events.new_surface, &server->new_xdg_surface);
}
