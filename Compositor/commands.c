/*
 * The control protocol's commands: each checks its words, does its work through outputs.c, views.c,
 * input.c or capture.c (plug and mode are output_commands.c's, move-window and fullscreen-window
 * window_commands.c's), and answers exactly one line (control.c reads the lines and writes the answers).
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
#include <time.h>
#include "compositor.h"

/* The server the command being run is for (set by mh_run_command). */
static struct mh_server *server_;

/* key=value options after the positional words; each at most once. */
const char *mh_option(char **tokens, int n, int first, const char *key, const char **error) {
	const char *found = NULL;
	size_t klen = strlen(key);
	for (int i = first; i < n; i++) {
		if (strncmp(tokens[i], key, klen) == 0 && tokens[i][klen] == '=') {
			if (found != NULL) {
				*error = "usage an option is given twice";
			}
			found = tokens[i] + klen + 1;
		}
	}
	return found;
}

bool mh_options_known(char **tokens, int n, int first, const char *const *keys) {
	for (int i = first; i < n; i++) {
		bool known = false;
		for (const char *const *k = keys; *k && !known; k++) {
			size_t klen = strlen(*k);
			known = strncmp(tokens[i], *k, klen) == 0 && tokens[i][klen] == '=';
		}
		if (!known) {
			return false;
		}
	}
	return true;
}

/* The enabled output of that name, or NULL once the error is answered. */
struct mh_output *mh_named_output(struct mh_server *server, const char *name) {
	struct mh_output *output = mh_output_find(server, name);
	if (output == NULL) {
		mh_reply_error(mh_output_find_plugged(server, name) != NULL ? "no-such-output that output is disabled"
			" (by an output manager client)" : "no-such-output no output of that name is plugged");
	}
	return output;
}

/* `outputs` and `toplevels`: a JSON array on the answer line; `configuration`: the outputs with the
 * configuration serial they are, in one answer (no change can come between the two). */
static void cmd_list(bool outputs, bool configuration) {
	char *text;
	size_t size;
	FILE *m = mh_answer_begin(&text, &size);
	if (m == NULL) {
		mh_answer_end(m, &text);
		return;
	}
	bool first = true;
	if (configuration) {
		fprintf(m, "{\"configurationSerial\":%llu,\"outputs\":", server_->configuration_serial);
	}
	fputc('[', m);
	if (outputs) {
		struct mh_output *output;
		wl_list_for_each(output, &server_->outputs, link) {
			fputs(first ? "" : ",", m);
			mh_output_json(m, output, false);
			first = false;
		}
	} else {
		struct mh_view *view;
		wl_list_for_each(view, &server_->views, link) {
			if (view->mapped) {
				fputs(first ? "" : ",", m);
				mh_view_json(m, view);
				first = false;
			}
		}
	}
	fputc(']', m);
	if (configuration) {
		fputc('}', m);
	}
	mh_answer_end(m, &text);
}

/* TARGET is an output's name or "layout" (NULL output). */
static bool target(const char *name, struct mh_output **output) {
	*output = NULL;
	if (strcmp(name, "layout") == 0) {
		return true;
	}
	*output = mh_named_output(server_, name);
	return *output != NULL;
}

static void cmd_pixel(char **t, int n) {
	long x, y;
	if (n != 4) {
		mh_reply_error("usage pixel OUTPUT|layout X Y");
		return;
	}
	if (!mh_parse_int(t[2], -1000000, 1000000, &x) || !mh_parse_int(t[3], -1000000, 1000000, &y)) {
		mh_reply_error("bad-value X and Y are integers");
		return;
	}
	struct mh_output *output;
	if (!target(t[1], &output)) {
		return;
	}
	uint32_t argb;
	const char *error = mh_capture_pixel(server_, output, (int)x, (int)y, &argb);
	if (error != NULL) {
		mh_reply_error(error);
		return;
	}
	mh_reply("ok #%06x", argb & 0xffffff);
}

static void cmd_screenshot(char **t, int n) {
	static const char *const keys[] = {"format", NULL};
	if (n < 3 || !mh_options_known(t, n, 3, keys)) {
		mh_reply_error("usage screenshot OUTPUT|layout PATH [format=png|ppm]");
		return;
	}
	const char *error = NULL;
	const char *format = mh_option(t, n, 3, "format", &error);
	if (error != NULL) {
		mh_reply_error(error);
		return;
	}
	struct mh_output *output;
	if (!target(t[1], &output)) {
		return;
	}
	int width = 0, height = 0;
	error = mh_capture_file(server_, output, t[2], format ? format : "png", &width, &height);
	if (error != NULL) {
		mh_reply_error(error);
		return;
	}
	char *text;
	size_t size;
	FILE *m = mh_answer_begin(&text, &size);
	if (m != NULL) {
		fputs("{\"path\":", m);
		mh_json_string(m, t[2]);
		fprintf(m, ",\"width\":%d,\"height\":%d}", width, height);
	}
	mh_answer_end(m, &text);
}

/* Destroys every client but Xwayland (its X clients stay: see README); returns how many went. */
static int disconnect_clients(void) {
	struct wl_client *xwayland = mh_xwayland_client(server_);
	struct wl_list *list = wl_display_get_client_list(server_->display);
	int count = 0;
	for (struct wl_list *link = list->next, *next; link != list; link = next) {
		next = link->next;
		struct wl_client *client = wl_client_from_link(link);
		if (client != xwayland) {
			wl_client_destroy(client);
			count++;
		}
	}
	return count;
}

static int count_clients(void) {
	struct wl_client *xwayland = mh_xwayland_client(server_);
	int count = 0;
	struct wl_client *client;
	wl_client_for_each(client, wl_display_get_client_list(server_->display)) {
		count += client != xwayland;
	}
	return count;
}

void mh_run_command(struct mh_server *server, char **t, int n) {
	server_ = server;
	const char *error = NULL;
	const char *c = t[0];
	if (strcmp(c, "ping") == 0 && n == 1) {
		mh_reply("ok pong");
	} else if (strcmp(c, "plug") == 0) {
		mh_cmd_plug(server, t, n);
	} else if (strcmp(c, "unplug") == 0) {
		struct mh_output *output = n == 2 ? mh_output_find_plugged(server, t[1]) : NULL;
		if (n != 2 || output == NULL) {
			mh_reply_error(n != 2 ? "usage unplug NAME" : "no-such-output no output of that name is plugged");
		} else {
			wlr_output_destroy(output->wlr_output);
			mh_reply("ok {\"configurationSerial\":%llu}", server->configuration_serial);
		}
	} else if (strcmp(c, "mode") == 0) {
		mh_cmd_mode(server, t, n);
	} else if (strcmp(c, "outputs") == 0 && n == 1) {
		cmd_list(true, false);
	} else if (strcmp(c, "configuration") == 0 && n == 1) {
		cmd_list(true, true);
	} else if (strcmp(c, "toplevels") == 0 && n == 1) {
		cmd_list(false, false);
	} else if (strcmp(c, "move-window") == 0 || strcmp(c, "fullscreen-window") == 0) {
		(c[0] == 'm' ? mh_cmd_move_window : mh_cmd_fullscreen_window)(server, t, n);
	} else if (strcmp(c, "pixel") == 0) {
		cmd_pixel(t, n);
	} else if (strcmp(c, "screenshot") == 0) {
		cmd_screenshot(t, n);
	} else if (strcmp(c, "pointer") == 0) {
		double x, y;
		if (n != 3) {
			mh_reply_error("usage pointer X Y");
		} else if (!mh_parse_double(t[1], -1e6, 1e6, &x) || !mh_parse_double(t[2], -1e6, 1e6, &y)) {
			mh_reply_error("bad-value X and Y are finite numbers within ±1000000");
		} else {
			mh_pointer_move(server, x, y);
			mh_reply("ok %.2f,%.2f", server->pointer_x, server->pointer_y);
		}
	} else if (strcmp(c, "button") == 0 || strcmp(c, "key") == 0) {
		bool button = c[0] == 'b';
		if (n != 2 && n != 3) {
			mh_reply_error(button ? "usage button left|right|middle [press|release|click]"
				: "usage key KEYSYM [press|release|tap]");
			return;
		}
		const char *action = n == 3 ? t[2] : button ? "click" : "tap";
		error = button ? mh_pointer_button(server, t[1], action) : mh_key(server, t[1], action);
		error != NULL ? mh_reply_error(error) : mh_reply("ok");
	} else if (strcmp(c, "type") == 0) {
		if (n != 2) {
			mh_reply_error("usage type TEXT (quoted when it has spaces)");
			return;
		}
		error = mh_type_text(server, t[1]);
		error != NULL ? mh_reply_error(error) : mh_reply("ok");
	} else if (strcmp(c, "frame") == 0 && n == 1) {
		/* Every shown surface's frame callback now, flushed before the answer: a client that held
		 * damage back until its callback (Xwayland does) sends it before anything it is asked next. */
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		struct mh_output *output;
		wl_list_for_each(output, &server->outputs, link) {
			struct wlr_scene_output *scene_output = wlr_scene_get_scene_output(server->scene, output->wlr_output);
			if (scene_output != NULL) {
				wlr_scene_output_send_frame_done(scene_output, &now);
			}
		}
		wl_display_flush_clients(server->display);
		mh_reply("ok");
	} else if (strcmp(c, "clients") == 0 && n == 1) {
		mh_reply("ok %d", count_clients());
	} else if (strcmp(c, "disconnect-clients") == 0 && n == 1) {
		mh_reply("ok %d", disconnect_clients());
	} else if (strcmp(c, "reset") == 0 && n == 1) {
		/* A lease's release: its clients go, then its outputs; the pointer returns to the origin. */
		int count = disconnect_clients();
		while (!wl_list_empty(&server->outputs) || !wl_list_empty(&server->disabled)) {
			struct wl_list *list = wl_list_empty(&server->outputs) ? &server->disabled : &server->outputs;
			struct mh_output *output = wl_container_of(list->next, output, link);
			wlr_output_destroy(output->wlr_output);
		}
		mh_pointer_move(server, 0, 0);
		mh_reply("ok %d", count);
	} else if (strcmp(c, "quit") == 0 && n == 1) {
		mh_reply("ok");
		mh_control_quit();
	} else if (strcmp(c, "ping") == 0 || strcmp(c, "outputs") == 0 || strcmp(c, "configuration") == 0
			|| strcmp(c, "toplevels") == 0
			|| strcmp(c, "clients") == 0 || strcmp(c, "disconnect-clients") == 0 || strcmp(c, "frame") == 0
			|| strcmp(c, "reset") == 0 || strcmp(c, "quit") == 0) {
		mh_reply("error usage %s takes no arguments", c);
	} else {
		mh_reply_error("unknown-command see Compositor/README.md for the commands");
	}
}

