#!/usr/bin/python3
"""A Qt 6 client on native Wayland (QT_QPA_PLATFORM=wayland) for the compositor's tests: prints one
JSON line with the screens at start and at each screenAdded / screenRemoved / geometry or orientation
change, with the CLOCK_MONOTONIC time it saw it. Each screen's "orientation" is QScreen::orientation()
(Qt's Wayland plugin derives it from wl_output's transform) and "primaryOrientation" its
primaryOrientation() (from the geometry's shape), by Qt's names ("PortraitOrientation"…). Ends when stdin
closes."""
import json
import sys
import time

from PyQt6.QtCore import QSocketNotifier
from PyQt6.QtGui import QGuiApplication


def main():
    app = QGuiApplication(sys.argv)

    def dump(reason):
        screens = []
        for s in app.screens():
            g = s.geometry()
            screens.append({"name": s.name(), "manufacturer": s.manufacturer(), "model": s.model(),
                            "serial": s.serialNumber(), "dpr": s.devicePixelRatio(),
                            "geometry": [g.x(), g.y(), g.width(), g.height()],
                            "orientation": s.orientation().name,
                            "primaryOrientation": s.primaryOrientation().name})
        sys.stdout.write(json.dumps({"event": "screens", "reason": reason, "platform": app.platformName(),
                                     "screens": screens, "t": time.monotonic()}) + "\n")
        sys.stdout.flush()

    def watch(s):
        s.geometryChanged.connect(lambda *_: dump("geometryChanged"))

    for s in app.screens():
        watch(s)
    app.screenAdded.connect(lambda s: (watch(s), dump("screenAdded")))
    app.screenRemoved.connect(lambda s: dump("screenRemoved"))
    notifier = QSocketNotifier(0, QSocketNotifier.Type.Read)
    notifier.activated.connect(lambda *_: app.quit())
    dump("start")
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
