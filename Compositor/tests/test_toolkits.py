"""What a GTK 4 and a Qt 6 client on native Wayland see of plugs, mode changes, scales and unplugs."""
import time

from conftest import FIGURES


def by_connector(state, name):
    return next((m for m in state["monitors"] if m["connector"] == name), None)


def test_gtk4_sees_plug_scale_identity_mode_change_and_unplug(compositor):
    compositor.ok("plug DP-1 mode=1920x1080@60")
    gtk, lines = compositor.gtk4()
    start = lines.wait_for(lambda s: s["event"] == "monitors" and by_connector(s, "DP-1"))
    assert start["backend"] == "GdkWaylandDisplay"

    sent = time.monotonic()
    compositor.ok('plug HDMI-1 mode=2560x1440@60 pos=1920,0 scale=2 make="Dell Inc." model=U2720Q serial=SN1')
    first = lines.wait_for(lambda s: s["event"] == "monitors" and by_connector(s, "HDMI-1"))
    FIGURES.append(("plug to GTK 4 items-changed", first["t"] - sent))
    # GTK 4 may fill a monitor's properties after items-changed: wait for the whole state.
    seen = lines.wait_for(lambda s: (by_connector(s, "HDMI-1") or {}).get("model") == "U2720Q"
                          and by_connector(s, "HDMI-1")["scale"] == 2) if by_connector(first, "HDMI-1")["model"] != "U2720Q" else first
    hdmi = by_connector(seen, "HDMI-1")
    assert hdmi["manufacturer"] == "Dell Inc."
    assert hdmi["model"] == "U2720Q"
    assert hdmi["scale"] == 2
    assert hdmi["geometry"] == [1920, 0, 1280, 720]  # logical: 2560×1440 at scale 2

    compositor.ok("mode HDMI-1 mode=1920x1200@60")
    changed = lines.wait_for(lambda s: (by_connector(s, "HDMI-1") or {}).get("geometry") == [1920, 0, 960, 600])
    assert by_connector(changed, "HDMI-1")["scale"] == 2

    compositor.ok("mode HDMI-1 scale=1")
    lines.wait_for(lambda s: (by_connector(s, "HDMI-1") or {}).get("scale") == 1
                   and by_connector(s, "HDMI-1")["geometry"] == [1920, 0, 1920, 1200])

    sent = time.monotonic()
    compositor.ok("unplug HDMI-1")
    gone = lines.wait_for(lambda s: s["event"] == "monitors" and by_connector(s, "HDMI-1") is None)
    FIGURES.append(("unplug to GTK 4 items-changed", gone["t"] - sent))
    assert [m["connector"] for m in gone["monitors"]] == ["DP-1"]
    assert gtk.poll() is None, "the GTK client died"


def test_qt6_sees_plug_scale_identity_and_unplug(compositor):
    compositor.ok("plug DP-1 mode=1920x1080@60")
    qt, lines = compositor.qt6()
    start = lines.wait_for(lambda s: s["event"] == "screens" and any(x["name"] == "DP-1" for x in s["screens"]))
    assert start["platform"] == "wayland"

    sent = time.monotonic()
    compositor.ok('plug HDMI-1 mode=2560x1440@60 pos=1920,0 scale=2 make="Dell Inc." model=U2720Q serial=SN1')
    added = lines.wait_for(lambda s: s["reason"] == "screenAdded")
    FIGURES.append(("plug to Qt 6 screenAdded", added["t"] - sent))
    hdmi = next(x for x in added["screens"] if x["name"] == "HDMI-1")
    assert hdmi["dpr"] == 2.0
    assert hdmi["manufacturer"] == "Dell Inc."
    assert hdmi["model"].startswith("U2720Q")
    assert hdmi["geometry"] == [1920, 0, 1280, 720]

    compositor.ok("unplug HDMI-1")
    removed = lines.wait_for(lambda s: s["reason"] == "screenRemoved")
    assert [x["name"] for x in removed["screens"]] == ["DP-1"]
    assert qt.poll() is None, "the Qt client died"
