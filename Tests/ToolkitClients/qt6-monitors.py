#!/usr/bin/python3
"""A Qt 6 client that says what Qt 6 sees of the X server's screens, one line at a time:
  "monitors N", then "monitor NAME WxH+X+Y dpr R" per screen, "end" at start; "added NAME WxH+X+Y dpr R" /
  "removed NAME" from QGuiApplication's screenAdded / screenRemoved, and after each listed or added screen
  its EDID as Qt read it, "identity NAME MANUFACTURER|MODEL|SERIAL" (empty fields without one);
  "geometry NAME WxH+X+Y" from QScreen.geometryChanged (a mode change); "orientation NAME O" after each
  identity and on QScreen.orientationChanged (O: Qt's ScreenOrientation, such as PortraitOrientation). R is QScreen.devicePixelRatio(),
  which QT_SCREEN_SCALE_FACTORS (multihead run --scale) sets per screen. Ends at end of stdin. Run with
  Debian's python3 (python3-pyqt6)."""
import sys

from PyQt6.QtCore import QSocketNotifier
from PyQt6.QtGui import QGuiApplication


def say(line):
    print(line, flush=True)


def geometry(s):
    g = s.geometry()
    return f"{g.width()}x{g.height()}+{g.x()}+{g.y()}"


def describe(s):
    return f"{s.name()} {geometry(s)} dpr {s.devicePixelRatio():g}"


def follow(s):
    say(f"identity {s.name()} {s.manufacturer()}|{s.model()}|{s.serialNumber()}")
    say(f"orientation {s.name()} {s.orientation().name}")
    s.geometryChanged.connect(lambda _g, s=s: say(f"geometry {s.name()} {geometry(s)}"))
    s.orientationChanged.connect(lambda o, s=s: say(f"orientation {s.name()} {o.name}"))


app = QGuiApplication(["qt6-monitors", "-platform", "xcb"])
screens = app.screens()
say(f"monitors {len(screens)}")
for s in screens:
    say(f"monitor {describe(s)}")
for s in screens:
    follow(s)
say("end")


def added(s):
    say(f"added {describe(s)}")
    follow(s)


app.screenAdded.connect(added)
app.screenRemoved.connect(lambda s: say(f"removed {s.name()}"))
stdin = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
stdin.activated.connect(lambda _fd: None if sys.stdin.readline() else app.quit())
sys.exit(app.exec())
