#!/usr/bin/python3
"""A GTK 4 client that says what GTK 4 sees of the X server's monitors, one line at a time:
  "monitors N", then "monitor CONNECTOR WxH+X+Y scale S|MANUFACTURER|MODEL" per monitor, "end" at start;
  "added CONNECTOR WxH+X+Y scale S|MANUFACTURER|MODEL" and "removed CONNECTOR" from the display's monitor
  list (a Gio.ListModel: `items-changed`); "geometry CONNECTOR WxH+X+Y" when a listed monitor's geometry
  changes (`notify::geometry`, a mode change). Ends at end of stdin. Run with Debian's python3 (python3-gi,
  gir1.2-gtk-4.0).

GTK 4 appends a new monitor to its list before it sets the monitor's connector, geometry and EDID
names, so "added" is said on an idle after `items-changed`, once GTK has handled the whole RandR change."""
import sys

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def say(line):
    print(line, flush=True)


def geometry(monitor):
    g = monitor.get_geometry()
    return f"{g.width}x{g.height}+{g.x}+{g.y}"


def describe(monitor):
    return (f"{monitor.get_connector() or '?'} {geometry(monitor)} scale {monitor.get_scale_factor()}"
            f"|{monitor.get_manufacturer() or ''}|{monitor.get_model() or ''}")


def follow(monitor):
    """Says each later change of a listed monitor's geometry."""
    monitor.connect("notify::geometry", lambda m, _p: say(f"geometry {m.get_connector() or '?'} {geometry(m)}"))


Gtk.init()
display = Gdk.Display.get_default()
model = display.get_monitors()
# Our copy of GTK's list: `items-changed` says where and how many, not which monitors went.
listed = [model.get_item(i) for i in range(model.get_n_items())]
say(f"monitors {len(listed)}")
for m in listed:
    say(f"monitor {describe(m)}")
    follow(m)
say("end")


def announce(monitors):
    for m in monitors:
        say(f"added {describe(m)}")
        follow(m)
    return GLib.SOURCE_REMOVE


def changed(_model, position, removed, added):
    gone = listed[position:position + removed]
    new = [model.get_item(i) for i in range(position, position + added)]
    listed[position:position + removed] = new
    for m in gone:
        say(f"removed {m.get_connector() or '?'}")
    if new:
        GLib.idle_add(announce, new)


model.connect("items-changed", changed)
loop = GLib.MainLoop()
GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP,
                  lambda fd, _c: (loop.quit() if not sys.stdin.readline() else None) or True)
loop.run()
