#!/usr/bin/python3
"""A GTK 3 window that fills itself with one colour and says, one line at a time, "drawn WxH" after each
draw and "configured WxH+X+Y" (root coordinates) after each configure. Arguments: TITLE RRGGBB WxH [X,Y]
(a position is asked of the window manager, if any). Its WM_CLASS class is "Multihead-window" (the program name). Ends at end
of stdin. Run with Debian's python3 (python3-gi, gir1.2-gtk-3.0)."""
import sys

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import GLib  # noqa: E402

GLib.set_prgname("multihead-window")  # before GTK starts: the class GTK gives the window
from gi.repository import Gdk, Gtk  # noqa: E402


def say(line):
    print(line, flush=True)


title, colour, size = sys.argv[1], sys.argv[2], sys.argv[3]
width, height = (int(v) for v in size.split("x"))

# The colour by CSS, not a cairo draw handler: that needs python3-gi-cairo.
css = Gtk.CssProvider()
css.load_from_data(f"window {{ background-color: #{colour}; }}".encode())
Gtk.StyleContext.add_provider_for_screen(Gdk.Screen.get_default(), css, Gtk.STYLE_PROVIDER_PRIORITY_USER)
window = Gtk.Window(title=title)
window.set_default_size(width, height)
if len(sys.argv) > 4:
    x, y = (int(v) for v in sys.argv[4].split(","))
    window.move(x, y)


def painted(_clock):
    window.get_display().sync()  # the server has drawn it before the line says so
    say(f"drawn {window.get_allocated_width()}x{window.get_allocated_height()}")


def configured(widget, event):
    gdk = widget.get_window()
    x, y = gdk.get_origin()[1:] if gdk is not None else (event.x, event.y)
    say(f"configured {event.width}x{event.height}+{x}+{y}")
    return False


window.connect("configure-event", configured)
window.connect("destroy", lambda _w: Gtk.main_quit())
window.connect("realize", lambda w: w.get_window().get_frame_clock().connect("after-paint", painted))
window.show_all()
GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP,
                  lambda fd, _c: (Gtk.main_quit() if not sys.stdin.readline() else None) or True)
Gtk.main()
