/*
 * The seat: a pointer and a keyboard (a headless keyboard with the default "us" keymap) that only the
 * control channel drives. The pointer has a position in layout coordinates and focuses the surface under
 * it; a button press focuses that surface's window for the keyboard.
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
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <wlr/backend/headless.h>
#include <wlr/interfaces/wlr_keyboard.h>
#include <xkbcommon/xkbcommon.h>
#include "compositor.h"

static uint32_t now_msec(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static struct wlr_keyboard *keyboard_of(struct mh_server *server) {
	return server->keyboard->keyboard;
}

static void handle_key(struct wl_listener *listener, void *data) {
	struct mh_server *server = wl_container_of(listener, server, key);
	struct wlr_event_keyboard_key *event = data;
	wlr_seat_set_keyboard(server->seat, server->keyboard);
	wlr_seat_keyboard_notify_key(server->seat, event->time_msec, event->keycode, event->state);
}

static void handle_modifiers(struct wl_listener *listener, void *data) {
	(void)data;
	struct mh_server *server = wl_container_of(listener, server, modifiers);
	wlr_seat_set_keyboard(server->seat, server->keyboard);
	wlr_seat_keyboard_notify_modifiers(server->seat, &keyboard_of(server)->modifiers);
}

bool mh_input_init(struct mh_server *server) {
	server->seat = wlr_seat_create(server->display, "seat0");
	server->keyboard = wlr_headless_add_input_device(server->backend, WLR_INPUT_DEVICE_KEYBOARD);
	if (server->seat == NULL || server->keyboard == NULL) {
		return false;
	}
	server->xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	if (server->xkb == NULL) {
		return false;
	}
	/* NULL names: the library's defaults (evdev rules, pc105, us), not the environment's XKB_DEFAULT_*. */
	struct xkb_rule_names names = { .rules = "evdev", .model = "pc105", .layout = "us" };
	struct xkb_keymap *keymap = xkb_keymap_new_from_names(server->xkb, &names,
		XKB_KEYMAP_COMPILE_NO_FLAGS);
	if (keymap == NULL) {
		return false;
	}
	bool ok = wlr_keyboard_set_keymap(keyboard_of(server), keymap);
	xkb_keymap_unref(keymap); /* the keyboard holds its own reference */
	if (!ok) {
		return false;
	}
	server->key.notify = handle_key;
	wl_signal_add(&keyboard_of(server)->events.key, &server->key);
	server->modifiers.notify = handle_modifiers;
	wl_signal_add(&keyboard_of(server)->events.modifiers, &server->modifiers);
	wlr_seat_set_keyboard(server->seat, server->keyboard);
	wlr_seat_set_capabilities(server->seat, WL_SEAT_CAPABILITY_POINTER | WL_SEAT_CAPABILITY_KEYBOARD);
	return true;
}

void mh_input_finish(struct mh_server *server) {
	if (server->key.link.next != NULL) {
		wl_list_remove(&server->key.link);
		wl_list_remove(&server->modifiers.link);
	}
	if (server->xkb != NULL) {
		xkb_context_unref(server->xkb);
		server->xkb = NULL;
	}
}

void mh_pointer_move(struct mh_server *server, double lx, double ly) {
	/* Off the layout, the pointer stops at its edge, as a real one does. */
	if (!wl_list_empty(&server->outputs)) {
		wlr_output_layout_closest_point(server->layout, NULL, lx, ly, &lx, &ly);
	}
	server->pointer_x = lx;
	server->pointer_y = ly;
	struct wlr_surface *surface = NULL;
	double sx = 0, sy = 0;
	mh_view_at(server, lx, ly, &surface, &sx, &sy);
	if (surface != NULL) {
		wlr_seat_pointer_notify_enter(server->seat, surface, sx, sy);
		wlr_seat_pointer_notify_motion(server->seat, now_msec(), sx, sy);
	} else {
		wlr_seat_pointer_notify_clear_focus(server->seat);
	}
	wlr_seat_pointer_notify_frame(server->seat);
}

const char *mh_pointer_button(struct mh_server *server, const char *name, const char *action) {
	uint32_t button;
	if (strcmp(name, "left") == 0) {
		button = BTN_LEFT;
	} else if (strcmp(name, "right") == 0) {
		button = BTN_RIGHT;
	} else if (strcmp(name, "middle") == 0) {
		button = BTN_MIDDLE;
	} else {
		return "bad-value the button is left, right or middle";
	}
	bool press = strcmp(action, "press") == 0 || strcmp(action, "click") == 0;
	bool release = strcmp(action, "release") == 0 || strcmp(action, "click") == 0;
	if (!press && !release) {
		return "bad-value the action is press, release or click";
	}
	if (press) {
		struct wlr_surface *surface = NULL;
		double sx, sy;
		struct mh_view *view = mh_view_at(server, server->pointer_x, server->pointer_y, &surface, &sx, &sy);
		if (view != NULL) {
			mh_view_set_minimized(view, false); /* a click activates it: a minimized window is back */
			mh_view_focus(view);
		}
		wlr_seat_pointer_notify_button(server->seat, now_msec(), button, WLR_BUTTON_PRESSED);
		wlr_seat_pointer_notify_frame(server->seat);
	}
	if (release) {
		wlr_seat_pointer_notify_button(server->seat, now_msec(), button, WLR_BUTTON_RELEASED);
		wlr_seat_pointer_notify_frame(server->seat);
	}
	return NULL;
}

/* The evdev keycode typing `sym` on the keymap's first layout, and whether Shift is needed for it. */
static bool find_key(struct xkb_keymap *keymap, xkb_keysym_t sym, uint32_t *code, bool *shift) {
	xkb_keycode_t min = xkb_keymap_min_keycode(keymap), max = xkb_keymap_max_keycode(keymap);
	for (xkb_level_index_t level = 0; level < 2; level++) {
		for (xkb_keycode_t kc = min; kc <= max; kc++) {
			const xkb_keysym_t *syms;
			int n = xkb_keymap_key_get_syms_by_level(keymap, kc, 0, level, &syms);
			for (int i = 0; i < n; i++) {
				if (syms[i] == sym) {
					*code = kc - 8; /* xkb keycodes are evdev's plus 8 */
					*shift = level == 1;
					return true;
				}
			}
		}
	}
	return false;
}

static void send_key(struct mh_server *server, uint32_t code, bool pressed) {
	struct wlr_event_keyboard_key event = {
		.time_msec = now_msec(),
		.keycode = code,
		.update_state = true,
		.state = pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED,
	};
	wlr_keyboard_notify_key(keyboard_of(server), &event);
}

static void tap(struct mh_server *server, uint32_t code, bool shift, bool press, bool release) {
	if (shift && press) {
		send_key(server, KEY_LEFTSHIFT, true);
	}
	if (press) {
		send_key(server, code, true);
	}
	if (release) {
		send_key(server, code, false);
	}
	if (shift && release) {
		send_key(server, KEY_LEFTSHIFT, false);
	}
}

const char *mh_key(struct mh_server *server, const char *name, const char *action) {
	bool press = strcmp(action, "press") == 0 || strcmp(action, "tap") == 0;
	bool release = strcmp(action, "release") == 0 || strcmp(action, "tap") == 0;
	if (!press && !release) {
		return "bad-value the action is press, release or tap";
	}
	xkb_keysym_t sym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS);
	if (sym == XKB_KEY_NoSymbol) {
		sym = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE);
	}
	if (sym == XKB_KEY_NoSymbol) {
		return "bad-value not a key name (an xkb keysym name: a, Return, Escape, F1, Shift_L…)";
	}
	uint32_t code;
	bool shift;
	if (!find_key(keyboard_of(server)->keymap, sym, &code, &shift)) {
		return "unsupported no key of the us keymap types that symbol";
	}
	tap(server, code, shift, press, release);
	return NULL;
}

const char *mh_type_text(struct mh_server *server, const char *text) {
	/* Check every character first, so a refused text types nothing. */
	for (int pass = 0; pass < 2; pass++) {
		const unsigned char *p = (const unsigned char *)text;
		while (*p) {
			uint32_t cp, code;
			bool shift;
			int bad;
			int len = mh_utf8_decode(p, &cp, &bad);
			if (len == 0) {
				return "bad-value the text is not UTF-8";
			}
			xkb_keysym_t sym = xkb_utf32_to_keysym(cp);
			if (sym == XKB_KEY_NoSymbol || !find_key(keyboard_of(server)->keymap, sym, &code, &shift)) {
				return "unsupported a character of the text has no key on the us keymap";
			}
			if (pass == 1) {
				tap(server, code, shift, true, true);
			}
			p += len;
		}
	}
	return NULL;
}
