#!/usr/bin/python3
"""A Qt 5 client that says what Qt sees of the X server's screens, one line at a time:
  "monitors N", then "monitor NAME WxH+X+Y" per screen, "end" at start; "added NAME" / "removed NAME"
  from QGuiApplication's screenAdded / screenRemoved, and after "added NAME" the screen's EDID as Qt read
  it, "identity NAME MANUFACTURER|MODEL|SERIAL" (empty fields without one). Ends at end of stdin. Run with Debian's python3
  (python3-pyqt5)."""
import sys

from PyQt5.QtCore import QSocketNotifier
from PyQt5.QtGui import QGuiApplication


def say(line):
    print(line, flush=True)


app = QGuiApplication(["qt-monitors", "-platform", "xcb"])
screens = app.screens()
say(f"monitors {len(screens)}")
for s in screens:
    g = s.geometry()
    say(f"monitor {s.name()} {g.width()}x{g.height()}+{g.x()}+{g.y()}")
say("end")
def added(s):
    say(f"added {s.name()}")
    say(f"identity {s.name()} {s.manufacturer()}|{s.model()}|{s.serialNumber()}")


app.screenAdded.connect(added)
app.screenRemoved.connect(lambda s: say(f"removed {s.name()}"))
stdin = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Read)
stdin.activated.connect(lambda _fd: None if sys.stdin.readline() else app.quit())
sys.exit(app.exec_())
