/*
 * zwlr_output_manager_v1 (version 2, as wlroots 0.15 ships it), so wlr-randr, kanshi, way-displays and
 * shikane run: every plugged output is a head (name, description, make, model, serial, physical size,
 * its modes (modes.c's list) and current mode, position, transform, scale, enabled); `apply` and `test` of a
 * configuration are checked as `plug` and `mode` check their values, then applied through outputs.c.
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
	/* Counted at each step, not once per update sent: a read between two steps never shows a new state
	 * under an old serial. */
	server->configuration_serial++;
	struct mh_output_manager *m = server->output_manager;
	if (m != NULL && m->idle == NULL) {
		m->idle = wl_event_loop_add_idle(server->loop, update, m);
	}
}

/* zwlr_output_mode_v1 (version 2: events only), for the mode objects of a mode that joins or leaves a
 * head's list after the head was announced: wlroots 0.15 announces a head's modes once, when it sends
 * the head, and its protocol code is not exported. Its events: size, refresh, preferred, finished. A
 * head's "mode" event (opcode 3) introduces one. */
static const struct wl_interface *const no_types[] = {NULL, NULL};
static const struct wl_message mode_events[] = {
	{"size", "ii", (const struct wl_interface **)no_types},
	{"refresh", "i", (const struct wl_interface **)no_types},
	{"preferred", "", (const struct wl_interface **)no_types},
	{"finished", "", (const struct wl_interface **)no_types},
};
static const struct wl_interface mode_interface = {"zwlr_output_mode_v1", 2, 0, NULL, 4, mode_events};
enum { HEAD_MODE = 3, MODE_SIZE = 0, MODE_REFRESH = 1, MODE_FINISHED = 3 };

static void mode_resource_destroy(struct wl_resource *resource) {
	wl_list_remove(wl_resource_get_link(resource));
}

/* A mode that joined an output's list (a custom mode made current): a mode object for every client's
 * head of that output, as wlroots makes them (no implementation, the mode as user data), so that its
 * current_mode event finds it. */
void mh_output_manager_mode_added(struct mh_server *server, struct wlr_output *output,
		struct wlr_output_mode *mode) {
	if (server->output_manager == NULL) {
		return;
	}
	struct wlr_output_head_v1 *head;
	wl_list_for_each(head, &server->output_manager->manager->heads, link) {
		if (head->state.output != output) {
			continue;
		}
		struct wl_resource *head_resource;
		wl_resource_for_each(head_resource, &head->resources) {
			struct wl_resource *r = wl_resource_create(wl_resource_get_client(head_resource), &mode_interface,
				wl_resource_get_version(head_resource), 0);
			if (r == NULL) {
				wl_resource_post_no_memory(head_resource);
				continue;
			}
			wl_resource_set_implementation(r, NULL, mode, mode_resource_destroy);
			wl_list_insert(&head->mode_resources, wl_resource_get_link(r));
			wl_resource_post_event(head_resource, HEAD_MODE, r);
			wl_resource_post_event(r, MODE_SIZE, mode->width, mode->height);
			wl_resource_post_event(r, MODE_REFRESH, mode->refresh);
		}
	}
}

/* A mode that left an output's list (a custom mode no longer current): its mode objects are finished
 * and destroyed, and a head whose state still names it names the replacement (the new current mode)
 * until the next update, so that wlroots never looks for a mode object that is gone (a client binding
 * the manager meanwhile gets the head's list and state from them). */
void mh_output_manager_mode_removed(struct mh_server *server, struct wlr_output *output,
		struct wlr_output_mode *mode, struct wlr_output_mode *replacement) {
	if (server->output_manager == NULL) {
		return;
	}
	struct wlr_output_head_v1 *head;
	wl_list_for_each(head, &server->output_manager->manager->heads, link) {
		if (head->state.output != output) {
			continue;
		}
		struct wl_resource *r, *next;
		wl_resource_for_each_safe(r, next, &head->mode_resources) {
			if (wl_resource_get_user_data(r) == mode) {
				wl_resource_post_event(r, MODE_FINISHED);
				wl_resource_destroy(r);
			}
		}
		if (head->state.mode == mode) {
			/* No size: the next update always finds the mode changed and sends current_mode again
			 * (a custom mode of the old one's size made current meanwhile would otherwise go unsent). */
			head->state.mode = replacement;
			head->state.custom_mode.width = head->state.custom_mode.height = 0;
		}
	}
}

/* A head's mode as the client asked for it: one of the head's modes, or a custom one (refresh 0, which
 * the protocol leaves to the compositor, is the rate of the listed mode of that size, else 60 Hz, as
 * `mode=WxH` without a rate is). */
static void head_mode(const struct wlr_output_configuration_head_v1 *head, int *width, int *height,
		int *refresh) {
	const struct wlr_output_head_v1_state *s = &head->state;
	*width = s->mode != NULL ? s->mode->width : s->custom_mode.width;
	*height = s->mode != NULL ? s->mode->height : s->custom_mode.height;
	*refresh = s->mode != NULL ? s->mode->refresh : s->custom_mode.refresh;
	if (*refresh == 0) {
		*refresh = mh_output_listed_refresh(s->output->data, *width, *height);
	}
	if (*refresh == 0) {
		*refresh = 60000;
	}
}

/* What `plug` and `mode` accept, so a client gets no more than the control protocol: a scale 1…4
 * (applied rounded to the nearest 1/120, as `scale=` is: wl_fixed's 1/256 steps are not 120ths), and
 * the four rotations (`transform=`), not the flipped transforms (no monitor mirrors its picture). */
static bool head_ok(const struct wlr_output_configuration_head_v1 *head) {
	const struct wlr_output_head_v1_state *s = &head->state;
	if (s->output->data == NULL) {
		return false;
	}
	if (!s->enabled) {
		return true;
	}
	/* A listed mode the client chose may have left the list since (a custom mode no longer current). */
	if (s->mode != NULL && !mh_output_has_mode(s->output->data, s->mode)) {
		wlr_log(WLR_INFO, "output manager: %s: refused a mode no longer listed", s->output->name);
		return false;
	}
	int width, height, refresh;
	head_mode(head, &width, &height, &refresh);
	bool ok = width >= 1 && width <= MH_MAX_SIDE && height >= 1 && height <= MH_MAX_SIDE
		&& (long)width * height <= MH_MAX_PIXELS && refresh >= 1 && refresh <= 1000000
		&& s->x >= -MH_MAX_POSITION && s->x <= MH_MAX_POSITION && s->y >= -MH_MAX_POSITION
		&& s->y <= MH_MAX_POSITION && s->transform <= WL_OUTPUT_TRANSFORM_270
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
		scale120 != mh_output_scale120(o) ? scale120 : 0, s->transform != o->transform ? (int)s->transform : -1)
		== NULL;
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
