/* An X11 window that asks for fullscreen the EWMH way (a _NET_WM_STATE client message to the root, as
 * `wmctrl -b add,fullscreen` and the toolkits send it) once it is mapped, then prints one JSON line for
 * each geometry it is given and each _NET_WM_STATE it is given. Ends when its stdin closes. */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

static bool has_fullscreen(Display *d, Window w, Atom state, Atom fullscreen) {
	Atom type;
	int format;
	unsigned long count, after;
	unsigned char *data = NULL;
	bool found = false;
	if (XGetWindowProperty(d, w, state, 0, 64, False, XA_ATOM, &type, &format, &count, &after, &data) == Success &&
	    data != NULL) {
		for (unsigned long i = 0; i < count; i++) {
			found = found || ((Atom *)data)[i] == fullscreen;
		}
	}
	if (data != NULL) {
		XFree(data);
	}
	return found;
}

int main(void) {
	Display *d = XOpenDisplay(NULL);
	if (d == NULL) {
		return 69;
	}
	Window root = DefaultRootWindow(d);
	Window w = XCreateSimpleWindow(d, root, 0, 0, 300, 200, 0, 0, 0xffffff);
	XStoreName(d, w, "fullscreen-test");
	XSelectInput(d, w, StructureNotifyMask | PropertyChangeMask);
	XMapWindow(d, w);
	Atom state = XInternAtom(d, "_NET_WM_STATE", False);
	Atom fullscreen = XInternAtom(d, "_NET_WM_STATE_FULLSCREEN", False);
	XEvent e;
	do {
		XNextEvent(d, &e);
	} while (e.type != MapNotify);
	printf("{\"event\":\"mapped\"}\n");
	fflush(stdout);
	XEvent ask = {0};
	ask.xclient.type = ClientMessage;
	ask.xclient.window = w;
	ask.xclient.message_type = state;
	ask.xclient.format = 32;
	ask.xclient.data.l[0] = 1; /* _NET_WM_STATE_ADD */
	ask.xclient.data.l[1] = (long)fullscreen;
	ask.xclient.data.l[3] = 1; /* from an application */
	XSendEvent(d, root, False, SubstructureRedirectMask | SubstructureNotifyMask, &ask);
	XFlush(d);
	struct pollfd fds[2] = {{ConnectionNumber(d), POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
	for (;;) {
		while (XPending(d) > 0) {
			XNextEvent(d, &e);
			if (e.type == ConfigureNotify) {
				printf("{\"event\":\"configure\",\"x\":%d,\"y\":%d,\"width\":%d,\"height\":%d}\n",
					e.xconfigure.x, e.xconfigure.y, e.xconfigure.width, e.xconfigure.height);
			} else if (e.type == PropertyNotify && e.xproperty.atom == state) {
				printf("{\"event\":\"state\",\"fullscreen\":%s}\n",
					has_fullscreen(d, w, state, fullscreen) ? "true" : "false");
			}
			fflush(stdout);
		}
		if (poll(fds, 2, -1) < 0 || (fds[1].revents & (POLLIN | POLLHUP)) != 0 || (fds[0].revents & POLLHUP) != 0) {
			break;
		}
	}
	XCloseDisplay(d);
	return 0;
}
