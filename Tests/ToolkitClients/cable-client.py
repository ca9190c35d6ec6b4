#!/usr/bin/env python3
"""Any client of the server setting a cable of Multihead's Xorg driver, with libX11 and libXrandr through
ctypes (none of the kit's code). DISPLAY picks the server. Reads one JSON step a line on stdin and prints
one JSON answer a line:
  {"set": "DP-1", "edid": "00ff…" or null, "connected": 1}  → {"error": null | "BadValue" | …}
      (the EDID in a request of its own first; when it is refused the cable is left alone; then the
      server is probed, as xrandr does)
  {"state": "DP-1"}                                         → {"connected": true, "modes": [[1920, 1080], …]}
  {"delete": "DP-8", "property": "MULTIHEAD_EDID"}          → {"error": null | "BadAccess" | …}
Ends at the end of stdin."""
import ctypes
import ctypes.util
import json
import sys

x11 = ctypes.CDLL(ctypes.util.find_library("X11"))
xrandr = ctypes.CDLL(ctypes.util.find_library("Xrandr"))


class XErrorEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("display", ctypes.c_void_p), ("resourceid", ctypes.c_ulong),
                ("serial", ctypes.c_ulong), ("error_code", ctypes.c_ubyte), ("request_code", ctypes.c_ubyte),
                ("minor_code", ctypes.c_ubyte)]


class ModeInfo(ctypes.Structure):
    _fields_ = [("id", ctypes.c_ulong), ("width", ctypes.c_uint), ("height", ctypes.c_uint), ("dotClock", ctypes.c_ulong),
                ("hSyncStart", ctypes.c_uint), ("hSyncEnd", ctypes.c_uint), ("hTotal", ctypes.c_uint), ("hSkew", ctypes.c_uint),
                ("vSyncStart", ctypes.c_uint), ("vSyncEnd", ctypes.c_uint), ("vTotal", ctypes.c_uint),
                ("name", ctypes.c_char_p), ("nameLength", ctypes.c_uint), ("modeFlags", ctypes.c_ulong)]


class ScreenResources(ctypes.Structure):
    _fields_ = [("timestamp", ctypes.c_ulong), ("configTimestamp", ctypes.c_ulong), ("ncrtc", ctypes.c_int),
                ("crtcs", ctypes.POINTER(ctypes.c_ulong)), ("noutput", ctypes.c_int), ("outputs", ctypes.POINTER(ctypes.c_ulong)),
                ("nmode", ctypes.c_int), ("modes", ctypes.POINTER(ModeInfo))]


class OutputInfo(ctypes.Structure):
    _fields_ = [("timestamp", ctypes.c_ulong), ("crtc", ctypes.c_ulong), ("name", ctypes.c_char_p), ("nameLen", ctypes.c_int),
                ("mm_width", ctypes.c_ulong), ("mm_height", ctypes.c_ulong), ("connection", ctypes.c_ushort),
                ("subpixel_order", ctypes.c_ushort), ("ncrtc", ctypes.c_int), ("crtcs", ctypes.POINTER(ctypes.c_ulong)),
                ("nclone", ctypes.c_int), ("clones", ctypes.POINTER(ctypes.c_ulong)), ("nmode", ctypes.c_int),
                ("npreferred", ctypes.c_int), ("modes", ctypes.POINTER(ctypes.c_ulong))]


ERROR_NAMES = {2: "BadValue", 10: "BadAccess", 15: "BadName"}
last_error = []
HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(XErrorEvent))(
    lambda _d, e: last_error.append(ERROR_NAMES.get(e.contents.error_code, f"error {e.contents.error_code}")) or 0)

x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XDefaultRootWindow.restype = ctypes.c_ulong
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x11.XInternAtom.restype = ctypes.c_ulong
x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
x11.XSetErrorHandler(HANDLER)
xrandr.XRRGetScreenResources.restype = ctypes.POINTER(ScreenResources)
xrandr.XRRGetScreenResources.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
xrandr.XRRGetOutputInfo.restype = ctypes.POINTER(OutputInfo)
xrandr.XRRGetOutputInfo.argtypes = [ctypes.c_void_p, ctypes.POINTER(ScreenResources), ctypes.c_ulong]
xrandr.XRRChangeOutputProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int,
                                           ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
xrandr.XRRDeleteOutputProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]

d = x11.XOpenDisplay(None)
if not d:
    sys.exit("cannot open the display")
root = x11.XDefaultRootWindow(d)
XA_INTEGER = 19


def outputs():
    """Probes (GetScreenResources, as xrandr does) and returns the outputs by name with their info."""
    res = xrandr.XRRGetScreenResources(d, root)
    found = {}
    for i in range(res.contents.noutput):
        info = xrandr.XRRGetOutputInfo(d, res, res.contents.outputs[i])
        modes = {res.contents.modes[k].id: (res.contents.modes[k].width, res.contents.modes[k].height)
                 for k in range(res.contents.nmode)}
        found[info.contents.name.decode()] = (res.contents.outputs[i], info.contents.connection == 0,
                                              [list(modes[info.contents.modes[k]]) for k in range(info.contents.nmode)])
    return found


def synced():
    """The error the requests sent since the last call caused, if any."""
    x11.XSync(d, 0)
    error = last_error[0] if last_error else None
    last_error.clear()
    return error


def change(output, name, fmt, data, count):
    atom = x11.XInternAtom(d, name.encode(), 0)
    xrandr.XRRChangeOutputProperty(d, output, atom, XA_INTEGER, fmt, 0, data, count)
    return synced()


ids = {name: o[0] for name, o in outputs().items()}
for line in sys.stdin:
    step = json.loads(line)
    if "set" in step:
        error = None
        if step.get("edid") is not None:
            edid = bytes.fromhex(step["edid"])
            error = change(ids[step["set"]], "MULTIHEAD_EDID", 8, ctypes.c_char_p(edid), len(edid))
        if error is None:
            value = ctypes.c_long(step["connected"])
            error = change(ids[step["set"]], "MULTIHEAD_CONNECTED", 32, ctypes.byref(value), 1)
            outputs()
        answer = {"error": error}
    elif "state" in step:
        _, connected, modes = outputs()[step["state"]]
        answer = {"connected": connected, "modes": modes}
    else:
        xrandr.XRRDeleteOutputProperty(d, ids[step["delete"]], x11.XInternAtom(d, step["property"].encode(), 0))
        answer = {"error": synced()}
    print(json.dumps(answer), flush=True)
