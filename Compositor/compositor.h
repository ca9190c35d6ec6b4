/*
 * Multihead's headless Wayland compositor: what its parts share. main.c sets the server up, outputs.c
 * plugs and unplugs outputs, views.c maps xdg-shell toplevels, xwayland.c the X11 windows,
 * window_state.c their fullscreen, maximized and minimized states, window_commands.c the commands that
 * move them, input.c is the seat, capture.c reads pixels back, control.c is the line protocol on
 * stdin/stdout and commands.c its commands (output_commands.c plug and mode), modes.c keeps each
 * output's mode list, output_manager.c is zwlr_output_manager_v1 and
 * fractional_scale.c wp_fractional_scale_manager_v1, util.c the strict parsers and JSON writers they use.
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
#ifndef MH_COMPOSITOR_H
#define MH_COMPOSITOR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <wayland-server-core.h>
#include <wlr/backend.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>

struct wlr_xwayland;
struct wlr_xwayland_surface;
struct xkb_context;
struct xkb_keymap;

/* Limits of the control protocol (Compositor/README.md states them). */
#define MH_LINE_MAX 4096
#define MH_MAX_SIDE 8192
#define MH_MAX_PIXELS (7680 * 4320)
#define MH_MAX_POSITION 32767
#define MH_MAX_SCALE 4
/* Scales are kept in 120ths, wp_fractional_scale_v1's unit: 1…4 is 120…480. */
#define MH_SCALE_UNIT 120
/* An output's mode list (modes.c): `modes=` takes at most MH_MAX_MODES, after the preferred one. */
#define MH_MAX_MODES 32
#define MH_MODE_LIST (MH_MAX_MODES + 1)

enum mh_xwayland_mode { MH_XWAYLAND_OFF, MH_XWAYLAND_LAZY, MH_XWAYLAND_EAGER };

struct mh_server {
	struct wl_display *display;
	struct wl_event_loop *loop;
	struct wlr_backend *backend;
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_compositor *compositor;
	struct wlr_output_layout *layout;
	struct wlr_scene *scene;
	struct wlr_xdg_shell *xdg_shell;
	struct wlr_seat *seat;
	struct wlr_input_device *keyboard;
	struct xkb_context *xkb;
	struct wlr_xwayland *xwayland; /* NULL when off */
	enum mh_xwayland_mode xwayland_mode;
	const char *socket;
	bool ready_sent;
	/* Lazy Xwayland found no X display free: the ready line says so (XWAYLAND=unavailable). */
	bool xwayland_unavailable;

	struct wl_list outputs; /* mh_output.link, enabled ones, in plug order */
	struct wl_list disabled; /* mh_output.link, outputs a client's output manager disabled */
	unsigned long plug_count; /* orders the outputs: a re-enabled one takes its plug-order place */
	/* One more with every change of any output (`configurationSerial` in answers): a test's barrier for
	 * "an output manager has applied"; never reused while the compositor runs. */
	unsigned long long configuration_serial;
	struct mh_output_manager *output_manager; /* output_manager.c; NULL once the display goes */
	struct mh_fractional_scale_manager *fractional_scale; /* fractional_scale.c; NULL once the display goes */
	struct wl_list views;   /* mh_view.link, front first */
	unsigned long view_count; /* views ever created: the next one's id is one more (never reused) */

	double pointer_x, pointer_y; /* layout coordinates */

	struct wl_listener new_output;
	struct wl_listener new_xdg_surface;
	struct wl_listener key;
	struct wl_listener modifiers;
	struct wl_listener xwayland_ready;
	struct wl_listener new_xwayland_surface;
	/* Xwayland's own Wayland client, watched to work around wlroots 0.15 (xwayland.c). */
	struct wl_listener xwayland_client_created, xwayland_client_destroy;

	/* The output being plugged: wlroots announces it from inside wlr_headless_add_output. */
	const struct mh_output_spec *plugging;
	struct mh_output *plugged;
};

struct mh_mode {
	int width, height, refresh_mhz;
};

/* What `plug` asks for; make, model and serial fit wlroots' fixed fields. */
struct mh_output_spec {
	const char *name;
	int width, height, refresh_mhz; /* the preferred mode, modes[0] */
	struct mh_mode modes[MH_MODE_LIST]; /* the mode list, the preferred mode first (mh_mode_list) */
	int mode_count;
	int x, y;
	bool has_position;
	int scale120; /* the scale in 120ths (120…480) */
	enum wl_output_transform transform; /* one of the four rotations (the mode is the panel's, unrotated) */
	char make[56], model[16], serial[16];
	int mm_width, mm_height; /* 0: derived at 96 dpi */
};

struct mh_output {
	struct wl_list link;
	struct mh_server *server;
	struct wlr_output *wlr_output;
	unsigned long order; /* plug order */
	bool disabled;       /* in server->disabled: no wl_output global, not in the layout */
	int disabled_x, disabled_y; /* its layout position when disabled, restored when enabled */
	/* Its mode list (modes.c), linked in wlr_output->modes in this order, the preferred one first; and
	 * the current mode when it is none of them (a custom mode, linked after them), else NULL. */
	struct wlr_output_mode modes[MH_MODE_LIST];
	int mode_count;
	struct wlr_output_mode *custom;
	struct wl_listener frame;
	struct wl_listener destroy;
};

enum mh_view_kind { MH_VIEW_XDG, MH_VIEW_X11 };

struct mh_view {
	struct wl_list link;
	struct mh_server *server;
	enum mh_view_kind kind;
	struct wlr_xdg_surface *xdg;            /* MH_VIEW_XDG */
	struct wlr_xwayland_surface *xsurface;  /* MH_VIEW_X11 */
	struct wlr_scene_node *node;            /* NULL while unmapped */
	struct wlr_output *output;              /* the output it was placed on, or NULL */
	unsigned long id;                       /* `toplevels`' "id": given at creation, never reused */
	bool mapped, fullscreen, maximized;
	bool minimized; /* asked by the client; reported, nothing hidden (window_state.c) */
	int x, y; /* layout coordinates of its window geometry */
	/* The frame to return to when it leaves fullscreen and maximized: its output (NULL once that one is
	 * gone), the position within that output, and the size (has_normal: saved at least once). */
	struct wlr_output *normal_output;
	int normal_x, normal_y, normal_width, normal_height;
	bool has_normal;
	struct wl_listener map, unmap, destroy;
	struct wl_listener request_fullscreen, request_maximize, request_minimize, new_popup;
	struct wl_listener request_configure, set_geometry; /* X11 */
};

/* main.c */
void mh_send_ready(struct mh_server *server);

/* outputs.c */
void mh_outputs_init(struct mh_server *server);
struct mh_output *mh_output_find(struct mh_server *server, const char *name);
struct mh_output *mh_output_find_plugged(struct mh_server *server, const char *name);
void mh_output_disable(struct mh_output *output);
void mh_output_enable(struct mh_output *output, int x, int y);
void mh_pnp_company(char *make, size_t size);
struct mh_output *mh_output_at(struct mh_server *server, double lx, double ly);
struct wlr_box mh_output_box(struct mh_output *output);
const char *mh_output_plug(struct mh_server *server, const struct mh_output_spec *spec,
	struct mh_output **result);
const char *mh_output_change(struct mh_output *output, int width, int height, int refresh_mhz,
	bool has_position, int x, int y, int scale120, int transform);
int mh_output_scale120(struct wlr_output *output);
/* An output as answers show it; with `"configurationSerial"` when `with_serial` (plug's and mode's). */
void mh_output_json(FILE *out, struct mh_output *output, bool with_serial);
bool mh_output_name_valid(const char *name);

/* modes.c: an output's mode list (the preferred mode, then `modes=` or the standard smaller sizes) */
bool mh_parse_mode_list(const char *s, struct mh_mode *modes, int *count);
int mh_mode_list(struct mh_mode preferred, const struct mh_mode *extra, int extra_count, struct mh_mode *list);
void mh_output_modes_init(struct mh_output *output, const struct mh_output_spec *spec);
void mh_output_modes_finish(struct mh_output *output);
int mh_output_listed_refresh(struct mh_output *output, int width, int height);
bool mh_output_has_mode(struct mh_output *output, const struct wlr_output_mode *mode);
struct wlr_output_mode *mh_output_mode_prepare(struct mh_output *output, int width, int height, int refresh_mhz);
void mh_output_mode_settle(struct mh_output *output, struct wlr_output_mode *old, bool committed);
void mh_output_modes_json(FILE *out, struct mh_output *output);

/* output_manager.c: zwlr_output_manager_v1 (wlr-randr, kanshi…) */
void mh_output_manager_init(struct mh_server *server);
void mh_output_manager_changed(struct mh_server *server);
void mh_output_manager_mode_added(struct mh_server *server, struct wlr_output *output,
	struct wlr_output_mode *mode);
void mh_output_manager_mode_removed(struct mh_server *server, struct wlr_output *output,
	struct wlr_output_mode *mode, struct wlr_output_mode *replacement);

/* fractional_scale.c: wp_fractional_scale_manager_v1 (each surface's preferred scale, in 120ths) */
void mh_fractional_scale_init(struct mh_server *server);
void mh_fractional_scale_changed(struct mh_server *server);

/* views.c */
void mh_views_init(struct mh_server *server);
void mh_view_place(struct mh_view *view);
void mh_view_put(struct mh_view *view, struct mh_output *output);
void mh_views_output_gone(struct mh_server *server, struct wlr_output *gone);
void mh_views_output_changed(struct mh_server *server, struct wlr_output *output, struct wlr_box old);
void mh_view_set_geometry(struct mh_view *view, int x, int y, int width, int height);
void mh_view_focus(struct mh_view *view);
struct mh_view *mh_view_at(struct mh_server *server, double lx, double ly,
	struct wlr_surface **surface, double *sx, double *sy);
void mh_view_json(FILE *out, struct mh_view *view);

/* window_state.c: fullscreen, maximized and minimized, asked by clients or by commands */
struct wlr_box mh_view_frame(struct mh_view *view);
void mh_view_set_state(struct mh_view *view, bool fullscreen, bool maximized, struct mh_output *output);
void mh_view_set_minimized(struct mh_view *view, bool minimized);
void mh_view_move(struct mh_view *view, struct mh_output *output, int x, int y, int width, int height);
const char *mh_view_state_name(struct mh_view *view);
int mh_view_pid(struct mh_view *view);
struct mh_view *mh_view_find(struct mh_server *server, unsigned long id);

/* window_commands.c: move-window and fullscreen-window */
void mh_cmd_move_window(struct mh_server *server, char **tokens, int n);
void mh_cmd_fullscreen_window(struct mh_server *server, char **tokens, int n);

/* xwayland.c */
bool mh_xwayland_init(struct mh_server *server);
void mh_xwayland_finish(struct mh_server *server);
void mh_x11_view_move(struct mh_view *view, int x, int y, int width, int height);
void mh_x11_view_focus(struct mh_view *view);
const char *mh_x11_view_title(struct mh_view *view);
struct wl_client *mh_xwayland_client(struct mh_server *server);

/* input.c */
bool mh_input_init(struct mh_server *server);
void mh_input_finish(struct mh_server *server);
void mh_pointer_move(struct mh_server *server, double lx, double ly);
const char *mh_pointer_button(struct mh_server *server, const char *name, const char *action);
const char *mh_key(struct mh_server *server, const char *name, const char *action);
const char *mh_type_text(struct mh_server *server, const char *text);

/* capture.c: NULL output means the whole layout. Errors are "CODE reason" strings. */
const char *mh_capture_pixel(struct mh_server *server, struct mh_output *output, int x, int y,
	uint32_t *argb);
const char *mh_capture_file(struct mh_server *server, struct mh_output *output, const char *path,
	const char *format, int *width, int *height);
void mh_capture_finish(void);

/* control.c */
bool mh_control_init(struct mh_server *server, int in_fd, int out_fd);
void mh_control_finish(void);
void mh_control_write_line(const char *line);
void mh_control_quit(void);
void mh_reply(const char *format, ...) __attribute__((format(printf, 1, 2)));
void mh_reply_error(const char *code_and_reason);
FILE *mh_answer_begin(char **text, size_t *size);
void mh_answer_end(FILE *answer, char *const *text);

/* output_commands.c: plug and mode */
void mh_cmd_plug(struct mh_server *server, char **tokens, int n);
void mh_cmd_mode(struct mh_server *server, char **tokens, int n);

/* commands.c */
void mh_run_command(struct mh_server *server, char **tokens, int n);
const char *mh_option(char **tokens, int n, int first, const char *key, const char **error);
bool mh_options_known(char **tokens, int n, int first, const char *const *keys);
struct mh_output *mh_named_output(struct mh_server *server, const char *name);

/* util.c */
bool mh_parse_int(const char *s, long min, long max, long *out);
bool mh_parse_double(const char *s, double min, double max, double *out);
bool mh_parse_scale(const char *s, int *scale120);
int mh_scale120(double scale);
void mh_json_scale(FILE *out, int scale120);
bool mh_parse_transform(const char *s, enum wl_output_transform *transform);
const char *mh_transform_name(enum wl_output_transform transform);
bool mh_parse_mode(const char *s, int *width, int *height, int *refresh_mhz);
bool mh_parse_pair(const char *s, char sep, long min, long max, long *a, long *b);
int mh_utf8_decode(const unsigned char *p, uint32_t *cp, int *bad);
bool mh_utf8_valid(const char *s);
bool mh_identity_ok(const char *s, size_t field);
void mh_json_string(FILE *out, const char *s);
char *mh_vformat(const char *format, va_list args);
char *mh_format(const char *format, ...) __attribute__((format(printf, 1, 2)));
bool mh_write_all(int fd, const void *data, size_t len);

#endif
