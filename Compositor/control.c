/*
 * The control channel: one command a line on stdin, one answer a line on stdout ("ok …" or
 * "error CODE reason"), as Compositor/README.md specifies. Lines are run from an idle callback, after
 * every file descriptor the loop found ready: a command therefore sees every request a client wrote
 * before the command itself was written (a client's commit, then its "drawn" line, then `pixel`).
 * End of input ends the compositor, so a parent that dies takes it along.
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
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compositor.h"

#define MAX_TOKENS 16

static struct {
	struct mh_server *server;
	int in_fd, out_fd;
	struct wl_event_source *source;
	struct wl_event_source *idle;
	char buf[MH_LINE_MAX + 1];
	size_t len;
	bool discarding; /* inside a line longer than MH_LINE_MAX: dropped up to its newline */
	bool eof, quitting;
} ctl;

void mh_control_write_line(const char *line) {
	char end = '\n';
	/* A parent that stopped reading cannot be answered any more: end, as on end of input. */
	if (!mh_write_all(ctl.out_fd, line, strlen(line)) || !mh_write_all(ctl.out_fd, &end, 1)) {
		ctl.quitting = true;
		wl_display_terminate(ctl.server->display);
	}
}

static void reply(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void reply(const char *format, ...) {
	char line[MH_LINE_MAX];
	va_list args;
	va_start(args, format);
	vsnprintf(line, sizeof(line), format, args);
	va_end(args);
	mh_control_write_line(line);
}

/* "CODE reason" from a helper becomes "error CODE reason". */
static void reply_error(const char *code_and_reason) {
	reply("error %s", code_and_reason);
}

/* Splits a line into words; "double quotes" group, \" and \\ escape inside them. */
static int tokenize(char *line, char **tokens, const char **error) {
	int n = 0;
	char *r = line, *w = line;
	while (*r) {
		while (*r == ' ' || *r == '\t') {
			r++;
		}
		if (*r == '\0') {
			break;
		}
		if (n == MAX_TOKENS) {
			*error = "usage too many words";
			return -1;
		}
		tokens[n++] = w;
		bool quoted = false;
		while (*r && (quoted || (*r != ' ' && *r != '\t'))) {
			if (*r == '"') {
				quoted = !quoted;
				r++;
			} else if (quoted && *r == '\\' && (r[1] == '"' || r[1] == '\\')) {
				*w++ = r[1];
				r += 2;
			} else {
				*w++ = *r++;
			}
		}
		if (quoted) {
			*error = "usage a quote is not closed";
			return -1;
		}
		/* w never passes r: ending the word in place cannot overwrite unread input. */
		bool last = *r == '\0';
		*w = '\0';
		if (last) {
			break;
		}
		r++;
		w++;
		if (w < r) {
			w = r;
		}
	}
	return n;
}

/* An identity string: printable, valid UTF-8, and short enough for wlroots' fixed field. */
static bool identity_ok(const char *s, size_t field) {
	if (strlen(s) >= field) {
		return false;
	}
	char json[256];
	mh_json_string(json, sizeof(json), s);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			return false;
		}
	}
	/* The JSON writer turns bad UTF-8 into \ufffd: if it had to, the string is not UTF-8. */
	return strstr(json, "\\ufffd") == NULL || strstr(s, "\\ufffd") != NULL;
}

/* key=value options after the positional words; each at most once. */
static const char *option(char **tokens, int n, int first, const char *key, const char **error) {
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

static bool options_known(char **tokens, int n, int first, const char *const *keys) {
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

static void cmd_plug(char **t, int n) {
	static const char *const keys[] = {"mode", "pos", "scale", "make", "model", "serial", "size-mm", NULL};
	if (n < 2 || !options_known(t, n, 2, keys)) {
		reply_error("usage plug NAME [mode=WxH[@HZ]] [pos=X,Y] [scale=N] [make=S] [model=S] [serial=S] [size-mm=WxH]");
		return;
	}
	if (!mh_output_name_valid(t[1])) {
		reply_error("bad-value the output name is DP-1…DP-8 or HDMI-1…HDMI-8");
		return;
	}
	const char *error = NULL;
	const char *mode = option(t, n, 2, "mode", &error), *pos = option(t, n, 2, "pos", &error);
	const char *scale = option(t, n, 2, "scale", &error), *make = option(t, n, 2, "make", &error);
	const char *model = option(t, n, 2, "model", &error), *serial = option(t, n, 2, "serial", &error);
	const char *mm = option(t, n, 2, "size-mm", &error);
	if (error != NULL) {
		reply_error(error);
		return;
	}
	struct mh_output_spec spec = { .name = t[1], .width = 1920, .height = 1080, .refresh_mhz = 60000,
		.scale = 1 };
	long a, b, s;
	if (mode != NULL && !mh_parse_mode(mode, &spec.width, &spec.height, &spec.refresh_mhz)) {
		reply_error("bad-value mode is WxH or WxH@HZ: sides 1…8192, at most 7680×4320 pixels, 1…1000 Hz");
		return;
	}
	if (pos != NULL) {
		if (!mh_parse_pair(pos, ',', -MH_MAX_POSITION, MH_MAX_POSITION, &a, &b)) {
			reply_error("bad-value pos is X,Y with each within ±32767");
			return;
		}
		spec.has_position = true;
		spec.x = (int)a;
		spec.y = (int)b;
	}
	if (scale != NULL) {
		if (!mh_parse_int(scale, 1, MH_MAX_SCALE, &s)) {
			reply_error("bad-value scale is an integer 1…4");
			return;
		}
		spec.scale = (int)s;
	}
	if (mm != NULL) {
		if (!mh_parse_pair(mm, 'x', 1, 10000, &a, &b)) {
			reply_error("bad-value size-mm is WxH in millimetres, 1…10000");
			return;
		}
		spec.mm_width = (int)a;
		spec.mm_height = (int)b;
	}
	if ((make && !identity_ok(make, sizeof(spec.make))) || (model && !identity_ok(model, sizeof(spec.model)))
			|| (serial && !identity_ok(serial, sizeof(spec.serial)))) {
		reply_error("bad-value make (≤55 bytes), model and serial (≤15 bytes) are printable UTF-8");
		return;
	}
	snprintf(spec.make, sizeof(spec.make), "%s", make ? make : "Multihead");
	snprintf(spec.model, sizeof(spec.model), "%s", model ? model : "Virtual Monitor");
	snprintf(spec.serial, sizeof(spec.serial), "%s", serial ? serial : "");
	struct mh_output *output = NULL;
	error = mh_output_plug(ctl.server, &spec, &output);
	if (error != NULL) {
		reply_error(error);
		return;
	}
	char json[1024];
	mh_output_json(output, json, sizeof(json));
	reply("ok %s", json);
}

static struct mh_output *named_output(const char *name) {
	struct mh_output *output = mh_output_find(ctl.server, name);
	if (output == NULL) {
		reply_error("no-such-output no output of that name is plugged");
	}
	return output;
}

static void cmd_mode(char **t, int n) {
	static const char *const keys[] = {"mode", "pos", "scale", NULL};
	if (n < 3 || !options_known(t, n, 2, keys)) {
		reply_error("usage mode NAME [mode=WxH[@HZ]] [pos=X,Y] [scale=N] (at least one)");
		return;
	}
	const char *error = NULL;
	const char *mode = option(t, n, 2, "mode", &error), *pos = option(t, n, 2, "pos", &error);
	const char *scale = option(t, n, 2, "scale", &error);
	if (error != NULL) {
		reply_error(error);
		return;
	}
	int width = 0, height = 0, refresh = 0;
	long x = 0, y = 0, s = 0;
	if (mode != NULL && !mh_parse_mode(mode, &width, &height, &refresh)) {
		reply_error("bad-value mode is WxH or WxH@HZ: sides 1…8192, at most 7680×4320 pixels, 1…1000 Hz");
		return;
	}
	if (pos != NULL && !mh_parse_pair(pos, ',', -MH_MAX_POSITION, MH_MAX_POSITION, &x, &y)) {
		reply_error("bad-value pos is X,Y with each within ±32767");
		return;
	}
	if (scale != NULL && !mh_parse_int(scale, 1, MH_MAX_SCALE, &s)) {
		reply_error("bad-value scale is an integer 1…4");
		return;
	}
	struct mh_output *output = named_output(t[1]);
	if (output == NULL) {
		return;
	}
	error = mh_output_change(output, width, height, refresh, pos != NULL, (int)x, (int)y, (int)s);
	if (error != NULL) {
		reply_error(error);
		return;
	}
	char json[1024];
	mh_output_json(output, json, sizeof(json));
	reply("ok %s", json);
}

/* `outputs` and `toplevels`: a JSON array on the answer line. */
static void cmd_list(bool outputs) {
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);
	if (m == NULL) {
		reply_error("internal out of memory");
		return;
	}
	char json[1400];
	bool first = true;
	fputc('[', m);
	if (outputs) {
		struct mh_output *output;
		wl_list_for_each(output, &ctl.server->outputs, link) {
			mh_output_json(output, json, sizeof(json));
			fprintf(m, "%s%s", first ? "" : ",", json);
			first = false;
		}
	} else {
		struct mh_view *view;
		wl_list_for_each(view, &ctl.server->views, link) {
			if (view->mapped) {
				mh_view_json(view, json, sizeof(json));
				fprintf(m, "%s%s", first ? "" : ",", json);
				first = false;
			}
		}
	}
	fputc(']', m);
	fclose(m);
	/* Not through reply(): a long list may pass MH_LINE_MAX, and the answer is still one line. */
	char *line = malloc(size + 4);
	if (line != NULL) {
		snprintf(line, size + 4, "ok %s", text);
		mh_control_write_line(line);
	} else {
		reply_error("internal out of memory");
	}
	free(line);
	free(text);
}

/* TARGET is an output's name or "layout" (NULL output). */
static bool target(const char *name, struct mh_output **output) {
	*output = NULL;
	if (strcmp(name, "layout") == 0) {
		return true;
	}
	*output = named_output(name);
	return *output != NULL;
}

static void cmd_pixel(char **t, int n) {
	long x, y;
	if (n != 4) {
		reply_error("usage pixel OUTPUT|layout X Y");
		return;
	}
	if (!mh_parse_int(t[2], -1000000, 1000000, &x) || !mh_parse_int(t[3], -1000000, 1000000, &y)) {
		reply_error("bad-value X and Y are integers");
		return;
	}
	struct mh_output *output;
	if (!target(t[1], &output)) {
		return;
	}
	uint32_t argb;
	const char *error = mh_capture_pixel(ctl.server, output, (int)x, (int)y, &argb);
	if (error != NULL) {
		reply_error(error);
		return;
	}
	reply("ok #%06x", argb & 0xffffff);
}

static void cmd_screenshot(char **t, int n) {
	static const char *const keys[] = {"format", NULL};
	if (n < 3 || !options_known(t, n, 3, keys)) {
		reply_error("usage screenshot OUTPUT|layout PATH [format=png|ppm]");
		return;
	}
	const char *error = NULL;
	const char *format = option(t, n, 3, "format", &error);
	if (error != NULL) {
		reply_error(error);
		return;
	}
	struct mh_output *output;
	if (!target(t[1], &output)) {
		return;
	}
	int width = 0, height = 0;
	error = mh_capture_file(ctl.server, output, t[2], format ? format : "png", &width, &height);
	if (error != NULL) {
		reply_error(error);
		return;
	}
	char path[1100];
	mh_json_string(path, sizeof(path), t[2]);
	reply("ok {\"path\":%s,\"width\":%d,\"height\":%d}", path, width, height);
}

/* Destroys every client but Xwayland (its X clients stay: see README); returns how many went. */
static int disconnect_clients(void) {
	struct wl_client *xwayland = mh_xwayland_client(ctl.server);
	struct wl_list *list = wl_display_get_client_list(ctl.server->display);
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
	struct wl_client *xwayland = mh_xwayland_client(ctl.server);
	int count = 0;
	struct wl_client *client;
	wl_client_for_each(client, wl_display_get_client_list(ctl.server->display)) {
		count += client != xwayland;
	}
	return count;
}

static void run_line(char *line) {
	char *t[MAX_TOKENS];
	const char *error = NULL;
	int n = tokenize(line, t, &error);
	if (n < 0) {
		reply_error(error);
		return;
	}
	if (n == 0) {
		reply_error("usage an empty line");
		return;
	}
	const char *c = t[0];
	struct mh_server *server = ctl.server;
	if (strcmp(c, "ping") == 0 && n == 1) {
		reply("ok pong");
	} else if (strcmp(c, "plug") == 0) {
		cmd_plug(t, n);
	} else if (strcmp(c, "unplug") == 0) {
		struct mh_output *output = n == 2 ? named_output(t[1]) : NULL;
		if (n != 2) {
			reply_error("usage unplug NAME");
		} else if (output != NULL) {
			wlr_output_destroy(output->wlr_output);
			reply("ok");
		}
	} else if (strcmp(c, "mode") == 0) {
		cmd_mode(t, n);
	} else if (strcmp(c, "outputs") == 0 && n == 1) {
		cmd_list(true);
	} else if (strcmp(c, "toplevels") == 0 && n == 1) {
		cmd_list(false);
	} else if (strcmp(c, "pixel") == 0) {
		cmd_pixel(t, n);
	} else if (strcmp(c, "screenshot") == 0) {
		cmd_screenshot(t, n);
	} else if (strcmp(c, "pointer") == 0) {
		double x, y;
		if (n != 3) {
			reply_error("usage pointer X Y");
		} else if (!mh_parse_double(t[1], -1e6, 1e6, &x) || !mh_parse_double(t[2], -1e6, 1e6, &y)) {
			reply_error("bad-value X and Y are finite numbers within ±1000000");
		} else {
			mh_pointer_move(server, x, y);
			reply("ok %.2f,%.2f", server->pointer_x, server->pointer_y);
		}
	} else if (strcmp(c, "button") == 0 || strcmp(c, "key") == 0) {
		bool button = c[0] == 'b';
		if (n != 2 && n != 3) {
			reply_error(button ? "usage button left|right|middle [press|release|click]"
				: "usage key KEYSYM [press|release|tap]");
			return;
		}
		const char *action = n == 3 ? t[2] : button ? "click" : "tap";
		error = button ? mh_pointer_button(server, t[1], action) : mh_key(server, t[1], action);
		error != NULL ? reply_error(error) : reply("ok");
	} else if (strcmp(c, "type") == 0) {
		if (n != 2) {
			reply_error("usage type TEXT (quoted when it has spaces)");
			return;
		}
		error = mh_type_text(server, t[1]);
		error != NULL ? reply_error(error) : reply("ok");
	} else if (strcmp(c, "clients") == 0 && n == 1) {
		reply("ok %d", count_clients());
	} else if (strcmp(c, "disconnect-clients") == 0 && n == 1) {
		reply("ok %d", disconnect_clients());
	} else if (strcmp(c, "reset") == 0 && n == 1) {
		/* A lease's release: its clients go, then its outputs; the pointer returns to the origin. */
		int count = disconnect_clients();
		while (!wl_list_empty(&server->outputs)) {
			struct mh_output *output = wl_container_of(server->outputs.next, output, link);
			wlr_output_destroy(output->wlr_output);
		}
		mh_pointer_move(server, 0, 0);
		reply("ok %d", count);
	} else if (strcmp(c, "quit") == 0 && n == 1) {
		reply("ok");
		ctl.quitting = true;
		wl_display_terminate(server->display);
	} else if (strcmp(c, "ping") == 0 || strcmp(c, "outputs") == 0 || strcmp(c, "toplevels") == 0
			|| strcmp(c, "clients") == 0 || strcmp(c, "disconnect-clients") == 0
			|| strcmp(c, "reset") == 0 || strcmp(c, "quit") == 0) {
		reply("error usage %s takes no arguments", c);
	} else {
		reply_error("unknown-command see Compositor/README.md for the commands");
	}
}

static void run_lines(void *data) {
	(void)data;
	ctl.idle = NULL;
	while (!ctl.quitting) {
		char *newline = memchr(ctl.buf, '\n', ctl.len);
		if (newline == NULL) {
			if (ctl.len == MH_LINE_MAX) {
				/* Too long: forget it, and answer once its newline comes. */
				ctl.discarding = true;
				ctl.len = 0;
			}
			if (ctl.eof && ctl.len > 0 && !ctl.discarding) {
				/* A last line without its newline is still a command. */
				newline = ctl.buf + ctl.len;
				ctl.len++;
			} else {
				break;
			}
		}
		size_t line_len = (size_t)(newline - ctl.buf);
		size_t used = line_len + 1;
		*newline = '\0';
		if (ctl.discarding) {
			ctl.discarding = false;
			reply("error line-too-long a line is at most %d bytes", MH_LINE_MAX);
		} else if (memchr(ctl.buf, '\0', line_len) != NULL) {
			reply_error("usage a NUL byte in the line");
		} else {
			if (line_len > 0 && ctl.buf[line_len - 1] == '\r') {
				ctl.buf[line_len - 1] = '\0';
			}
			run_line(ctl.buf);
		}
		memmove(ctl.buf, ctl.buf + used, ctl.len - used);
		ctl.len -= used;
	}
	if (ctl.eof && ctl.discarding && !ctl.quitting) {
		ctl.discarding = false;
		reply("error line-too-long a line is at most %d bytes", MH_LINE_MAX);
	}
	if (ctl.eof && !ctl.quitting) {
		ctl.quitting = true;
		wl_display_terminate(ctl.server->display);
	}
}

static int handle_readable(int fd, uint32_t mask, void *data) {
	(void)data;
	(void)mask;
	for (;;) {
		if (ctl.len == MH_LINE_MAX) {
			/* Full: run what is there (which frees room) before reading more. */
			break;
		}
		ssize_t r = read(fd, ctl.buf + ctl.len, MH_LINE_MAX - ctl.len);
		if (r > 0) {
			ctl.len += (size_t)r;
			continue;
		}
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r == 0 || errno != EAGAIN) {
			ctl.eof = true;
			wl_event_source_remove(ctl.source);
			ctl.source = NULL;
		}
		break;
	}
	if (ctl.idle == NULL) {
		ctl.idle = wl_event_loop_add_idle(ctl.server->loop, run_lines, NULL);
	}
	return 0;
}

bool mh_control_init(struct mh_server *server, int in_fd, int out_fd) {
	ctl.server = server;
	ctl.in_fd = in_fd;
	ctl.out_fd = out_fd;
	int flags = fcntl(in_fd, F_GETFL);
	if (flags < 0 || fcntl(in_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		return false;
	}
	ctl.source = wl_event_loop_add_fd(server->loop, in_fd, WL_EVENT_READABLE, handle_readable, NULL);
	return ctl.source != NULL;
}

void mh_control_finish(void) {
	if (ctl.source != NULL) {
		wl_event_source_remove(ctl.source);
		ctl.source = NULL;
	}
	if (ctl.idle != NULL) {
		wl_event_source_remove(ctl.idle);
		ctl.idle = NULL;
	}
}
