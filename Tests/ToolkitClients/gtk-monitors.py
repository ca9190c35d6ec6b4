#!/usr/bin/python3
"""A GTK 3 client that says what GTK sees of the X server's monitors, one line at a time:
  "monitors N", then "monitor MODEL WxH+X+Y" per monitor, "end" at start; "added MODEL" / "removed MODEL"
  from GdkDisplay's monitor-added / monitor-removed signals. Ends at end of stdin. Run with Debian's
  python3 (python3-gi, gir1.2-gtk-3.0)."""
import sys

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def say(line):
    print(line, flush=True)


def name(monitor):
    # GTK names a RandR monitor after its output: the model is the output's name.
    return monitor.get_model() or "?"


Gtk.init([])
display = Gdk.Display.get_default()
count = display.get_n_monitors()
say(f"monitors {count}")
for i in range(count):
    m = display.get_monitor(i)
    g = m.get_geometry()
    say(f"monitor {name(m)} {g.width}x{g.height}+{g.x}+{g.y}")
say("end")
display.connect("monitor-added", lambda _d, m: say(f"added {name(m)}"))
display.connect("monitor-removed", lambda _d, m: say(f"removed {name(m)}"))
loop = GLib.MainLoop()
GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP,
                  lambda fd, _c: (loop.quit() if not sys.stdin.readline() else None) or True)
loop.run()
