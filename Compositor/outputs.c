/*
 * Outputs: plugged as headless outputs named as a desktop's connectors (DP-1…DP-8, HDMI-1…HDMI-8) with
 * the monitor's identity, modes (modes.c keeps the list), position, scale (in 120ths: 1, 1.25,
 * 1.5…) and rotation (a portrait monitor: the mode is the panel's, the layout box is rotated); unplugged by destroying them (the wl_output global goes); each renders the scene on its frame
 * event.
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
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wlr/backend/headless.h>
#include <wlr/util/log.h>
#include "compositor.h"

bool mh_output_name_valid(const char *name) {
	const char *digits = NULL;
	if (strncmp(name, "DP-", 3) == 0) {
		digits = name + 3;
	} else if (strncmp(name, "HDMI-", 5) == 0) {
		digits = name + 5;
	}
	return digits != NULL && digits[0] >= '1' && digits[0] <= '8' && digits[1] == '\0';
}

struct mh_output *mh_output_find(struct mh_server *server, const char *name) {
	struct mh_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		if (strcmp(output->wlr_output->name, name) == 0) {
			return output;
		}
	}
	return NULL;
}

/* Enabled or disabled: what `plug` and `unplug` see (the other commands act on enabled ones). */
struct mh_output *mh_output_find_plugged(struct mh_server *server, const char *name) {
	struct mh_output *output = mh_output_find(server, name);
	if (output != NULL) {
		return output;
	}
	wl_list_for_each(output, &server->disabled, link) {
		if (strcmp(output->wlr_output->name, name) == 0) {
			return output;
		}
	}
	return NULL;
}

struct wlr_box mh_output_box(struct mh_output *output) {
	struct wlr_box *box = wlr_output_layout_get_box(output->server->layout, output->wlr_output);
	return box != NULL ? *box : (struct wlr_box){0};
}

struct mh_output *mh_output_at(struct mh_server *server, double lx, double ly) {
	struct wlr_output *at = wlr_output_layout_output_at(server->layout, lx, ly);
	return at != NULL ? at->data : NULL;
}

static void handle_frame(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_output *output = wl_container_of(listener, output, frame);
	struct wlr_scene_output *scene_output =
		wlr_scene_get_scene_output(output->server->scene, output->wlr_output);
	if (scene_output == NULL) {
		return;
	}
	/* The scene tracks damage: an unchanged output costs no rendering. */
	wlr_scene_output_commit(scene_output);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	wlr_scene_output_send_frame_done(scene_output, &now);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_output *output = wl_container_of(listener, output, destroy);
	struct mh_server *server = output->server;
	/* Our listener runs before the layout's: the windows move while every box is still known. */
	wl_list_remove(&output->link);
	mh_views_output_gone(server, output->wlr_output);
	wl_list_remove(&output->frame.link);
	wl_list_remove(&output->destroy.link);
	mh_output_modes_finish(output);
	output->wlr_output->data = NULL;
	free(output);
	mh_output_manager_changed(server);
	mh_fractional_scale_changed(server);
}

/* The physical size a client reads from wl_output.geometry: 96 dpi unless given. */
static int mm_at_96_dpi(int pixels) {
	return (int)lround(pixels * 25.4 / 96.0);
}

static void handle_new_output(struct wl_listener *listener, void *data) {
	struct mh_server *server = wl_container_of(listener, server, new_output);
	struct wlr_output *wlr_output = data;
	const struct mh_output_spec *spec = server->plugging;
	if (spec == NULL) {
		/* Only `plug` creates outputs; anything else is not ours to show. */
		return;
	}
	if (!wlr_output_init_render(wlr_output, server->allocator, server->renderer)) {
		return;
	}
	struct mh_output *output = calloc(1, sizeof(*output));
	if (output == NULL) {
		return;
	}
	output->server = server;
	output->wlr_output = wlr_output;
	output->order = ++server->plug_count;
	wlr_output->data = output;
	/* Identity first: the wl_output global is created when the output joins the layout, and a client
	 * reads name, make, model and serial only once, when it binds. */
	wlr_output_set_name(wlr_output, spec->name);
	snprintf(wlr_output->make, sizeof(wlr_output->make), "%s", spec->make);
	snprintf(wlr_output->model, sizeof(wlr_output->model), "%s", spec->model);
	snprintf(wlr_output->serial, sizeof(wlr_output->serial), "%s", spec->serial);
	wlr_output->phys_width = spec->mm_width > 0 ? spec->mm_width : mm_at_96_dpi(spec->width);
	wlr_output->phys_height = spec->mm_height > 0 ? spec->mm_height : mm_at_96_dpi(spec->height);
	/* MAKE MODEL SERIAL (NAME), an empty field left out rather than leaving a double space. */
	char description[128] = "";
	const char *parts[] = {spec->make, spec->model, spec->serial};
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (parts[i][0] != '\0') {
			strcat(description, parts[i]);
			strcat(description, " ");
		}
	}
	strcat(description, "(");
	strcat(description, spec->name);
	strcat(description, ")");
	wlr_output_set_description(wlr_output, description);

	/* Its mode list, the preferred mode current; headless outputs take it as a custom mode. */
	mh_output_modes_init(output, spec);
	wlr_output_set_custom_mode(wlr_output, spec->width, spec->height, spec->refresh_mhz);
	wlr_output_set_scale(wlr_output, (float)((double)spec->scale120 / MH_SCALE_UNIT));
	/* Set before the global exists, as the identity is: wl_output.geometry carries it. */
	wlr_output_set_transform(wlr_output, spec->transform);
	/* Headless outputs start enabled, and their commit refuses an `enabled` state: none is set. */
	if (!wlr_output_commit(wlr_output)) {
		mh_output_modes_finish(output);
		wlr_output->data = NULL;
		free(output);
		return;
	}
	output->frame.notify = handle_frame;
	wl_signal_add(&wlr_output->events.frame, &output->frame);
	output->destroy.notify = handle_destroy;
	wl_signal_add(&wlr_output->events.destroy, &output->destroy);
	wl_list_insert(server->outputs.prev, &output->link);
	server->plugged = output;
}

/* Right of everything plugged, top-aligned: where `plug` puts an output not given a position. */
static void next_free_position(struct mh_server *server, int *x, int *y) {
	*x = 0;
	*y = 0;
	struct mh_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		struct wlr_box box = mh_output_box(output);
		if (box.x + box.width > *x) {
			*x = box.x + box.width;
		}
	}
}

const char *mh_output_plug(struct mh_server *server, const struct mh_output_spec *spec,
		struct mh_output **result) {
	if (mh_output_find_plugged(server, spec->name) != NULL) {
		return "output-exists an output of that name is plugged";
	}
	server->plugging = spec;
	server->plugged = NULL;
	struct wlr_output *wlr_output = wlr_headless_add_output(server->backend, (unsigned)spec->width,
		(unsigned)spec->height);
	server->plugging = NULL;
	struct mh_output *output = server->plugged;
	server->plugged = NULL;
	if (output == NULL) {
		if (wlr_output != NULL) {
			wlr_output_destroy(wlr_output);
		}
		return "internal wlroots refused the output (see the compositor's stderr)";
	}
	int x = spec->x, y = spec->y;
	if (!spec->has_position) {
		/* The new output is already in our list, but not in the layout: it does not count. */
		next_free_position(server, &x, &y);
	}
	wlr_output_layout_add(server->layout, wlr_output, x, y);
	*result = output;
	mh_output_manager_changed(server);
	mh_fractional_scale_changed(server);
	return NULL;
}

/* The output's scale in 120ths (it is only ever set to a multiple of 1/120). */
int mh_output_scale120(struct wlr_output *output) {
	return mh_scale120(output->scale);
}

/* A width of 0 keeps the mode, a scale120 of 0 the scale, a negative transform the transform. */
const char *mh_output_change(struct mh_output *output, int width, int height, int refresh_mhz,
		bool has_position, int x, int y, int scale120, int transform) {
	struct wlr_output *wlr_output = output->wlr_output;
	struct wlr_box old = mh_output_box(output); /* its windows keep their place within it */
	struct wlr_output_mode *old_mode = wlr_output->current_mode;
	if (width > 0) {
		/* The listed mode of that size and rate, else a custom one (headless outputs take either as a
		 * custom mode). */
		if (mh_output_mode_prepare(output, width, height, refresh_mhz) == NULL) {
			return "internal out of memory";
		}
		wlr_output_set_custom_mode(wlr_output, width, height, refresh_mhz);
	}
	if (scale120 > 0) {
		wlr_output_set_scale(wlr_output, (float)((double)scale120 / MH_SCALE_UNIT));
	}
	bool rotated = transform >= 0 && (enum wl_output_transform)transform != wlr_output->transform;
	if (transform >= 0) {
		/* The layout box follows: wlroots' layout reconfigures on a transform commit. */
		wlr_output_set_transform(wlr_output, (enum wl_output_transform)transform);
	}
	bool committed = !(width > 0 || scale120 > 0 || transform >= 0) || wlr_output_commit(wlr_output);
	if (width > 0) {
		mh_output_mode_settle(output, old_mode, committed);
	}
	if (!committed) {
		return "internal wlroots refused the new mode (see the compositor's stderr)";
	}
	if (!has_position) {
		x = old.x;
		y = old.y;
	}
	if (width > 0 || rotated) {
		/* wlroots 0.15 sends xdg_output's logical position before wl_output.geometry's (0,0) on a mode or
		 * transform change (either re-sends the geometry), and GTK 4 keeps the last one. A layout change
		 * re-sends the position only when it differs: one pixel aside and back puts the right one last,
		 * before the same `done`. */
		wlr_output_layout_move(output->server->layout, wlr_output, x == MH_MAX_POSITION ? x - 1 : x + 1, y);
	}
	wlr_output_layout_move(output->server->layout, wlr_output, x, y);
	mh_views_output_changed(output->server, wlr_output, old);
	mh_output_manager_changed(output->server);
	mh_fractional_scale_changed(output->server);
	return NULL;
}

/* wlroots 0.15's headless backend refuses a commit of `enabled` (either way), so disabling is emulated as
 * a monitor switched off looks to clients: its wl_output global goes, it leaves the layout (xdg-output
 * and the scene follow), its windows move to the first output left, and it stays plugged, listed by
 * the output manager as a disabled head. The wlr_output itself stays enabled and idle (nothing renders
 * it: it has no scene output). */
void mh_output_disable(struct mh_output *output) {
	struct mh_server *server = output->server;
	struct wlr_box box = mh_output_box(output);
	output->disabled_x = box.x;
	output->disabled_y = box.y;
	output->disabled = true;
	wl_list_remove(&output->link);
	wl_list_insert(server->disabled.prev, &output->link);
	mh_views_output_gone(server, output->wlr_output);
	wlr_output_layout_remove(server->layout, output->wlr_output);
	wlr_output_destroy_global(output->wlr_output);
	mh_output_manager_changed(server);
	mh_fractional_scale_changed(server);
}

/* Back in the layout (which creates the wl_output global again) at X,Y, and in plug order among the
 * enabled outputs. */
void mh_output_enable(struct mh_output *output, int x, int y) {
	struct mh_server *server = output->server;
	output->disabled = false;
	wl_list_remove(&output->link);
	struct wl_list *before = &server->outputs;
	struct mh_output *other;
	wl_list_for_each(other, &server->outputs, link) {
		if (other->order > output->order) {
			before = &other->link;
			break;
		}
	}
	wl_list_insert(before->prev, &output->link);
	wlr_output_layout_add(server->layout, output->wlr_output, x, y);
	mh_output_manager_changed(server);
	mh_fractional_scale_changed(server);
}

/* A make that is a PNP id (three capital letters, as an EDID carries it) becomes the company's name from
 * hwdata's table, as wlroots compositors on real hardware report it ("DEL" -> "Dell Inc."); the table is
 * read when asked (Debian's hwdata package, never copied here). Unknown ids and other makes stay. */
void mh_pnp_company(char *make, size_t size) {
	if (strlen(make) != 3 || !isupper((unsigned char)make[0]) || !isupper((unsigned char)make[1])
			|| !isupper((unsigned char)make[2])) {
		return;
	}
	FILE *table = fopen("/usr/share/hwdata/pnp.ids", "re");
	if (table == NULL) {
		return;
	}
	char line[256];
	while (fgets(line, sizeof(line), table) != NULL) {
		/* "DEL\tDell Inc.\n"; a line longer than the buffer continues without a tab, matching nothing. */
		if (strncmp(line, make, 3) == 0 && line[3] == '\t') {
			line[strcspn(line, "\r\n")] = '\0';
			const char *name = line + 4;
			if (name[0] != '\0' && mh_identity_ok(name, size)) {
				snprintf(make, size, "%s", name);
			}
			break;
		}
	}
	fclose(table);
}

void mh_output_json(FILE *out, struct mh_output *output, bool with_serial) {
	struct wlr_output *o = output->wlr_output;
	struct wlr_box box = mh_output_box(output);
	fputs("{\"name\":", out);
	mh_json_string(out, o->name);
	fputs(",\"make\":", out);
	mh_json_string(out, o->make);
	fputs(",\"model\":", out);
	mh_json_string(out, o->model);
	fputs(",\"serial\":", out);
	mh_json_string(out, o->serial);
	fprintf(out, ",\"mode\":{\"width\":%d,\"height\":%d,\"refreshRate\":%.3f},\"modes\":",
		o->width, o->height, o->refresh / 1000.0);
	mh_output_modes_json(out, output);
	fputs(",\"scale\":", out);
	mh_json_scale(out, mh_output_scale120(o));
	fprintf(out, ",\"transform\":\"%s\"", mh_transform_name(o->transform));
	fprintf(out, ",\"frame\":{\"x\":%d,\"y\":%d,\"width\":%d,\"height\":%d},"
		"\"physicalSize\":{\"width\":%d,\"height\":%d}",
		box.x, box.y, box.width, box.height, o->phys_width, o->phys_height);
	if (with_serial) {
		fprintf(out, ",\"configurationSerial\":%llu", output->server->configuration_serial);
	}
	fputc('}', out);
}

void mh_outputs_init(struct mh_server *server) {
	server->new_output.notify = handle_new_output;
	wl_signal_add(&server->backend->events.new_output, &server->new_output);
}
