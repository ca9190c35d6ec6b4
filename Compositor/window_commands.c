/*
 * The commands that place a window: `move-window ID OUTPUT [frame=X,Y[,W,H]]` and `fullscreen-window ID
 * OUTPUT|off`. ID is `toplevels`' "id"; a frame is in the output's logical coordinates (0,0 its top-left
 * corner). Each answers the window as `toplevels` shows it, right after the change: its new position,
 * and for an xdg client its size as last committed (a new size shows once the client commits it).
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

#define MH_MAX_WINDOW_SIDE 32767 /* X11's limit, and any client's in practice */

static void reply_view(struct mh_view *view) {
	char *text;
	size_t size;
	FILE *m = mh_answer_begin(&text, &size);
	if (m != NULL) {
		mh_view_json(m, view);
	}
	mh_answer_end(m, &text);
}

/* The shown window of that id, or NULL once the error is answered. */
static struct mh_view *named_view(struct mh_server *server, const char *word) {
	long id;
	/* Ids count up from 1 in an unsigned long; twelve digits are more than any run makes. */
	if (!mh_parse_int(word, 1, 999999999999L, &id)) {
		mh_reply_error("bad-value ID is a window's \"id\" from toplevels, a positive integer");
		return NULL;
	}
	struct mh_view *view = mh_view_find(server, (unsigned long)id);
	if (view == NULL) {
		mh_reply_error("no-such-window no shown window has that id (see toplevels)");
	} else if (view->kind == MH_VIEW_X11 && view->xsurface->override_redirect) {
		/* A menu or tooltip: its client places it, and an X11 client may not be moved under it. */
		mh_reply_error("unsupported an override-redirect X11 window (a menu, a tooltip) places itself");
		view = NULL;
	}
	return view;
}

/* X,Y or X,Y,W,H: positions within ±32767, sides 1…32767. */
static bool parse_frame(const char *s, long v[4], int *count) {
	char buf[64];
	if (strlen(s) >= sizeof(buf)) {
		return false;
	}
	strcpy(buf, s);
	*count = 0;
	for (char *part = buf, *next; part != NULL; part = next) {
		next = strchr(part, ',');
		if (next != NULL) {
			*next++ = '\0';
		}
		long min = *count < 2 ? -MH_MAX_POSITION : 1;
		long max = *count < 2 ? MH_MAX_POSITION : MH_MAX_WINDOW_SIDE;
		if (*count == 4 || !mh_parse_int(part, min, max, &v[*count])) {
			return false;
		}
		(*count)++;
	}
	return *count == 2 || *count == 4;
}

void mh_cmd_move_window(struct mh_server *server, char **t, int n) {
	static const char *const keys[] = {"frame", NULL};
	if (n < 3 || !mh_options_known(t, n, 3, keys)) {
		mh_reply_error("usage move-window ID OUTPUT [frame=X,Y[,W,H]]");
		return;
	}
	const char *error = NULL;
	const char *frame = mh_option(t, n, 3, "frame", &error);
	if (error != NULL) {
		mh_reply_error(error);
		return;
	}
	long v[4] = {0, 0, 0, 0};
	int count = 0;
	if (frame != NULL && !parse_frame(frame, v, &count)) {
		mh_reply_error("bad-value frame is X,Y or X,Y,W,H: positions within ±32767, sides 1…32767");
		return;
	}
	struct mh_view *view = named_view(server, t[1]);
	if (view == NULL) {
		return;
	}
	struct mh_output *output = mh_named_output(server, t[2]);
	if (output == NULL) {
		return;
	}
	/* The frame is the output's, but the layout's coordinates have the same bounds. */
	struct wlr_box box = mh_output_box(output);
	long lx = box.x + v[0], ly = box.y + v[1];
	if (lx < -MH_MAX_POSITION || lx > MH_MAX_POSITION || ly < -MH_MAX_POSITION || ly > MH_MAX_POSITION) {
		mh_reply_error("bad-value the frame's position is beyond ±32767 in layout coordinates");
		return;
	}
	mh_view_move(view, output, (int)v[0], (int)v[1], (int)v[2], (int)v[3]);
	reply_view(view);
}

void mh_cmd_fullscreen_window(struct mh_server *server, char **t, int n) {
	if (n != 3) {
		mh_reply_error("usage fullscreen-window ID OUTPUT|off");
		return;
	}
	struct mh_view *view = named_view(server, t[1]);
	if (view == NULL) {
		return;
	}
	struct mh_output *output = NULL;
	if (strcmp(t[2], "off") != 0 && (output = mh_named_output(server, t[2])) == NULL) {
		return;
	}
	mh_view_set_minimized(view, false);
	/* OUTPUT: fullscreen there, and in front, as on a desktop (here the focused window is the front one).
	 * off: back to normal, from maximized too, in the frame it had before. */
	mh_view_set_state(view, output != NULL, false, output);
	if (output != NULL) {
		mh_view_focus(view);
	}
	reply_view(view);
}
