/*
 * multihead-compositor: a headless Wayland compositor whose outputs are plugged, unplugged, resized and
 * scaled at run time through a line protocol on stdin/stdout (Compositor/README.md). This file parses
 * the command line, creates the display, backend, renderer and globals, prints the ready line and runs
 * the event loop until stdin closes, `quit`, SIGTERM or SIGINT.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/backend/headless.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/types/wlr_viewporter.h>
#include <wlr/types/wlr_primary_selection_v1.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>
#include "compositor.h"

static void usage(FILE *to) {
	fputs("usage: multihead-compositor [--xwayland=lazy|eager|off] [--verbose]\n"
	      "Runs a headless Wayland compositor on a new socket in $XDG_RUNTIME_DIR; reads commands on\n"
	      "stdin and answers on stdout (see Compositor/README.md). Exit: 0 done, 64 usage, 69 no\n"
	      "runtime folder or socket, 70 internal error.\n", to);
}

static int handle_signal(int sig, void *data) {
	(void)sig;
	struct mh_server *server = data;
	wl_display_terminate(server->display);
	return 0;
}

/* The one line the parent waits for: it names the sockets, so it can start clients at once. */
void mh_send_ready(struct mh_server *server) {
	if (server->ready_sent) {
		return;
	}
	server->ready_sent = true;
	if (server->xwayland != NULL) {
		mh_reply("ready WAYLAND_DISPLAY=%s DISPLAY=%s PID=%d", server->socket,
			server->xwayland->display_name, (int)getpid());
	} else {
		mh_reply("ready WAYLAND_DISPLAY=%s PID=%d%s", server->socket, (int)getpid(),
			server->xwayland_unavailable ? " XWAYLAND=unavailable" : "");
	}
}

int main(int argc, char **argv) {
	struct mh_server server = {0};
	server.xwayland_mode = MH_XWAYLAND_LAZY;
	enum wlr_log_importance log_level = WLR_ERROR;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--xwayland=lazy") == 0) {
			server.xwayland_mode = MH_XWAYLAND_LAZY;
		} else if (strcmp(argv[i], "--xwayland=eager") == 0) {
			server.xwayland_mode = MH_XWAYLAND_EAGER;
		} else if (strcmp(argv[i], "--xwayland=off") == 0 || strcmp(argv[i], "--no-xwayland") == 0) {
			server.xwayland_mode = MH_XWAYLAND_OFF;
		} else if (strcmp(argv[i], "--verbose") == 0) {
			log_level = WLR_DEBUG;
		} else if (strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "multihead-compositor: unknown argument '%s'\n", argv[i]);
			usage(stderr);
			return 64;
		}
	}
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	if (runtime == NULL || runtime[0] != '/') {
		fputs("multihead-compositor: XDG_RUNTIME_DIR must name a folder (an absolute path)\n", stderr);
		return 69;
	}
	wlr_log_init(log_level, NULL);
	/* The parent reads our answers; if it is gone, a write must fail rather than kill us mid-teardown. */
	signal(SIGPIPE, SIG_IGN);
	/* No GPU is needed or wanted: pixman renders the same pixels everywhere. WLR_RENDERER overrides. */
	setenv("WLR_RENDERER", "pixman", 0);
	/* Our clients must not connect to a compositor or X server of the desktop we were started from. */
	unsetenv("WAYLAND_DISPLAY");
	unsetenv("WAYLAND_SOCKET");

	int status = 70;
	server.display = wl_display_create();
	if (server.display == NULL) {
		fputs("multihead-compositor: cannot create the Wayland display\n", stderr);
		return 70;
	}
	server.loop = wl_display_get_event_loop(server.display);
	wl_list_init(&server.outputs);
	wl_list_init(&server.disabled);
	wl_list_init(&server.views);

	server.backend = wlr_headless_backend_create(server.display);
	if (server.backend == NULL) {
		fputs("multihead-compositor: cannot create the headless backend\n", stderr);
		goto out_display;
	}
	server.renderer = wlr_renderer_autocreate(server.backend);
	if (server.renderer == NULL || !wlr_renderer_init_wl_display(server.renderer, server.display)) {
		fputs("multihead-compositor: cannot create a renderer (WLR_RENDERER=pixman needs none)\n", stderr);
		goto out_display;
	}
	server.allocator = wlr_allocator_autocreate(server.backend, server.renderer);
	if (server.allocator == NULL) {
		fputs("multihead-compositor: cannot create a buffer allocator\n", stderr);
		goto out_renderer;
	}

	server.compositor = wlr_compositor_create(server.display, server.renderer);
	/* wlroots 0.15 creates wl_subcompositor with wl_compositor. */
	wlr_data_device_manager_create(server.display);
	wlr_primary_selection_v1_device_manager_create(server.display);
	wlr_viewporter_create(server.display);
	server.layout = wlr_output_layout_create();
	wlr_xdg_output_manager_v1_create(server.display, server.layout);
	wlr_screencopy_manager_v1_create(server.display);
	mh_output_manager_init(&server);
	mh_fractional_scale_init(&server);
	server.scene = wlr_scene_create();
	wlr_scene_attach_output_layout(server.scene, server.layout);
	mh_outputs_init(&server);
	mh_views_init(&server);
	if (!mh_input_init(&server)) {
		fputs("multihead-compositor: cannot create the seat's keyboard\n", stderr);
		goto out_input;
	}

	server.socket = wl_display_add_socket_auto(server.display);
	if (server.socket == NULL) {
		fprintf(stderr, "multihead-compositor: cannot create a socket in %s\n", runtime);
		status = 69;
		goto out_input;
	}
	if (!wlr_backend_start(server.backend)) {
		fputs("multihead-compositor: cannot start the headless backend\n", stderr);
		goto out_input;
	}
	if (server.xwayland_mode != MH_XWAYLAND_OFF && !mh_xwayland_init(&server)) {
		/* wlroots 0.15 takes an X display among :0…:32 only, which a machine running many X servers (a
		 * test suite's) may have filled: the default (lazy) goes on for Wayland clients, and says so; a
		 * caller who asked for Xwayland eagerly gets the failure. */
		if (server.xwayland_mode == MH_XWAYLAND_EAGER) {
			fputs("multihead-compositor: cannot start Xwayland (run with --xwayland=off to go without)\n", stderr);
			goto out_input;
		}
		fputs("multihead-compositor: no Xwayland: no X display free among :0…:32, the only ones wlroots 0.15 "
			"takes; Wayland clients only\n", stderr);
		server.xwayland_mode = MH_XWAYLAND_OFF;
		server.xwayland_unavailable = true;
	}
	/* Clients we start (none today) and Xwayland find us here. */
	setenv("WAYLAND_DISPLAY", server.socket, 1);

	struct wl_event_source *sigterm = wl_event_loop_add_signal(server.loop, SIGTERM, handle_signal, &server);
	struct wl_event_source *sigint = wl_event_loop_add_signal(server.loop, SIGINT, handle_signal, &server);
	if (!mh_control_init(&server, STDIN_FILENO, STDOUT_FILENO)) {
		fputs("multihead-compositor: cannot watch stdin\n", stderr);
		goto out_signals;
	}
	/* Eager Xwayland announces readiness from its ready event, so DISPLAY is usable when we say so. */
	if (server.xwayland_mode != MH_XWAYLAND_EAGER) {
		mh_send_ready(&server);
	}
	wl_display_run(server.display);
	status = 0;

	mh_control_finish();
	mh_capture_finish();
out_signals:
	wl_event_source_remove(sigterm);
	wl_event_source_remove(sigint);
out_input:
	/* Xwayland first: wlroots restarts an Xwayland whose client is destroyed under it, and a restart
	 * begun now would outlive us. */
	mh_xwayland_finish(&server);
	wl_display_destroy_clients(server.display);
	mh_input_finish(&server);
	/* Destroying the display destroys the backend, so the outputs, before the scene and layout go. */
	wl_display_destroy(server.display);
	server.display = NULL;
	wlr_scene_node_destroy(&server.scene->node);
	wlr_output_layout_destroy(server.layout);
	wlr_allocator_destroy(server.allocator);
	wlr_renderer_destroy(server.renderer);
	return status;
out_renderer:
	wlr_renderer_destroy(server.renderer);
out_display:
	wl_display_destroy(server.display);
	return status;
}
