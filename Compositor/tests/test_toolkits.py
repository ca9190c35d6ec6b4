"""What GTK 4, Qt 6, SDL 2 and Chromium clients on native Wayland see of plugs, mode changes, scales and unplugs."""
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


def test_qt6_sees_plug_scale_identity_mode_change_and_unplug(compositor):
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

    def qt_hdmi(s):
        return next((x for x in s["screens"] if x["name"] == "HDMI-1"), {})

    compositor.ok("mode HDMI-1 mode=1920x1200@60")
    changed = lines.wait_for(lambda s: qt_hdmi(s).get("geometry") == [1920, 0, 960, 600])
    assert changed["reason"] == "geometryChanged" and qt_hdmi(changed)["dpr"] == 2.0

    compositor.ok("mode HDMI-1 scale=1")
    lines.wait_for(lambda s: qt_hdmi(s).get("geometry") == [1920, 0, 1920, 1200] and qt_hdmi(s)["dpr"] == 1.0)

    sent = time.monotonic()
    compositor.ok("unplug HDMI-1")
    removed = lines.wait_for(lambda s: s["reason"] == "screenRemoved")
    FIGURES.append(("unplug to Qt 6 screenRemoved", removed["t"] - sent))
    assert [x["name"] for x in removed["screens"]] == ["DP-1"]
    assert qt.poll() is None, "the Qt client died"


def sdl_display(state, connector):
    """SDL 2 names a Wayland display by xdg-output's description, "MAKE MODEL SERIAL (NAME)"."""
    return next((d for d in state["displays"] if d["name"].endswith(f"({connector})")), None)


def test_sdl2_sees_plug_scale_mode_change_and_unplug(compositor, sdl2_client):
    compositor.ok("plug DP-1 mode=1920x1080@60")
    sdl, lines = compositor.sdl2(sdl2_client)
    start = lines.wait_for(lambda s: s["event"] == "displays" and sdl_display(s, "DP-1"))
    assert start["driver"] == "wayland"
    dp1 = sdl_display(start, "DP-1")
    assert dp1["bounds"] == [0, 0, 1920, 1080] and dp1["desktop"][:2] == [1920, 1080]

    sent = time.monotonic()
    compositor.ok('plug HDMI-1 mode=2560x1440@60 pos=1920,0 scale=2 make="Dell Inc." model=U2720Q serial=SN1')
    added = lines.wait_for(lambda s: s["reason"] == "connected")
    FIGURES.append(("plug to SDL 2 SDL_DISPLAYEVENT_CONNECTED", added["t"] - sent))
    hdmi = sdl_display(added, "HDMI-1")
    assert hdmi["name"] == "Dell Inc. U2720Q SN1 (HDMI-1)"
    # The scale, as SDL 2.26 shows it on a display: bounds and desktop mode in logical pixels (the mode
    # over the scale), the mode itself as the largest of the list, and a DPI halved (logical pixels
    # over the millimetres). No scale factor of its own.
    assert hdmi["bounds"] == [1920, 0, 1280, 720]
    assert hdmi["desktop"][:2] == [1280, 720]
    assert hdmi["largest"][:2] == [2560, 1440]
    assert abs(hdmi["dpi"][1] - dp1["dpi"][1] / 2) < 1

    # SDL 2 has no display event for a mode change: it updates a display in place, and only when the
    # change brings a wl_output.geometry (which wlroots sends for a scale or transform change, not for
    # a mode alone). A plug after it is the fact to wait on (the client's Wayland events come in order).
    compositor.ok("mode HDMI-1 mode=1920x1200@60")
    compositor.ok("plug DP-2")
    marker = lines.wait_for(lambda s: s["reason"] == "connected" and sdl_display(s, "DP-2"))
    assert sdl_display(marker, "HDMI-1")["bounds"] == [1920, 0, 1280, 720], "SDL 2.26 now follows a mode alone"
    compositor.ok("mode HDMI-1 scale=1")
    compositor.ok("plug DP-3")
    marker = lines.wait_for(lambda s: s["reason"] == "connected" and sdl_display(s, "DP-3"))
    hdmi = sdl_display(marker, "HDMI-1")
    assert hdmi["bounds"] == [1920, 0, 1920, 1200]
    assert hdmi["largest"][:2] == [1920, 1200]
    assert abs(hdmi["dpi"][1] - 1920 / (677 / 25.4)) < 1  # horizontal: pixels over inches, at scale 1

    sent = time.monotonic()
    compositor.ok("unplug HDMI-1")
    removed = lines.wait_for(lambda s: s["reason"] == "disconnected")
    FIGURES.append(("unplug to SDL 2 SDL_DISPLAYEVENT_DISCONNECTED", removed["t"] - sent))
    assert [d["name"][-6:] for d in removed["displays"]] == ["(DP-1)", "(DP-2)", "(DP-3)"]
    assert sdl.poll() is None, "the SDL client died"


def test_sdl2_window_pixels_follow_the_output_scale(compositor, sdl2_client):
    """SDL 2.26 gives a per-output scale only through a window: its size in pixels is its size times
    the scale of the output its surface entered (SDL_WINDOW_ALLOW_HIGHDPI)."""
    compositor.ok("plug DP-1 mode=1920x1080@60")
    compositor.ok("plug HDMI-1 mode=2560x1440@60 pos=1920,0 scale=2")
    compositor.ok("pointer 100 100")  # the new window goes to DP-1
    sdl, lines = compositor.sdl2(sdl2_client, "--window")
    on_dp1 = lines.wait_for(lambda s: s["event"] == "window" and s["display"].endswith("(DP-1)")
                            and s["pixels"] == [300, 200])
    assert on_dp1["size"] == [300, 200]

    compositor.ok("unplug DP-1")  # the window moves to HDMI-1, at scale 2
    on_hdmi = lines.wait_for(lambda s: s["event"] == "window" and s["display"].endswith("(HDMI-1)"))
    assert on_hdmi["size"] == [300, 200] and on_hdmi["pixels"] == [600, 400]
    assert compositor.ok("toplevels")[0]["output"] == "HDMI-1"
    assert sdl.poll() is None, "the SDL client died"


def chromium_screen(state, connector):
    """Chromium labels a Wayland screen by xdg-output's description, "MAKE MODEL SERIAL (NAME)"."""
    return next((s for s in state.get("screens", []) if s["label"].endswith(f"({connector})")), None)


def test_chromium_sees_plug_scale_mode_change_and_unplug(compositor):
    compositor.ok("plug DP-1 mode=1920x1080@60")
    chromium, lines = compositor.chromium()
    start = lines.wait_for(lambda s: s["event"] == "error" or chromium_screen(s, "DP-1"), timeout=60)
    assert start["event"] == "screens", start
    assert [s["label"] for s in start["screens"]] == ["Multihead Virtual Monitor (DP-1)"]
    assert compositor.ok("toplevels")[0]["appId"] == "chromium"  # headful, on our compositor

    sent = time.monotonic()
    compositor.ok('plug HDMI-1 mode=2560x1440@60 pos=1920,0 scale=2 make="Dell Inc." model=U2720Q serial=SN1')
    added = lines.wait_for(lambda s: s["reason"] == "screenschange" and chromium_screen(s, "HDMI-1"))
    FIGURES.append(("plug to Chromium screenschange", added["t"] - sent))
    # The screen comes before xdg-output's position: its own `change` brings left 1920.
    seen = lines.wait_for(lambda s: (chromium_screen(s, "HDMI-1") or {}).get("left") == 1920)
    hdmi = chromium_screen(seen, "HDMI-1")
    assert hdmi["label"] == "Dell Inc. U2720Q SN1 (HDMI-1)"
    assert hdmi["devicePixelRatio"] == 2
    assert [hdmi["width"], hdmi["height"], hdmi["top"]] == [1280, 720, 0]

    compositor.ok("mode HDMI-1 mode=1920x1200@60")
    changed = lines.wait_for(lambda s: s["reason"] == "change" and (chromium_screen(s, "HDMI-1") or {}).get("width") == 960)
    assert chromium_screen(changed, "HDMI-1")["height"] == 600

    # A fractional scale: Chromium's screen reports it as its devicePixelRatio (1920×1200 at 1.5: 1280×800).
    compositor.ok("mode HDMI-1 scale=1.5")
    lines.wait_for(lambda s: (chromium_screen(s, "HDMI-1") or {}).get("devicePixelRatio") == 1.5
                   and chromium_screen(s, "HDMI-1")["width"] == 1280)

    compositor.ok("mode HDMI-1 scale=1")
    lines.wait_for(lambda s: (chromium_screen(s, "HDMI-1") or {}).get("devicePixelRatio") == 1
                   and chromium_screen(s, "HDMI-1")["width"] == 1920)

    sent = time.monotonic()
    compositor.ok("unplug HDMI-1")
    removed = lines.wait_for(lambda s: s["reason"] == "screenschange" and chromium_screen(s, "HDMI-1") is None)
    FIGURES.append(("unplug to Chromium screenschange", removed["t"] - sent))
    assert [s["label"] for s in removed["screens"]] == ["Multihead Virtual Monitor (DP-1)"]
    assert chromium.poll() is None, "the Chromium client died"
