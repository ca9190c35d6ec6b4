#!/usr/bin/python3
"""Scripts/check-portability's GTK 4 client: what GTK 4 knows of the monitors, read from its monitor list
every 50 ms (not from signals) and printed as one JSON line each time it differs:
{"event": "monitors", "backend": "GdkWaylandDisplay", "monitors": [{"connector", "manufacturer", "model",
"scale", "geometry"}, …]}. Ends when stdin closes. Run with Debian's python3 (python3-gi, gir1.2-gtk-4.0).

Read by polling because on Debian 13 (GTK 4.18, PyGObject 3.50) a monitor's `notify` after a hotplug
reached Compositor/tests/clients/gtk4_monitors.py's idle callback only when something else woke the main
loop (docs/packaging.md): the check is of what GTK knows, not of when it signals it."""
import json
import sys

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def main():
    Gtk.init()
    display = Gdk.Display.get_default()
    if display is None:
        print(json.dumps({"event": "error", "reason": "no display"}), flush=True)
        return 1
    monitors = display.get_monitors()
    last = [None]

    def look():
        listed = []
        for i in range(monitors.get_n_items()):
            m = monitors.get_item(i)
            g = m.get_geometry()
            listed.append({"connector": m.get_connector(), "manufacturer": m.get_manufacturer(), "model": m.get_model(),
                           "scale": m.get_scale_factor(), "geometry": [g.x, g.y, g.width, g.height]})
        if listed != last[0]:
            last[0] = listed
            print(json.dumps({"event": "monitors", "backend": type(display).__name__, "monitors": listed}), flush=True)
        return True

    look()
    GLib.timeout_add(50, look)
    loop = GLib.MainLoop()
    GLib.io_add_watch(GLib.IOChannel.unix_new(0), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, lambda *_: loop.quit())
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
