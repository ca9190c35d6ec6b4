#!/usr/bin/env python3
"""Reads the server-wide state a client can leave behind, with libX11, libXss and libXfixes through
ctypes (none of the kit's code): what `xhost`, `xset`, `xsetroot` and XKB change. Prints one JSON object.
DISPLAY and XAUTHORITY pick the server. Used by the suite to compare a reused server with a fresh one."""
import ctypes
import ctypes.util
import hashlib
import json
import sys

x11 = ctypes.CDLL(ctypes.util.find_library("X11"))
xss = ctypes.CDLL(ctypes.util.find_library("Xss"))
xfixes = ctypes.CDLL(ctypes.util.find_library("Xfixes"))

x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XDefaultRootWindow.restype = ctypes.c_ulong
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
d = x11.XOpenDisplay(None)
if not d:
    sys.exit("cannot open the display")
root = x11.XDefaultRootWindow(d)


class HostAddress(ctypes.Structure):
    _fields_ = [("family", ctypes.c_int), ("length", ctypes.c_int), ("address", ctypes.c_void_p)]


class ServerInterpreted(ctypes.Structure):
    _fields_ = [("typelength", ctypes.c_int), ("valuelength", ctypes.c_int),
                ("type", ctypes.c_void_p), ("value", ctypes.c_void_p)]


def hosts():
    count, enabled = ctypes.c_int(), ctypes.c_int()
    x11.XListHosts.restype = ctypes.POINTER(HostAddress)
    x11.XListHosts.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]
    lst = x11.XListHosts(d, ctypes.byref(count), ctypes.byref(enabled))
    out = []
    for i in range(count.value):
        h = lst[i]
        if h.family == 5:  # FamilyServerInterpreted
            si = ServerInterpreted.from_address(h.address)
            out.append("si:%s:%s" % (ctypes.string_at(si.type, si.typelength).decode(),
                                     ctypes.string_at(si.value, si.valuelength).decode()))
        else:
            out.append("%d:%s" % (h.family, ctypes.string_at(h.address, h.length).hex()))
    return bool(enabled.value), sorted(out)


def screen_saver():
    v = [ctypes.c_int() for _ in range(4)]
    x11.XGetScreenSaver(ctypes.c_void_p(d), *[ctypes.byref(x) for x in v])
    return [x.value for x in v]


class SaverInfo(ctypes.Structure):
    _fields_ = [("window", ctypes.c_ulong), ("state", ctypes.c_int), ("kind", ctypes.c_int),
                ("til_or_since", ctypes.c_ulong), ("idle", ctypes.c_ulong), ("eventMask", ctypes.c_ulong)]


def saver_state():
    xss.XScreenSaverAllocInfo.restype = ctypes.POINTER(SaverInfo)
    info = xss.XScreenSaverAllocInfo()
    xss.XScreenSaverQueryInfo(ctypes.c_void_p(d), ctypes.c_ulong(root), info)
    return {0: "off", 1: "on", 3: "disabled"}.get(info.contents.state, str(info.contents.state))


class KeyboardState(ctypes.Structure):
    _fields_ = [("key_click_percent", ctypes.c_int), ("bell_percent", ctypes.c_int),
                ("bell_pitch", ctypes.c_uint), ("bell_duration", ctypes.c_uint), ("led_mask", ctypes.c_ulong),
                ("global_auto_repeat", ctypes.c_int), ("auto_repeats", ctypes.c_ubyte * 32)]


def keyboard():
    k = KeyboardState()
    x11.XGetKeyboardControl(ctypes.c_void_p(d), ctypes.byref(k))
    return [k.key_click_percent, k.bell_percent, k.bell_pitch, k.bell_duration, k.led_mask, k.global_auto_repeat,
            bytes(k.auto_repeats).hex()]


def pointer():
    v = [ctypes.c_int() for _ in range(3)]
    x11.XGetPointerControl(ctypes.c_void_p(d), *[ctypes.byref(x) for x in v])
    return [x.value for x in v]


def font_path():
    n = ctypes.c_int()
    x11.XGetFontPath.restype = ctypes.POINTER(ctypes.c_char_p)
    p = x11.XGetFontPath(ctypes.c_void_p(d), ctypes.byref(n))
    return [p[i].decode() for i in range(n.value)]


class Mods(ctypes.Structure):
    _fields_ = [("mask", ctypes.c_ubyte), ("real_mods", ctypes.c_ubyte), ("vmods", ctypes.c_ushort)]


class Controls(ctypes.Structure):
    # XkbControlsRec's first fields, as XKBstr.h lays them out.
    _fields_ = [("mk_dflt_btn", ctypes.c_ubyte), ("num_groups", ctypes.c_ubyte), ("groups_wrap", ctypes.c_ubyte),
                ("internal", Mods), ("ignore_lock", Mods), ("enabled_ctrls", ctypes.c_uint),
                ("repeat_delay", ctypes.c_ushort), ("repeat_interval", ctypes.c_ushort),
                ("slow_keys_delay", ctypes.c_ushort), ("debounce_delay", ctypes.c_ushort)]


class Desc(ctypes.Structure):
    _fields_ = [("dpy", ctypes.c_void_p), ("flags", ctypes.c_ushort), ("device_spec", ctypes.c_ushort),
                ("min_key_code", ctypes.c_ubyte), ("max_key_code", ctypes.c_ubyte),
                ("ctrls", ctypes.POINTER(Controls))]


def xkb():
    x11.XkbAllocKeyboard.restype = ctypes.POINTER(Desc)
    desc = x11.XkbAllocKeyboard()
    x11.XkbGetControls(ctypes.c_void_p(d), ctypes.c_ulong(0xF8001FFF), desc)
    c = desc.contents.ctrls.contents
    return {"enabled": c.enabled_ctrls, "repeatDelay": c.repeat_delay, "repeatInterval": c.repeat_interval,
            "slowKeysDelay": c.slow_keys_delay}


def pixel(x, y):
    x11.XGetImage.restype = ctypes.c_void_p
    x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
                              ctypes.c_ulong, ctypes.c_int]
    image = x11.XGetImage(d, root, x, y, 1, 1, ctypes.c_ulong(-1).value, 2)
    # XImage's data pointer: after width, height, xoffset, format (4 ints).
    data = ctypes.c_void_p.from_address(image + 16).value
    return ctypes.string_at(data, 4).hex()


class CursorImage(ctypes.Structure):
    _fields_ = [("x", ctypes.c_short), ("y", ctypes.c_short), ("width", ctypes.c_ushort), ("height", ctypes.c_ushort),
                ("xhot", ctypes.c_ushort), ("yhot", ctypes.c_ushort), ("cursor_serial", ctypes.c_ulong),
                ("pixels", ctypes.POINTER(ctypes.c_ulong)), ("atom", ctypes.c_ulong), ("name", ctypes.c_char_p)]


def cursor():
    xfixes.XFixesGetCursorImage.restype = ctypes.POINTER(CursorImage)
    c = xfixes.XFixesGetCursorImage(ctypes.c_void_p(d)).contents
    pixels = bytes((ctypes.c_ulong * (c.width * c.height)).from_address(ctypes.addressof(c.pixels.contents)))
    return "%dx%d+%d+%d %s" % (c.width, c.height, c.xhot, c.yhot, hashlib.sha1(pixels).hexdigest()[:12])


width = x11.XDisplayWidth(ctypes.c_void_p(d), 0)
height = x11.XDisplayHeight(ctypes.c_void_p(d), 0)
probe = [int(v) for v in sys.argv[1:3]] if len(sys.argv) >= 3 else [width - 1, height - 1]
enabled, host_list = hosts()
print(json.dumps({
    "accessControl": enabled, "hosts": host_list, "screenSaver": screen_saver(), "screenSaverState": saver_state(),
    "keyboard": keyboard(), "pointer": pointer(), "fontPath": font_path(), "xkb": xkb(),
    "rootPixel": pixel(*probe), "cursor": cursor(),
}, sort_keys=True))
