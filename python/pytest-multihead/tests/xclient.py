#!/usr/bin/env python3
"""A small X client through libX11 and libXtst (ctypes; none of the kit's code), for the warm-server tests.
DISPLAY and XAUTHORITY pick the server. Usage:
  xclient.py window   map a window and keep drawing into it (a busy client), printing "ready" once mapped
  xclient.py keydown  press a key with XTest and keep it held, printing "ready"
  xclient.py connect  print "connected" or "refused"
  xclient.py state    print what a test can leave on the server as one JSON object: the root's properties
                      (names and values), the mapped top-level windows, the keys held down."""
import ctypes
import ctypes.util
import json
import sys

x11 = ctypes.CDLL(ctypes.util.find_library("X11"))
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XDefaultRootWindow.restype = ctypes.c_ulong
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x11.XCreateSimpleWindow.restype = ctypes.c_ulong
x11.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                    ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_ulong]
x11.XGetAtomName.restype = ctypes.c_void_p
x11.XGetAtomName.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
x11.XListProperties.restype = ctypes.POINTER(ctypes.c_ulong)
x11.XListProperties.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_int)]
for f in ("XMapWindow", "XSync", "XFlush", "XFree", "XQueryKeymap", "XFillRectangle", "XDefaultGC",
          "XGetWindowProperty", "XQueryTree", "XGetWindowAttributes", "XCloseDisplay"):
    getattr(x11, f).restype = ctypes.c_int


def open_display():
    return x11.XOpenDisplay(None)


def main(mode):
    d = open_display()
    if mode == "connect":
        print("connected" if d else "refused", flush=True)
        return
    if not d:
        sys.exit("cannot open the display")
    d = ctypes.c_void_p(d)
    root = x11.XDefaultRootWindow(d)
    if mode == "window":
        w = x11.XCreateSimpleWindow(d, root, 10, 10, 200, 200, 0, 0, 0xFF0000)
        x11.XMapWindow(d, ctypes.c_ulong(w))
        x11.XSync(d, 0)
        print("ready", flush=True)
        while True:
            # Busy: a round trip after another, until the server closes this client (Xlib then exits).
            x11.XSync(d, 0)
    if mode == "keydown":
        xtst = ctypes.CDLL(ctypes.util.find_library("Xtst"))
        xtst.XTestFakeKeyEvent(d, ctypes.c_uint(38), 1, ctypes.c_ulong(0))
        x11.XSync(d, 0)
        print("ready", flush=True)
        while True:
            x11.XSync(d, 0)
    if mode == "state":
        print(json.dumps(state(d, root)), flush=True)


def state(d, root):
    count = ctypes.c_int()
    atoms = x11.XListProperties(d, ctypes.c_ulong(root), ctypes.byref(count))
    props = {}
    for i in range(count.value):
        name_p = x11.XGetAtomName(d, ctypes.c_ulong(atoms[i]))
        name = ctypes.string_at(name_p).decode()
        x11.XFree(ctypes.c_void_p(name_p))
        props[name] = read_property(d, root, atoms[i])
    if atoms:
        x11.XFree(atoms)
    keys = (ctypes.c_char * 32)()
    x11.XQueryKeymap(d, keys)
    held = [i * 8 + b for i, byte in enumerate(keys.raw) for b in range(8) if byte >> b & 1]
    return {"rootProperties": props, "mappedWindows": mapped_windows(d, root), "keysHeld": held}


def read_property(d, window, atom):
    actual_type, fmt = ctypes.c_ulong(), ctypes.c_int()
    n, after = ctypes.c_ulong(), ctypes.c_ulong()
    data = ctypes.c_void_p()
    x11.XGetWindowProperty(d, ctypes.c_ulong(window), ctypes.c_ulong(atom), ctypes.c_long(0), ctypes.c_long(1 << 20), 0,
                           ctypes.c_ulong(0), ctypes.byref(actual_type), ctypes.byref(fmt), ctypes.byref(n),
                           ctypes.byref(after), ctypes.byref(data))
    size = {8: 1, 16: ctypes.sizeof(ctypes.c_short), 32: ctypes.sizeof(ctypes.c_long)}.get(fmt.value, 0)
    raw = ctypes.string_at(data, n.value * size).hex() if data.value else ""
    if data.value:
        x11.XFree(data)
    return raw


class WindowAttributes(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int),
                ("border_width", ctypes.c_int), ("depth", ctypes.c_int), ("visual", ctypes.c_void_p),
                ("root", ctypes.c_ulong), ("class_", ctypes.c_int), ("bit_gravity", ctypes.c_int),
                ("win_gravity", ctypes.c_int), ("backing_store", ctypes.c_int), ("backing_planes", ctypes.c_ulong),
                ("backing_pixel", ctypes.c_ulong), ("save_under", ctypes.c_int), ("colormap", ctypes.c_ulong),
                ("map_installed", ctypes.c_int), ("map_state", ctypes.c_int), ("all_event_masks", ctypes.c_long),
                ("your_event_mask", ctypes.c_long), ("do_not_propagate_mask", ctypes.c_long),
                ("override_redirect", ctypes.c_int), ("screen", ctypes.c_void_p)]


def mapped_windows(d, root):
    root_ret, parent = ctypes.c_ulong(), ctypes.c_ulong()
    children, n = ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
    x11.XQueryTree(d, ctypes.c_ulong(root), ctypes.byref(root_ret), ctypes.byref(parent), ctypes.byref(children),
                   ctypes.byref(n))
    count = 0
    for i in range(n.value):
        a = WindowAttributes()
        if x11.XGetWindowAttributes(d, ctypes.c_ulong(children[i]), ctypes.byref(a)) and a.map_state == 2:
            count += 1
    if children:
        x11.XFree(children)
    return count


if __name__ == "__main__":
    main(sys.argv[1])
