/* An X11 window of one solid colour (its background, which the X server paints) for the window command
 * tests: `x11_window RRGGBB [--fullscreen] [--maximize] [--minimize] [--no-pid] [--override-redirect]`.
 * It is named "x11-RRGGBB", has _NET_WM_PID as the toolkits set it (not with --no-pid), is a menu-like
 * override-redirect window with --override-redirect, maps at 0,0 at 300x200, and
 * asks, once shown (first focused): --fullscreen and --maximize by the EWMH _NET_WM_STATE message,
 * --minimize by XIconifyWindow (ICCCM's WM_CHANGE_STATE). (Not by a _NET_WM_STATE set before the map,
 * which wlroots 0.15 may miss: Compositor/README.md, known limits.) It prints one JSON line when mapped
 * (by the X server), when focused (the compositor gives a window the focus when it shows it), for each
 * geometry it is given, and for each _NET_WM_STATE or WM_STATE it is given; a "sync" line on stdin makes
 * an X round trip, then prints {"event":"synced"}. Ends when its stdin closes. */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static Atom net_wm_state, fullscreen, maximized_vert, maximized_horz, hidden, wm_state;

static bool has_state(Display *d, Window w, Atom atom) {
	Atom type;
	int format;
	unsigned long count, after;
	unsigned char *data = NULL;
	bool found = false;
	if (XGetWindowProperty(d, w, net_wm_state, 0, 64, False, XA_ATOM, &type, &format, &count, &after, &data) ==
	        Success && data != NULL) {
		for (unsigned long i = 0; i < count; i++) {
			found = found || ((Atom *)data)[i] == atom;
		}
	}
	if (data != NULL) {
		XFree(data);
	}
	return found;
}

/* ICCCM's WM_STATE: 1 normal, 3 iconic, 0 none yet. */
static long wm_state_of(Display *d, Window w) {
	Atom type;
	int format;
	unsigned long count, after;
	unsigned char *data = NULL;
	long value = 0;
	if (XGetWindowProperty(d, w, wm_state, 0, 2, False, wm_state, &type, &format, &count, &after, &data) == Success &&
	    data != NULL && count > 0 && format == 32) {
		value = ((long *)data)[0];
	}
	if (data != NULL) {
		XFree(data);
	}
	return value;
}

static void ask_state(Display *d, Window root, Window w, Atom first, Atom second) {
	XEvent ask = {0};
	ask.xclient.type = ClientMessage;
	ask.xclient.window = w;
	ask.xclient.message_type = net_wm_state;
	ask.xclient.format = 32;
	ask.xclient.data.l[0] = 1; /* _NET_WM_STATE_ADD */
	ask.xclient.data.l[1] = (long)first;
	ask.xclient.data.l[2] = (long)second;
	ask.xclient.data.l[3] = 1; /* from an application */
	XSendEvent(d, root, False, SubstructureRedirectMask | SubstructureNotifyMask, &ask);
	XFlush(d);
}

int main(int argc, char **argv) {
	if (argc < 2 || strlen(argv[1]) != 6) {
		fprintf(stderr, "usage: x11_window RRGGBB [--fullscreen] [--maximize] [--minimize] [--no-pid] "
			"[--override-redirect]\n");
		return 64;
	}
	bool want_fullscreen = false, want_maximize = false, want_minimize = false, pid = true, menu = false;
	for (int i = 2; i < argc; i++) {
		want_fullscreen = want_fullscreen || strcmp(argv[i], "--fullscreen") == 0;
		want_maximize = want_maximize || strcmp(argv[i], "--maximize") == 0;
		want_minimize = want_minimize || strcmp(argv[i], "--minimize") == 0;
		pid = pid && strcmp(argv[i], "--no-pid") != 0;
		menu = menu || strcmp(argv[i], "--override-redirect") == 0;
	}
	Display *d = XOpenDisplay(NULL);
	if (d == NULL) {
		return 69;
	}
	net_wm_state = XInternAtom(d, "_NET_WM_STATE", False);
	fullscreen = XInternAtom(d, "_NET_WM_STATE_FULLSCREEN", False);
	maximized_vert = XInternAtom(d, "_NET_WM_STATE_MAXIMIZED_VERT", False);
	maximized_horz = XInternAtom(d, "_NET_WM_STATE_MAXIMIZED_HORZ", False);
	hidden = XInternAtom(d, "_NET_WM_STATE_HIDDEN", False);
	wm_state = XInternAtom(d, "WM_STATE", False);
	Window root = DefaultRootWindow(d);
	unsigned long colour = strtoul(argv[1], NULL, 16); /* the default TrueColor visual's 0xRRGGBB */
	Window w = XCreateSimpleWindow(d, root, 0, 0, 300, 200, 0, 0, colour);
	char title[32];
	snprintf(title, sizeof(title), "x11-%s", argv[1]);
	XStoreName(d, w, title);
	XClassHint class_hint = {.res_name = "x11_window", .res_class = "mh-x11"};
	XSetClassHint(d, w, &class_hint);
	/* --no-pid: no _NET_WM_PID (the compositor reads the pid from the X connection anyway). */
	Atom net_wm_pid = XInternAtom(d, "_NET_WM_PID", False);
	if (pid) {
		long self = (long)getpid();
		XChangeProperty(d, w, net_wm_pid, XA_CARDINAL, 32, PropModeReplace, (unsigned char *)&self, 1);
	} else {
		XDeleteProperty(d, w, net_wm_pid);
	}
	if (menu) {
		XSetWindowAttributes attributes = {.override_redirect = True};
		XChangeWindowAttributes(d, w, CWOverrideRedirect, &attributes);
	}
	XSelectInput(d, w, StructureNotifyMask | PropertyChangeMask | FocusChangeMask);
	XMapWindow(d, w);
	XEvent e;
	do {
		XNextEvent(d, &e);
	} while (e.type != MapNotify);
	printf("{\"event\":\"mapped\"}\n");
	fflush(stdout);
	bool asked = false;
	struct pollfd fds[2] = {{ConnectionNumber(d), POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
	char input[256];
	size_t used = 0;
	for (;;) {
		while (XPending(d) > 0) {
			XNextEvent(d, &e);
			if (e.type == ConfigureNotify) {
				printf("{\"event\":\"configure\",\"x\":%d,\"y\":%d,\"width\":%d,\"height\":%d}\n",
					e.xconfigure.x, e.xconfigure.y, e.xconfigure.width, e.xconfigure.height);
			} else if (e.type == FocusIn) {
				/* The compositor focuses a window when it shows it: listed by `toplevels` from then on. */
				printf("{\"event\":\"focused\"}\n");
				if (!asked && want_fullscreen) {
					ask_state(d, root, w, fullscreen, None);
				}
				if (!asked && want_maximize) {
					ask_state(d, root, w, maximized_vert, maximized_horz);
				}
				if (!asked && want_minimize) {
					XIconifyWindow(d, w, DefaultScreen(d));
					XFlush(d);
				}
				asked = true;
			} else if (e.type == PropertyNotify && (e.xproperty.atom == net_wm_state || e.xproperty.atom == wm_state)) {
				printf("{\"event\":\"state\",\"fullscreen\":%s,\"maximized\":%s,\"hidden\":%s,\"wmState\":%ld}\n",
					has_state(d, w, fullscreen) ? "true" : "false",
					has_state(d, w, maximized_vert) && has_state(d, w, maximized_horz) ? "true" : "false",
					has_state(d, w, hidden) ? "true" : "false", wm_state_of(d, w));
			}
			fflush(stdout);
		}
		if (poll(fds, 2, -1) < 0 || (fds[0].revents & POLLHUP) != 0) {
			break;
		}
		if ((fds[1].revents & (POLLIN | POLLHUP)) != 0) {
			ssize_t got = read(STDIN_FILENO, input + used, sizeof(input) - 1 - used);
			if (got <= 0) {
				break;
			}
			used += (size_t)got;
			input[used] = '\0';
			char *newline;
			while ((newline = strchr(input, '\n')) != NULL) {
				if (strncmp(input, "sync\n", 5) == 0) {
					XSync(d, False);
					printf("{\"event\":\"synced\"}\n");
					fflush(stdout);
				}
				used -= (size_t)(newline + 1 - input);
				memmove(input, newline + 1, used + 1);
			}
			if (used == sizeof(input) - 1) {
				used = 0; /* a line too long for any command: dropped */
			}
		}
	}
	XCloseDisplay(d);
	return 0;
}
