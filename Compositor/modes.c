/*
 * Mode lists: an output offers a list of modes as a monitor's EDID does, its preferred one first (the
 * `mode=` of `plug`), then `modes=` or, without it, the standard sizes a monitor of that size offers
 * below it, at 60 Hz. The list lives in wlr_output->modes, where wlroots' output manager finds it; a
 * current mode that is none of them (a custom mode: `mode` of another size, an output manager's
 * set_custom_mode) joins the list after them while it is current, as wlroots' DRM backend adds a
 * custom mode to a connector's list, so wlroots always has a current mode among the listed ones.
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
#include <string.h>
#include "compositor.h"

/* The sizes of Xorg's default list for an EDID monitor, largest first: a plug without `modes=` offers
 * those no wider and no taller than its preferred mode (other than its size), at 60 Hz. */
static const struct {
	int width, height;
} standard[] = {
	{3840, 2160}, {2560, 1440}, {1920, 1200}, {1920, 1080}, {1680, 1050}, {1600, 900},
	{1280, 1024}, {1280, 800}, {1280, 720}, {1024, 768}, {800, 600}, {640, 480},
};

/* "WxH[@HZ],WxH[@HZ],…": 1…MH_MAX_MODES modes, each as `mode=` takes it (no empty one). */
bool mh_parse_mode_list(const char *s, struct mh_mode *modes, int *count) {
	*count = 0;
	while (true) {
		size_t len = strcspn(s, ",");
		char one[48];
		if (len == 0 || len >= sizeof(one) || *count == MH_MAX_MODES) {
			return false;
		}
		memcpy(one, s, len);
		one[len] = '\0';
		struct mh_mode *m = &modes[*count];
		if (!mh_parse_mode(one, &m->width, &m->height, &m->refresh_mhz)) {
			return false;
		}
		(*count)++;
		if (s[len] == '\0') {
			return true;
		}
		s += len + 1;
	}
}

static bool listed(const struct mh_mode *list, int n, struct mh_mode m) {
	for (int i = 0; i < n; i++) {
		if (list[i].width == m.width && list[i].height == m.height && list[i].refresh_mhz == m.refresh_mhz) {
			return true;
		}
	}
	return false;
}

/* The preferred mode, then `extra` (extra_count of them), or the standard sizes when extra_count is
 * negative. A mode equal to one before it (size and rate) is merged into it: listed once, at its first
 * place. Returns the list's length (1…MH_MODE_LIST). */
int mh_mode_list(struct mh_mode preferred, const struct mh_mode *extra, int extra_count, struct mh_mode *list) {
	int n = 0;
	list[n++] = preferred;
	if (extra_count >= 0) {
		for (int i = 0; i < extra_count && n < MH_MODE_LIST; i++) {
			if (!listed(list, n, extra[i])) {
				list[n++] = extra[i];
			}
		}
		return n;
	}
	for (size_t i = 0; i < sizeof(standard) / sizeof(standard[0]); i++) {
		struct mh_mode m = {standard[i].width, standard[i].height, 60000};
		bool same_size = m.width == preferred.width && m.height == preferred.height;
		if (m.width <= preferred.width && m.height <= preferred.height && !same_size) {
			list[n++] = m;
		}
	}
	return n;
}

/* At plug, before the output's first commit: its list in wlr_output->modes, the preferred mode current. */
void mh_output_modes_init(struct mh_output *output, const struct mh_output_spec *spec) {
	struct wlr_output *o = output->wlr_output;
	output->mode_count = spec->mode_count;
	for (int i = 0; i < spec->mode_count; i++) {
		struct wlr_output_mode *m = &output->modes[i];
		*m = (struct wlr_output_mode){ .width = spec->modes[i].width, .height = spec->modes[i].height,
			.refresh = spec->modes[i].refresh_mhz, .preferred = i == 0 };
		wl_list_insert(o->modes.prev, &m->link);
	}
	o->current_mode = &output->modes[0];
}

/* Before the output is freed: wlroots keeps no pointer into it. */
void mh_output_modes_finish(struct mh_output *output) {
	wl_list_init(&output->wlr_output->modes);
	output->wlr_output->current_mode = NULL;
	free(output->custom);
	output->custom = NULL;
}

/* The rate of the first listed mode of that size (what `mode=WxH` without a rate takes), or 0. */
int mh_output_listed_refresh(struct mh_output *output, int width, int height) {
	for (int i = 0; i < output->mode_count; i++) {
		if (output->modes[i].width == width && output->modes[i].height == height) {
			return output->modes[i].refresh;
		}
	}
	return 0;
}

static bool plugged_with(struct mh_output *output, const struct wlr_output_mode *mode) {
	for (int i = 0; i < output->mode_count; i++) {
		if (mode == &output->modes[i]) {
			return true;
		}
	}
	return false;
}

/* Whether a mode (an output manager client's choice) is in the output's list now. */
bool mh_output_has_mode(struct mh_output *output, const struct wlr_output_mode *mode) {
	struct wlr_output_mode *m;
	wl_list_for_each(m, &output->wlr_output->modes, link) {
		if (m == mode) {
			return true;
		}
	}
	return false;
}

/* Before a commit of a new mode: the mode object it will be (a listed one of that size and rate, the
 * current custom one if it is that, else a new custom one), made current now, so that wl_output's mode
 * event during the commit carries the new size and the layout never sees an output with a list and no
 * current mode (wlroots 0.15 then removes its wl_output global). NULL when memory ran out. */
struct wlr_output_mode *mh_output_mode_prepare(struct mh_output *output, int width, int height, int refresh_mhz) {
	struct wlr_output_mode *target = NULL;
	for (int i = 0; i < output->mode_count && target == NULL; i++) {
		struct wlr_output_mode *m = &output->modes[i];
		if (m->width == width && m->height == height && m->refresh == refresh_mhz) {
			target = m;
		}
	}
	struct wlr_output_mode *c = output->custom;
	if (target == NULL && c != NULL && c->width == width && c->height == height && c->refresh == refresh_mhz) {
		target = c;
	}
	if (target == NULL) {
		target = calloc(1, sizeof(*target));
		if (target == NULL) {
			return NULL;
		}
		*target = (struct wlr_output_mode){ .width = width, .height = height, .refresh = refresh_mhz };
		wl_list_init(&target->link);
	}
	output->wlr_output->current_mode = target;
	return target;
}

/* After the commit: the list as the mode now is. Committed, a new custom mode joins the list (and the
 * output manager's heads), and a custom mode no longer current leaves it; refused, the old mode is
 * current again. */
void mh_output_mode_settle(struct mh_output *output, struct wlr_output_mode *old, bool committed) {
	struct wlr_output *o = output->wlr_output;
	struct wlr_output_mode *target = o->current_mode;
	bool fresh = target != output->custom && !plugged_with(output, target);
	if (!committed) {
		o->current_mode = old;
		if (fresh) {
			free(target);
		}
		return;
	}
	if (fresh) {
		wl_list_insert(o->modes.prev, &target->link);
		mh_output_manager_mode_added(output->server, o, target);
	}
	struct wlr_output_mode *gone = output->custom;
	if (gone != NULL && gone != target) {
		mh_output_manager_mode_removed(output->server, o, gone, target);
		wl_list_remove(&gone->link);
		free(gone);
	}
	output->custom = fresh || target == gone ? target : NULL;
}

void mh_output_modes_json(FILE *out, struct mh_output *output) {
	fputc('[', out);
	struct wlr_output_mode *m;
	bool first = true;
	wl_list_for_each(m, &output->wlr_output->modes, link) {
		fprintf(out, "%s{\"width\":%d,\"height\":%d,\"refresh\":%.3f,\"preferred\":%s}", first ? "" : ",",
			m->width, m->height, m->refresh / 1000.0, m->preferred ? "true" : "false");
		first = false;
	}
	fputc(']', out);
}
