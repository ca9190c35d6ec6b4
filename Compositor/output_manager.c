/*
 * zwlr_output_manager_v1 (version 2, as wlroots 0.15 ships it), so wlr-randr, kanshi, way-displays and
 * shikane run: every plugged output is a head (name, description, make, model, serial, physical size,
 * its mode, position, scale, enabled); `apply` and `test` of a configuration are checked as `plug` and
 * `mode` check their values, then applied through outputs.c.
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
#include <wlr/types/wlr_output_management_v1.h>
#include <wlr/util/log.h>
#include "compositor.h"

struct mh_output_manager {
	struct mh_server *server;
	struct wlr_output_manager_v1 *manager;
	struct wl_event_source *idle; /* a pending update, or NULL */
	struct wl_listener apply, test, destroy;
};

/* Sends the outputs as they are now (wlroots diffs them against what clients have, sends what changed
 * and one `done` with a new serial, which makes older configurations `cancelled`). */
static void update(void *data) {
	struct mh_output_manager *m = data;
	m->idle = NULL;
	struct wlr_output_configuration_v1 *config = wlr_output_configuration_v1_create();
	if (config == NULL) {
		return;
	}
	/* wlroots announces new heads in the reverse of the order they are added: last plugged first here,
	 * so clients list them in plug order (the enabled ones, then the disabled). */
	struct mh_output *output;
	wl_list_for_each_reverse(output, &m->server->disabled, link) {
		struct wlr_output_configuration_head_v1 *head =
			wlr_output_configuration_head_v1_create(config, output->wlr_output);
		if (head != NULL) {
			head->state.enabled = false;
			head->state.x = output->disabled_x;
			head->state.y = output->disabled_y;
		}
	}
	wl_list_for_each_reverse(output, &m->server->outputs, link) {
		struct wlr_output_configuration_head_v1 *head =
			wlr_output_configuration_head_v1_create(config, output->wlr_output);
		if (head != NULL) {
			struct wlr_box box = mh_output_box(output);
			head->state.enabled = true;
			head->state.x = box.x;
			head->state.y = box.y;
		}
	}
	wlr_output_manager_v1_set_configuration(m->manager, config);
}

/* Every change of an output (plug, unplug, mode, position, scale, enable) lands here; one update is sent
 * once the change is whole (from an idle callback), rather than one per step of it. */
void mh_output_manager_changed(struct mh_server *server) {
	struct mh_output_manager *m = server->output_manager;
	if (m != NULL && m->idle == NULL) {
		m->idle = wl_event_loop_add_idle(server->loop, update, m);
	}
}

/* A head's mode as the client asked for it: one of the head's modes, or a custom one (refresh 0, which
 * the protocol leaves to the compositor, is 60 Hz). */
static void head_mode(const struct wlr_output_configuration_head_v1 *head, int *width, int *height,
		int *refresh) {
	const struct wlr_output_head_v1_state *s = &head->state;
	*width = s->mode != NULL ? s->mode->width : s->custom_mode.width;
	*height = s->mode != NULL ? s->mode->height : s->custom_mode.height;
	*refresh = s->mode != NULL ? s->mode->refresh : s->custom_mode.refresh;
	if (*refresh == 0) {
		*refresh = 60000;
	}
}

/* What `plug` and `mode` accept, so a client gets no more than the control protocol: a scale 1…4
 * (applied rounded to the nearest 1/120, as `scale=` is: wl_fixed's 1/256 steps are not 120ths), no
 * transform. */
static bool head_ok(const struct wlr_output_configuration_head_v1 *head) {
	const struct wlr_output_head_v1_state *s = &head->state;
	if (s->output->data == NULL) {
		return false;
	}
	if (!s->enabled) {
		return true;
	}
	int width, height, refresh;
	head_mode(head, &width, &height, &refresh);
	bool ok = width >= 1 && width <= MH_MAX_SIDE && height >= 1 && height <= MH_MAX_SIDE
		&& (long)width * height <= MH_MAX_PIXELS && refresh >= 1 && refresh <= 1000000
		&& s->x >= -MH_MAX_POSITION && s->x <= MH_MAX_POSITION && s->y >= -MH_MAX_POSITION
		&& s->y <= MH_MAX_POSITION && s->transform == WL_OUTPUT_TRANSFORM_NORMAL
		&& s->scale >= 1 && s->scale <= MH_MAX_SCALE;
	if (!ok) {
		wlr_log(WLR_INFO, "output manager: %s: refused %dx%d@%d mHz at %d,%d, transform %d, scale %f",
			s->output->name, width, height, refresh, s->x, s->y, (int)s->transform, s->scale);
	}
	return ok;
}

static bool apply_head(const struct wlr_output_configuration_head_v1 *head) {
	const struct wlr_output_head_v1_state *s = &head->state;
	struct mh_output *output = s->output->data;
	struct wlr_output *o = s->output;
	if (output->disabled) {
		mh_output_enable(output, s->x, s->y);
	}
	int width, height, refresh;
	head_mode(head, &width, &height, &refresh);
	/* Only what changes: an unchanged mode or scale would send clients a change that is none. */
	bool new_mode = width != o->width || height != o->height || refresh != o->refresh;
	int scale120 = mh_scale120(s->scale);
	return mh_output_change(output, new_mode ? width : 0, height, refresh, true, s->x, s->y,
		scale120 != mh_output_scale120(o) ? scale120 : 0) == NULL;
}

/* All or nothing: every head is checked before any changes. Enabled heads are applied before any is
 * disabled, so windows of a disabled output move to one that stays. */
static void handle_configuration(struct mh_output_manager *m, struct wlr_output_configuration_v1 *config,
		bool test) {
	bool ok = true;
	struct wlr_output_configuration_head_v1 *head;
	wl_list_for_each(head, &config->heads, link) {
		ok = ok && head_ok(head);
	}
	if (ok && !test) {
		wl_list_for_each(head, &config->heads, link) {
			if (head->state.enabled) {
				ok = apply_head(head) && ok;
			}
		}
		wl_list_for_each(head, &config->heads, link) {
			struct mh_output *output = head->state.output->data;
			if (!head->state.enabled && !output->disabled) {
				mh_output_disable(output);
			}
		}
	}
	if (ok) {
		wlr_output_configuration_v1_send_succeeded(config);
	} else {
		wlr_output_configuration_v1_send_failed(config);
	}
	wlr_output_configuration_v1_destroy(config);
	/* A failed apply may have changed some heads (wlroots refused a later one): clients see the truth. */
	mh_output_manager_changed(m->server);
}

static void handle_apply(struct wl_listener *listener, void *data) {
	struct mh_output_manager *m = wl_container_of(listener, m, apply);
	handle_configuration(m, data, false);
}

static void handle_test(struct wl_listener *listener, void *data) {
	struct mh_output_manager *m = wl_container_of(listener, m, test);
	handle_configuration(m, data, true);
}

/* The manager goes with the display (wlroots frees it), after the backend's outputs. */
static void handle_destroy(struct wl_listener *listener, void *data) {
	struct mh_output_manager *m = wl_container_of(listener, m, destroy);
	if (m->idle != NULL) {
		wl_event_source_remove(m->idle);
	}
	wl_list_remove(&m->apply.link);
	wl_list_remove(&m->test.link);
	wl_list_remove(&m->destroy.link);
	m->server->output_manager = NULL;
	free(m);
}

void mh_output_manager_init(struct mh_server *server) {
	struct mh_output_manager *m = calloc(1, sizeof(*m));
	if (m == NULL) {
		return;
	}
	m->server = server;
	m->manager = wlr_output_manager_v1_create(server->display);
	if (m->manager == NULL) {
		free(m);
		return;
	}
	m->apply.notify = handle_apply;
	wl_signal_add(&m->manager->events.apply, &m->apply);
	m->test.notify = handle_test;
	wl_signal_add(&m->manager->events.test, &m->test);
	m->destroy.notify = handle_destroy;
	wl_signal_add(&m->manager->events.destroy, &m->destroy);
	server->output_manager = m;
}
