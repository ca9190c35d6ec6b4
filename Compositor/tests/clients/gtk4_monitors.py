#!/usr/bin/python3
"""A GTK 4 client on native Wayland for the compositor's tests: prints one JSON line per change of
the monitor list (items-changed, or a monitor's property notify), with the CLOCK_MONOTONIC time it saw
it; with --color RRGGBB it also shows an undecorated 300x200 window of that colour and prints
{"event": "drawn", "connector": …, "scale": …, "width": …, "height": …} after each frame painted on a
new monitor or scale or at a new size; with it, --fullscreen or --maximize asks that state before the
window is shown, and --minimize asks to be minimized once it is drawn (then prints
{"event": "minimize-asked"}). With --busy-ms N it stays busy N ms in each items-changed (an application
slower than the compositor's events: it reads its Wayland socket late). A "sync" line on stdin makes a
Wayland round trip, then prints {"event": "synced"}. Ends when stdin closes."""
import json
import os
import sys
import time

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def emit(obj):
    obj["t"] = time.monotonic()
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def monitor_info(m):
    g = m.get_geometry()
    return {
        "connector": m.get_connector(),
        "manufacturer": m.get_manufacturer(),
        "model": m.get_model(),
        "scale": m.get_scale_factor(),
        "geometry": [g.x, g.y, g.width, g.height],
        "refresh": m.get_refresh_rate(),
    }


def main():
    color = None
    busy = 0.0
    args = sys.argv[1:]
    flags = {a for a in args if a in ("--fullscreen", "--maximize", "--minimize")}
    if len(args) >= 2 and args[0] == "--color":
        color = args[1]
    elif len(args) == 2 and args[0] == "--busy-ms":
        busy = float(args[1]) / 1000
    Gtk.init()
    display = Gdk.Display.get_default()
    if display is None:
        emit({"event": "error", "reason": "no display"})
        return 1
    monitors = display.get_monitors()
    # The monitors watched, held: a set of id()s would forget a monitor once its Python wrapper is
    # freed, and a new monitor's wrapper may reuse that address, so its notify would never be connected
    # and its properties (filled after items-changed) never printed. Held, no address is reused.
    watched = []
    pending = [False]

    printed = [None]

    def dump(reason):
        listed = [monitor_info(monitors.get_item(i)) for i in range(monitors.get_n_items())]
        printed[0] = listed
        emit({"event": "monitors", "reason": reason, "backend": type(display).__name__, "monitors": listed})

    def check():
        # GTK 4 sometimes fills a new monitor's details without a notify this client sees (a phantom with
        # no connector stayed printed for 20 s in about 1 run of 20 under load): what GTK knows is read
        # again every 50 ms and printed when it differs from the last line.
        listed = [monitor_info(monitors.get_item(i)) for i in range(monitors.get_n_items())]
        if listed != printed[0]:
            dump("check")
        return True

    def watch_all():
        present = [monitors.get_item(i) for i in range(monitors.get_n_items())]
        for m in present:
            if not any(w is m for w in watched):
                m.connect("notify", on_notify)
        watched[:] = present  # a removed monitor is let go (never compared again)

    def flush_notify():
        pending[0] = False
        dump("notify")
        return False

    def on_notify(*_):
        # A monitor's properties may change one by one: one line for the batch.
        if not pending[0]:
            pending[0] = True
            GLib.idle_add(flush_notify)

    def on_items_changed(*_):
        watch_all()
        dump("items-changed")
        if busy:
            time.sleep(busy)  # the application's own work, done in the handler

    monitors.connect("items-changed", on_items_changed)
    watch_all()
    dump("start")
    GLib.timeout_add(50, check)

    loop = GLib.MainLoop()
    if color is not None:
        provider = Gtk.CssProvider()
        provider.load_from_data(("window { background: #%s; }" % color).encode())
        Gtk.StyleContext.add_provider_for_display(display, provider, Gtk.STYLE_PROVIDER_PRIORITY_USER)
        window = Gtk.Window(title="mh-test-%s" % color)
        window.set_decorated(False)
        window.set_default_size(300, 200)
        entered = []
        last = [None]

        def after_paint(*_):
            # A frame painted while on a monitor: the compositor had mapped the window (it sends
            # wl_surface.enter only then), so this frame's buffer is what it shows.
            if entered:
                state = (entered[-1].get_connector(), window.get_scale_factor(), window.get_width(),
                         window.get_height())
                if state != last[0]:
                    first = last[0] is None
                    last[0] = state
                    # GDK committed this frame before this handler ran; its commit is sent before the
                    # line, so a compositor command sent after the line sees it.
                    display.flush()
                    emit({"event": "drawn", "connector": state[0], "scale": state[1], "width": state[2],
                          "height": state[3]})
                    if first and "--minimize" in flags:
                        window.minimize()
                        display.flush()  # the request is on the socket before the line says so
                        emit({"event": "minimize-asked"})

        def on_enter(_surface, monitor):
            entered.append(monitor)
            window.queue_draw()

        def on_realize(w):
            surface = w.get_surface()
            surface.connect("enter-monitor", on_enter)
            surface.get_frame_clock().connect("after-paint", after_paint)

        window.connect("realize", on_realize)
        if "--fullscreen" in flags:
            window.fullscreen()
        if "--maximize" in flags:
            window.maximize()
        window.present()

    def on_stdin(*_):
        # "sync": a Wayland round trip (every event before it handled), then {"event": "synced"}; end of
        # stdin (or anything else) ends the client.
        line = os.read(0, 64)
        if line == b"sync\n":
            Gdk.Display.get_default().sync()
            emit({"event": "synced"})
            return True
        loop.quit()
        return False

    GLib.io_add_watch(GLib.IOChannel.unix_new(0), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, on_stdin)
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
