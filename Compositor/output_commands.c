/*
 * The control protocol's output commands, `plug` (with the output's mode list: modes.c) and `mode`:
 * each checks its words and values, changes the output through outputs.c, and answers the output as it
 * is then (commands.c dispatches them).
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
#include <string.h>
#include "compositor.h"

#define MODE_ERROR "bad-value mode is WxH or WxH@HZ: sides 1…8192, at most 7680×4320 pixels, 1…1000 Hz"
#define SCALE_ERROR "bad-value scale is a number 1…4 (rounded to a multiple of 1/120: 1.25, 1.5, 2…)"
#define TRANSFORM_ERROR "bad-value transform is normal, 90, 180 or 270 (degrees counter-clockwise)"

/* A change's answer: its error, or the output as it is now. */
static void reply_output(const char *error, struct mh_output *output) {
	if (error != NULL) {
		mh_reply_error(error);
		return;
	}
	char *text;
	size_t size;
	FILE *m = mh_answer_begin(&text, &size);
	if (m != NULL) {
		mh_output_json(m, output, true);
	}
	mh_answer_end(m, &text);
}

void mh_cmd_plug(struct mh_server *server, char **t, int n) {
	static const char *const keys[] = {"mode", "modes", "pos", "scale", "transform", "make", "model", "serial",
		"size-mm", NULL};
	if (n < 2 || !mh_options_known(t, n, 2, keys)) {
		mh_reply_error("usage plug NAME [mode=WxH[@HZ]] [modes=WxH[@HZ],…] [pos=X,Y] [scale=N] [transform=T] [make=S] [model=S] [serial=S] [size-mm=WxH]");
		return;
	}
	if (!mh_output_name_valid(t[1])) {
		mh_reply_error("bad-value the output name is DP-1…DP-8 or HDMI-1…HDMI-8");
		return;
	}
	const char *error = NULL;
	const char *mode = mh_option(t, n, 2, "mode", &error), *pos = mh_option(t, n, 2, "pos", &error);
	const char *scale = mh_option(t, n, 2, "scale", &error), *make = mh_option(t, n, 2, "make", &error);
	const char *model = mh_option(t, n, 2, "model", &error), *serial = mh_option(t, n, 2, "serial", &error);
	const char *mm = mh_option(t, n, 2, "size-mm", &error), *modes = mh_option(t, n, 2, "modes", &error);
	const char *transform = mh_option(t, n, 2, "transform", &error);
	if (error != NULL) {
		mh_reply_error(error);
		return;
	}
	struct mh_output_spec spec = { .name = t[1], .width = 1920, .height = 1080, .refresh_mhz = 60000,
		.scale120 = MH_SCALE_UNIT };
	long a, b;
	if (mode != NULL && !mh_parse_mode(mode, &spec.width, &spec.height, &spec.refresh_mhz)) {
		mh_reply_error(MODE_ERROR);
		return;
	}
	/* The list: the preferred mode, then modes= (a mode listed before merged) or the standard sizes. */
	struct mh_mode extra[MH_MAX_MODES];
	int extra_count = -1;
	if (modes != NULL && !mh_parse_mode_list(modes, extra, &extra_count)) {
		mh_reply_error("bad-value modes is WxH[@HZ],WxH[@HZ],…: 1…32 modes, each as mode= takes it");
		return;
	}
	spec.mode_count = mh_mode_list((struct mh_mode){spec.width, spec.height, spec.refresh_mhz}, extra,
		modes != NULL ? extra_count : -1, spec.modes);
	if (pos != NULL) {
		if (!mh_parse_pair(pos, ',', -MH_MAX_POSITION, MH_MAX_POSITION, &a, &b)) {
			mh_reply_error("bad-value pos is X,Y with each within ±32767");
			return;
		}
		spec.has_position = true;
		spec.x = (int)a;
		spec.y = (int)b;
	}
	if (scale != NULL && !mh_parse_scale(scale, &spec.scale120)) {
		mh_reply_error(SCALE_ERROR);
		return;
	}
	if (transform != NULL && !mh_parse_transform(transform, &spec.transform)) {
		mh_reply_error(TRANSFORM_ERROR);
		return;
	}
	if (mm != NULL) {
		if (!mh_parse_pair(mm, 'x', 1, 10000, &a, &b)) {
			mh_reply_error("bad-value size-mm is WxH in millimetres, 1…10000");
			return;
		}
		spec.mm_width = (int)a;
		spec.mm_height = (int)b;
	}
	if ((make && !mh_identity_ok(make, sizeof(spec.make))) || (model && !mh_identity_ok(model, sizeof(spec.model)))
			|| (serial && !mh_identity_ok(serial, sizeof(spec.serial)))) {
		mh_reply_error("bad-value make (≤55 bytes), model and serial (≤15 bytes) are printable UTF-8");
		return;
	}
	snprintf(spec.make, sizeof(spec.make), "%s", make ? make : "Multihead");
	mh_pnp_company(spec.make, sizeof(spec.make));
	snprintf(spec.model, sizeof(spec.model), "%s", model ? model : "Virtual Monitor");
	snprintf(spec.serial, sizeof(spec.serial), "%s", serial ? serial : "");
	struct mh_output *output = NULL;
	error = mh_output_plug(server, &spec, &output);
	reply_output(error, output);
}

void mh_cmd_mode(struct mh_server *server, char **t, int n) {
	static const char *const keys[] = {"mode", "pos", "scale", "transform", NULL};
	if (n < 3 || !mh_options_known(t, n, 2, keys)) {
		mh_reply_error("usage mode NAME [mode=WxH[@HZ]] [pos=X,Y] [scale=N] [transform=T] (at least one)");
		return;
	}
	const char *error = NULL;
	const char *mode = mh_option(t, n, 2, "mode", &error), *pos = mh_option(t, n, 2, "pos", &error);
	const char *scale = mh_option(t, n, 2, "scale", &error), *transform = mh_option(t, n, 2, "transform", &error);
	if (error != NULL) {
		mh_reply_error(error);
		return;
	}
	int width = 0, height = 0, refresh = 0, scale120 = 0;
	long x = 0, y = 0;
	if (mode != NULL && !mh_parse_mode(mode, &width, &height, &refresh)) {
		mh_reply_error(MODE_ERROR);
		return;
	}
	if (pos != NULL && !mh_parse_pair(pos, ',', -MH_MAX_POSITION, MH_MAX_POSITION, &x, &y)) {
		mh_reply_error("bad-value pos is X,Y with each within ±32767");
		return;
	}
	if (scale != NULL && !mh_parse_scale(scale, &scale120)) {
		mh_reply_error(SCALE_ERROR);
		return;
	}
	enum wl_output_transform rotation = WL_OUTPUT_TRANSFORM_NORMAL;
	if (transform != NULL && !mh_parse_transform(transform, &rotation)) {
		mh_reply_error(TRANSFORM_ERROR);
		return;
	}
	struct mh_output *output = mh_named_output(server, t[1]);
	if (output == NULL) {
		return;
	}
	if (mode != NULL && strchr(mode, '@') == NULL && mh_output_listed_refresh(output, width, height) > 0) {
		/* No rate given: a listed size's rate (else 60 Hz, as mh_parse_mode gave). */
		refresh = mh_output_listed_refresh(output, width, height);
	}
	error = mh_output_change(output, width, height, refresh, pos != NULL, (int)x, (int)y, scale120,
		transform != NULL ? (int)rotation : -1);
	reply_output(error, output);
}
