/*
 * Xwayland inside the compositor, so X11 clients (and Multihead's X11 backend) run on its outputs.
 * Override-redirect windows stay where their client puts them, in layout coordinates; managed windows
 * keep a position their client chose (not 0,0), else go where views.c places xdg toplevels. Their EWMH
 * fullscreen and maximized states and ICCCM iconic state are window_state.c's.
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
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <wlr/xwayland.h>
#include "compositor.h"

void mh_x11_view_move(struct mh_view *view, int x, int y, int width, int height) {
	struct wlr_xwayland_surface *xs = view->xsurface;
	if (xs->override_redirect) {
		return;
	}
	/* X11 positions and sizes are 16-bit: clamp before the narrowing. */
	int w = width > 0 ? width : xs->width;
	int h = height > 0 ? height : xs->height;
	w = w < 1 ? 1 : w > 32767 ? 32767 : w;
	h = h < 1 ? 1 : h > 32767 ? 32767 : h;
	x = x < -32768 ? -32768 : x > 32767 ? 32767 : x;
	y = y < -32768 ? -32768 : y > 32767 ? 32767 : y;
	wlr_xwayland_surface_configure(xs, (int16_t)x, (int16_t)y, (uint16_t)w, (uint16_t)h);
}

void mh_x11_view_focus(struct mh_view *view) {
	if (!view->xsurface->override_redirect) {
		wlr_xwayland_surface_activate(view->xsurface, true);
	}
}

const char *mh_x11_view_title(struct mh_view *view) {
	return view->xsurface->title;
}

struct wl_client *mh_xwayland_client(struct mh_server *server) {
	if (server->xwayland == NULL || server->xwayland->server == NULL) {
		return NULL;
	}
	return server->xwayland->server->client;
}

/* Fullscreen and maximized fill the output under the window's centre, as a window manager would. */
static struct mh_output *output_under_centre(struct mh_view *view) {
	struct wlr_box frame = mh_view_frame(view);
	return mh_output_at(view->server, frame.x + frame.width / 2.0, frame.y + frame.height / 2.0);
}

static void x11_map(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_view *view = wl_container_of(listener, view, map);
	struct mh_server *server = view->server;
	struct wlr_xwayland_surface *xs = view->xsurface;
	view->node = wlr_scene_subsurface_tree_create(&server->scene->node, xs->surface);
	if (view->node == NULL) {
		return;
	}
	view->node->data = view;
	view->mapped = true;
	/* Placed as a normal window first (the frame it returns to), then in the states it mapped with. */
	bool fullscreen = !xs->override_redirect && xs->fullscreen;
	bool maximized = !xs->override_redirect && xs->maximized_vert && xs->maximized_horz;
	view->fullscreen = view->maximized = false;
	if (xs->override_redirect || xs->x != 0 || xs->y != 0) {
		view->x = xs->x;
		view->y = xs->y;
		wlr_scene_node_set_position(view->node, view->x, view->y);
		struct mh_output *at = mh_output_at(server, view->x, view->y);
		view->output = xs->override_redirect || at == NULL ? NULL : at->wlr_output;
	} else {
		mh_view_place(view);
	}
	if (fullscreen || maximized) {
		mh_view_set_state(view, fullscreen, maximized, output_under_centre(view));
	}
	if (!xs->override_redirect || wlr_xwayland_or_surface_wants_focus(xs)) {
		mh_view_focus(view);
	}
}

static void x11_unmap(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_view *view = wl_container_of(listener, view, unmap);
	view->mapped = false;
	if (view->node != NULL) {
		wlr_scene_node_destroy(view->node);
		view->node = NULL;
	}
}

static void x11_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_view *view = wl_container_of(listener, view, destroy);
	if (view->node != NULL) {
		wlr_scene_node_destroy(view->node);
	}
	wl_list_remove(&view->map.link);
	wl_list_remove(&view->unmap.link);
	wl_list_remove(&view->destroy.link);
	wl_list_remove(&view->request_configure.link);
	wl_list_remove(&view->request_fullscreen.link);
	wl_list_remove(&view->request_maximize.link);
	wl_list_remove(&view->request_minimize.link);
	wl_list_remove(&view->set_geometry.link);
	wl_list_remove(&view->link);
	free(view);
}

static void x11_request_configure(struct wl_listener *listener, void *data) {
	struct mh_view *view = wl_container_of(listener, view, request_configure);
	struct wlr_xwayland_surface_configure_event *event = data;
	/* Not yet shown, or shown and asking: the client's geometry stands, as under a plain X server. */
	wlr_xwayland_surface_configure(view->xsurface, event->x, event->y, event->width, event->height);
	view->x = event->x;
	view->y = event->y;
	if (view->node != NULL) {
		wlr_scene_node_set_position(view->node, view->x, view->y);
	}
}

static void x11_set_geometry(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_view *view = wl_container_of(listener, view, set_geometry);
	/* Override-redirect windows move themselves. */
	if (view->xsurface->override_redirect) {
		view->x = view->xsurface->x;
		view->y = view->xsurface->y;
		if (view->node != NULL) {
			wlr_scene_node_set_position(view->node, view->x, view->y);
		}
	}
}

static void x11_request_fullscreen(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_view *view = wl_container_of(listener, view, request_fullscreen);
	struct wlr_xwayland_surface *xs = view->xsurface;
	/* wlroots 0.15 has already set the state the client asked for (add, remove or toggle) when it signals
	 * the request: grant it as it stands (toggling it here undid every request). */
	mh_view_set_state(view, xs->fullscreen, view->maximized, view->mapped ? output_under_centre(view) : NULL);
}

static void x11_request_maximize(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_view *view = wl_container_of(listener, view, request_maximize);
	struct wlr_xwayland_surface *xs = view->xsurface;
	/* As for fullscreen, wlroots has set the flags asked. Maximized is both directions; one alone (which
	 * no desktop toolkit asks) is refused: the answer's _NET_WM_STATE has neither. */
	mh_view_set_state(view, view->fullscreen, xs->maximized_vert && xs->maximized_horz,
		view->mapped ? output_under_centre(view) : NULL);
}

static void x11_request_minimize(struct wl_listener *listener, void *data) {
	struct mh_view *view = wl_container_of(listener, view, request_minimize);
	struct wlr_xwayland_minimize_event *event = data;
	mh_view_set_minimized(view, event->minimize);
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct mh_server *server = wl_container_of(listener, server, new_xwayland_surface);
	struct wlr_xwayland_surface *xs = data;
	struct mh_view *view = calloc(1, sizeof(*view));
	if (view == NULL) {
		return;
	}
	view->server = server;
	view->id = ++server->view_count;
	view->kind = MH_VIEW_X11;
	view->xsurface = xs;
	view->map.notify = x11_map;
	wl_signal_add(&xs->events.map, &view->map);
	view->unmap.notify = x11_unmap;
	wl_signal_add(&xs->events.unmap, &view->unmap);
	view->destroy.notify = x11_destroy;
	wl_signal_add(&xs->events.destroy, &view->destroy);
	view->request_configure.notify = x11_request_configure;
	wl_signal_add(&xs->events.request_configure, &view->request_configure);
	view->request_fullscreen.notify = x11_request_fullscreen;
	wl_signal_add(&xs->events.request_fullscreen, &view->request_fullscreen);
	view->request_maximize.notify = x11_request_maximize;
	wl_signal_add(&xs->events.request_maximize, &view->request_maximize);
	view->request_minimize.notify = x11_request_minimize;
	wl_signal_add(&xs->events.request_minimize, &view->request_minimize);
	view->set_geometry.notify = x11_set_geometry;
	wl_signal_add(&xs->events.set_geometry, &view->set_geometry);
	wl_list_insert(server->views.prev, &view->link);
}

/*
 * Xwayland dying (killed, crashed) must not take the compositor along. wlroots 0.15 gets two things
 * wrong when Xwayland's Wayland client goes, and we mend its state from a destroy listener of our own,
 * which runs before wlroots' (ours is added when the client is created, wlroots' just after):
 *
 * - Once Xwayland is ready, the X window manager's xcb connection owns the WM socket (wm_fd[0]) and
 *   closes it when it sees the hangup, later in the same loop turn. wlroots' handle_client_destroy closes
 *   that fd too, then restarts Xwayland at once (server_start is zeroed by its reset, so its "alive 5 s"
 *   rule always holds): the new Xwayland's sockets take the freed number, and xcb's close then cuts the
 *   new Xwayland's Wayland connection before it is ready. We leave that fd to xcb alone.
 * - A client that goes before Xwayland is ready (pipe_source still set) is left in server->client by
 *   wlroots, whose readiness handler then calls wl_client_destroy() on the freed client (the SEGV in
 *   wl_client_destroy from the event loop). We clear it; wlroots' readiness handler then reaps the
 *   failed start as it should, and gives that X display up (X clients then fail to connect).
 */
static void handle_xwayland_client_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_server *server = wl_container_of(listener, server, xwayland_client_destroy);
	wl_list_remove(&listener->link);
	wl_list_init(&listener->link);
	struct wlr_xwayland_server *xs = server->xwayland->server;
	if (xs->pipe_source != NULL) {
		xs->client = NULL;
	} else if (server->xwayland->xwm != NULL) {
		xs->wm_fd[0] = -1;
	}
}

/* Inside wlr_xwayland_create: the one client created then is an eager Xwayland's. */
static bool creating;

static void handle_client_created(struct wl_listener *listener, void *data) {
	struct mh_server *server = wl_container_of(listener, server, xwayland_client_created);
	struct wl_client *client = data;
	struct wlr_xwayland_server *xs = server->xwayland != NULL ? server->xwayland->server : NULL;
	/* wlroots creates Xwayland's client on its end of a socket pair, whose fd it holds until then. Our
	 * listener goes first on the client, before wlroots adds its own. */
	if (creating || (xs != NULL && xs->wl_fd[0] >= 0 && wl_client_get_fd(client) == xs->wl_fd[0])) {
		wl_list_remove(&server->xwayland_client_destroy.link);
		wl_client_add_destroy_listener(client, &server->xwayland_client_destroy);
	}
}

static void handle_ready(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_server *server = wl_container_of(listener, server, xwayland_ready);
	wlr_xwayland_set_seat(server->xwayland, server->seat);
	mh_send_ready(server);
}

bool mh_xwayland_init(struct mh_server *server) {
	/* Before wlr_xwayland_create: eager Xwayland's client is created inside it. */
	server->xwayland_client_destroy.notify = handle_xwayland_client_destroy;
	wl_list_init(&server->xwayland_client_destroy.link);
	server->xwayland_client_created.notify = handle_client_created;
	wl_display_add_client_created_listener(server->display, &server->xwayland_client_created);
	creating = true;
	server->xwayland = wlr_xwayland_create(server->display, server->compositor,
		server->xwayland_mode == MH_XWAYLAND_LAZY);
	creating = false;
	if (server->xwayland == NULL) {
		wl_list_remove(&server->xwayland_client_created.link);
		return false;
	}
	server->xwayland_ready.notify = handle_ready;
	wl_signal_add(&server->xwayland->events.ready, &server->xwayland_ready);
	server->new_xwayland_surface.notify = handle_new_surface;
	wl_signal_add(&server->xwayland->events.new_surface, &server->new_xwayland_surface);
	/* X clients see the seat from their first request, lazy or not. */
	wlr_xwayland_set_seat(server->xwayland, server->seat);
	return true;
}

void mh_xwayland_finish(struct mh_server *server) {
	if (server->xwayland == NULL) {
		return;
	}
	wl_list_remove(&server->xwayland_ready.link);
	wl_list_remove(&server->new_xwayland_surface.link);
	wl_list_remove(&server->xwayland_client_created.link);
	wl_list_remove(&server->xwayland_client_destroy.link);
	struct wlr_xwayland_server *xs = server->xwayland->server;
	if (xs != NULL && xs->pipe_source != NULL && xs->pid > 0) {
		/* Xwayland is starting: wlroots' go-between fork (our unreaped child, so the PID is still its)
		 * holds our ends of Xwayland's sockets, so Xwayland would wait for us for ever, and it for
		 * Xwayland. Ending it lets Xwayland see the hangup and end. */
		kill(xs->pid, SIGKILL);
		waitpid(xs->pid, NULL, 0);
		xs->pid = 0;
	}
	wlr_xwayland_destroy(server->xwayland);
	server->xwayland = NULL;
}
