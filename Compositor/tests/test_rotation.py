"""Rotated outputs (a portrait monitor): `plug`/`mode` transform=normal|90|180|270, the output's logical frame
(the panel's mode, its sides swapped at 90 and 270), the output manager (wlr-randr, kanshi) listing and setting
a transform, GTK 4 and Qt 6 seeing the rotated geometry, windows keeping their place, the configuration serial,
and pixels read back in the logical orientation. Waits are on facts, with deadlines."""
import subprocess

from conftest import TIMEOUT
from test_output_manager import Kanshi, gtk_sees, qt_sees, wait_outputs
from test_window_commands import drawn, output_frame, window
from test_windows import pixel, read_png_rgb


def outputs(compositor):
    return {o["name"]: o for o in compositor.ok("outputs")}


def frame(x, y, width, height):
    return {"x": x, "y": y, "width": width, "height": height}


def wlr_randr(compositor, *args):
    return subprocess.run(["wlr-randr", *args], env=compositor.client_env(), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)


def test_plug_rotated_gives_a_portrait_frame(compositor):
    dp1 = compositor.ok("plug DP-1 mode=1920x1080 transform=90")
    # The mode stays the panel's; the frame (layout, logical) is rotated.
    assert dp1["transform"] == "90"
    assert (dp1["mode"]["width"], dp1["mode"]["height"]) == (1920, 1080)
    assert dp1["frame"] == frame(0, 0, 1080, 1920)
    # The next output goes right of its logical edge.
    dp2 = compositor.ok("plug DP-2")
    assert dp2["transform"] == "normal" and dp2["frame"] == frame(1080, 0, 1920, 1080)
    # With a scale, the rotated size divides as an unrotated one does.
    hdmi = compositor.ok("plug HDMI-1 mode=2560x1440 transform=270 scale=2")
    assert hdmi["transform"] == "270" and hdmi["frame"] == frame(3000, 0, 720, 1280)
    assert compositor.ok("plug HDMI-2 mode=1920x1080 transform=180")["frame"] == frame(3720, 0, 1920, 1080)
    listed = outputs(compositor)
    assert {name: o["transform"] for name, o in listed.items()} == {"DP-1": "90", "DP-2": "normal",
                                                                    "HDMI-1": "270", "HDMI-2": "180"}
    dp1.pop("configurationSerial")
    assert listed["DP-1"] == dp1
    # `transform` sits in every OUTPUT, after the scale.
    assert '"scale":1,"transform":"90","frame":' in compositor.cmd("outputs")


def test_mode_rotates_and_back(compositor):
    plugged = compositor.ok("plug DP-1 mode=1920x1080")
    compositor.ok("plug DP-2 mode=1280x720")
    # transform= alone is a change; the serial moves with it.
    rotated = compositor.ok("mode DP-1 transform=270")
    assert rotated["transform"] == "270" and rotated["frame"] == frame(0, 0, 1080, 1920)
    assert (rotated["mode"]["width"], rotated["mode"]["height"]) == (1920, 1080)
    assert rotated["configurationSerial"] > plugged["configurationSerial"]
    assert compositor.ok("configuration")["configurationSerial"] == rotated["configurationSerial"]
    # Its neighbour keeps its place, as on a mode change.
    assert outputs(compositor)["DP-2"]["frame"] == frame(1920, 0, 1280, 720)
    # Together with a mode and a scale: the new mode is the panel's, rotated.
    both = compositor.ok("mode DP-1 mode=1280x1024 transform=90 scale=2")
    assert both["transform"] == "90" and both["frame"] == frame(0, 0, 512, 640)
    assert both["configurationSerial"] > rotated["configurationSerial"]
    back = compositor.ok("mode DP-1 mode=1920x1080 scale=1 transform=normal")
    assert back["transform"] == "normal" and back["frame"] == frame(0, 0, 1920, 1080)
    assert back["configurationSerial"] > both["configurationSerial"]
    upside_down = compositor.ok("mode DP-1 transform=180")
    assert upside_down["transform"] == "180" and upside_down["frame"] == frame(0, 0, 1920, 1080)
    # The usage names it, and it alone is enough.
    usage = compositor.cmd("mode DP-1")
    assert usage.startswith("error usage ") and "[transform=T] (at least one)" in usage, usage


def test_bad_transforms_are_refused(compositor):
    compositor.ok("plug DP-1")
    before = compositor.ok("configuration")
    for value in ("", "0", "45", "-90", "360", "90.0", "NORMAL", "Normal", "left", "portrait", "flipped",
                  "flipped-90", "flipped-180", "flipped-270", "rotate-90", "normal,90"):
        for line in (f"plug DP-2 transform={value}", f"mode DP-1 transform={value}"):
            answer = compositor.cmd(line)
            assert answer.startswith("error bad-value transform is normal, 90, 180 or 270"), (line, answer)
    assert compositor.cmd("mode DP-1 transform=90 transform=90").startswith("error usage")
    assert compositor.cmd("mode DP-2 transform=90").startswith("error no-such-output")
    # Nothing changed, not even the serial.
    assert compositor.ok("configuration") == before


def test_wlr_randr_lists_and_sets_a_transform(compositor):
    compositor.ok("plug DP-1 transform=90")
    compositor.ok("plug HDMI-1 mode=2560x1440")
    text = wlr_randr(compositor).stdout
    assert text.count("Transform: 90") == 1 and text.count("Transform: normal") == 1, text
    serial = compositor.ok("configuration")["configurationSerial"]

    done = wlr_randr(compositor, "--output", "HDMI-1", "--transform", "270", "--pos", "1080,0")
    assert done.returncode == 0, done.stderr
    hdmi = outputs(compositor)["HDMI-1"]
    assert hdmi["transform"] == "270" and hdmi["frame"] == frame(1080, 0, 1440, 2560)
    assert compositor.ok("configuration")["configurationSerial"] > serial
    text = wlr_randr(compositor).stdout
    assert "Transform: 270" in text and "Transform: 90" in text and "Transform: normal" not in text, text

    assert wlr_randr(compositor, "--output", "DP-1", "--transform", "normal").returncode == 0
    assert outputs(compositor)["DP-1"]["frame"] == frame(0, 0, 1920, 1080)
    # A command's change reaches wlr-randr too.
    compositor.ok("mode DP-1 transform=180")
    assert "Transform: 180" in wlr_randr(compositor).stdout

    # Flipped transforms are refused (no monitor mirrors its picture): `failed`, nothing changes.
    before = compositor.ok("configuration")
    refused = wlr_randr(compositor, "--output", "DP-1", "--transform", "flipped-90")
    assert refused.returncode != 0 and "failed" in refused.stderr
    after = compositor.ok("configuration")
    assert after["outputs"] == before["outputs"]


def test_kanshi_profile_rotates_a_monitor(compositor, tmp_path):
    config = tmp_path / "kanshi.conf"
    config.write_text('profile portrait {\n    output DP-1 position 0,0\n'
                      '    output "Dell Inc. DELL U2720Q ABC123" position 1920,0 transform 90\n}\n')
    compositor.ok("plug DP-1")
    kanshi = Kanshi(compositor, str(config))
    try:
        plugged = compositor.ok('plug HDMI-1 make=DEL model="DELL U2720Q" serial=ABC123 mode=2560x1440')
        kanshi.wait_line("configuration for profile 'portrait' applied")
        rotated = wait_outputs(compositor, lambda o: o["HDMI-1"]["transform"] == "90")
        assert rotated["HDMI-1"]["frame"] == frame(1920, 0, 1440, 2560)
        assert compositor.ok("configuration")["configurationSerial"] > plugged["configurationSerial"]
    finally:
        kanshi.stop()


def test_gtk4_and_qt6_see_the_rotated_geometry(compositor):
    compositor.ok("plug DP-1")
    compositor.ok("plug DP-2 mode=1280x1024")
    _, gtk = compositor.gtk4()
    _, qt = compositor.qt6()
    gtk_sees(gtk, lambda m: m.get("DP-1", {}).get("geometry") == [0, 0, 1920, 1080])
    start = qt_sees(qt, lambda s: s.get("DP-1", {}).get("geometry") == [0, 0, 1920, 1080])
    assert {s["name"]: s["primaryOrientation"] for s in start["screens"]}["DP-1"] == "LandscapeOrientation"

    compositor.ok("mode DP-1 transform=90")
    gtk_sees(gtk, lambda m: m.get("DP-1", {}).get("geometry") == [0, 0, 1080, 1920])
    # Qt's Wayland plugin: orientation() from the transform, primaryOrientation() from the geometry's shape.
    qt_sees(qt, lambda s: s.get("DP-1", {}).get("geometry") == [0, 0, 1080, 1920]
            and s["DP-1"]["orientation"] == "PortraitOrientation"
            and s["DP-1"]["primaryOrientation"] == "PortraitOrientation")

    # Rotated at 270 and moved, with a scale: a portrait monitor right of the other.
    compositor.ok("mode DP-2 transform=270 pos=1080,0 scale=2")
    gtk_sees(gtk, lambda m: m.get("DP-2", {}).get("geometry") == [1080, 0, 512, 640] and m["DP-2"]["scale"] == 2)
    qt_sees(qt, lambda s: s.get("DP-2", {}).get("geometry") == [1080, 0, 512, 640]
            and s["DP-2"]["orientation"] == "InvertedPortraitOrientation"
            and s["DP-2"]["primaryOrientation"] == "PortraitOrientation")

    # And back to landscape.
    compositor.ok("mode DP-1 transform=normal")
    gtk_sees(gtk, lambda m: m.get("DP-1", {}).get("geometry") == [0, 0, 1920, 1080])
    qt_sees(qt, lambda s: s.get("DP-1", {}).get("geometry") == [0, 0, 1920, 1080]
            and s["DP-1"]["orientation"] == "LandscapeOrientation"
            and s["DP-1"]["primaryOrientation"] == "LandscapeOrientation")


def test_gtk4_and_qt6_see_a_plugged_portrait_monitor_and_wlr_randrs_rotation(compositor):
    _, gtk = compositor.gtk4()
    _, qt = compositor.qt6()
    compositor.ok("plug HDMI-1 mode=2560x1440 transform=90")
    gtk_sees(gtk, lambda m: m.get("HDMI-1", {}).get("geometry") == [0, 0, 1440, 2560])
    qt_sees(qt, lambda s: s.get("HDMI-1", {}).get("geometry") == [0, 0, 1440, 2560]
            and s["HDMI-1"]["orientation"] == "PortraitOrientation")
    assert wlr_randr(compositor, "--output", "HDMI-1", "--transform", "180").returncode == 0
    gtk_sees(gtk, lambda m: m.get("HDMI-1", {}).get("geometry") == [0, 0, 2560, 1440])
    qt_sees(qt, lambda s: s.get("HDMI-1", {}).get("geometry") == [0, 0, 2560, 1440]
            and s["HDMI-1"]["orientation"] == "InvertedLandscapeOrientation")


def test_a_window_keeps_its_place_and_pixels_are_in_the_logical_orientation(compositor, tmp_path):
    compositor.ok("plug DP-1")
    compositor.ok("plug DP-2")
    compositor.ok("pointer 10 10")
    _, lines = compositor.gtk4("--color", "3366cc")
    drawn(lines, 300, 200, "DP-1")
    ident = window(compositor, "mh-test-3366cc")["id"]
    compositor.ok(f"move-window {ident} DP-1 frame=100,50")

    compositor.ok("mode DP-1 transform=90")
    w = window(compositor, "mh-test-3366cc")
    assert (w["output"], w["frame"]) == ("DP-1", frame(100, 50, 300, 200))
    out = output_frame(compositor, "DP-1")
    assert out == frame(0, 0, 1080, 1920)
    f = w["frame"]
    assert f["x"] + f["width"] <= out["width"] and f["y"] + f["height"] <= out["height"]

    # A screenshot of a portrait monitor is portrait: the output's pixels as its clients see them, the
    # window upright at its place (its corners coloured, just beyond them black).
    compositor.ok("frame")
    shot = str(tmp_path / "portrait.png")
    assert compositor.ok(f"screenshot DP-1 {shot}") == {"path": shot, "width": 1080, "height": 1920}
    width, height, rows = read_png_rgb(shot)
    assert (width, height) == (1080, 1920)
    for x, y in ((100, 50), (399, 50), (100, 249), (399, 249)):
        assert pixel(rows, x, y) == "#3366cc", (x, y)
    for x, y in ((99, 50), (400, 50), (100, 49), (100, 250), (0, 0), (1079, 1919), (1079, 0), (0, 1919)):
        assert pixel(rows, x, y) == "#000000", (x, y)
    assert compositor.ok("pixel DP-1 399 249") == "#3366cc"
    assert compositor.ok("pixel DP-1 400 249") == "#000000"
    assert compositor.ok("pixel DP-1 1079 1919") == "#000000"
    assert compositor.cmd("pixel DP-1 1080 10").startswith("error bad-value")
    assert compositor.cmd("pixel DP-1 10 1920").startswith("error bad-value")
    assert compositor.ok("pixel layout 399 249") == "#3366cc"
    assert compositor.ok("pixel layout 100 1500") == "#000000"  # below a landscape monitor's edge

    # Each rotation, the window at the same logical place.
    for transform in ("180", "270"):
        compositor.ok(f"mode DP-1 transform={transform}")
        compositor.ok("frame")
        assert window(compositor, "mh-test-3366cc")["frame"] == frame(100, 50, 300, 200)
        assert compositor.ok("pixel DP-1 100 50") == "#3366cc", transform
        assert compositor.ok("pixel DP-1 399 249") == "#3366cc", transform
        assert compositor.ok("pixel DP-1 400 250") == "#000000", transform
        assert compositor.ok("pixel DP-1 99 49") == "#000000", transform

    # The layout's picture: DP-1 at 270 (1080×1920) and DP-2 (1920×1080, at 1920,0: it kept its place).
    layout = str(tmp_path / "layout.png")
    assert compositor.ok(f"screenshot layout {layout}") == {"path": layout, "width": 3840, "height": 1920}
    _, _, rows = read_png_rgb(layout)
    assert pixel(rows, 250, 150) == "#3366cc" and pixel(rows, 450, 150) == "#000000"

    # At scale 2 the output is 540×960 in the layout, its picture still the rotated mode, 1080×1920, the
    # window (100,50 300×200 logical) at twice its place and size.
    compositor.ok("mode DP-1 transform=90 scale=2")
    assert output_frame(compositor, "DP-1") == frame(0, 0, 540, 960)
    compositor.ok("frame")
    scaled = str(tmp_path / "scaled.png")
    assert compositor.ok(f"screenshot DP-1 {scaled}") == {"path": scaled, "width": 1080, "height": 1920}
    _, _, rows = read_png_rgb(scaled)
    assert pixel(rows, 200, 100) == "#3366cc" and pixel(rows, 799, 499) == "#3366cc"
    assert pixel(rows, 199, 100) == "#000000" and pixel(rows, 800, 499) == "#000000"
    assert pixel(rows, 200, 500) == "#000000"
    assert compositor.ok("pixel layout 399 249") == "#3366cc" and compositor.ok("pixel layout 401 249") == "#000000"


def test_a_fullscreen_window_fills_the_rotated_output(compositor):
    compositor.ok("plug DP-1 mode=1280x1024")
    _, lines = compositor.gtk4("--color", "22aa44", "--fullscreen")
    drawn(lines, 1280, 1024, "DP-1")
    compositor.ok("mode DP-1 transform=90")
    drawn(lines, 1024, 1280, "DP-1")
    w = window(compositor, "mh-test-22aa44")
    assert w["state"] == "fullscreen" and w["frame"] == frame(0, 0, 1024, 1280)
    assert {compositor.ok(f"pixel DP-1 {x} {y}") for x in (0, 1023) for y in (0, 1279)} == {"#22aa44"}


def test_x11_clients_see_a_rotated_output_through_xwayland(start_compositor):
    # Xwayland turns wl_output's transform into RandR's rotation: 90 is "left", the CRTC 1080x1920.
    c = start_compositor(xwayland_starts=True)
    c.ok("plug DP-1 transform=90")
    c.ok("plug DP-2")
    env = c.client_env(DISPLAY=c.display)
    env.pop("WAYLAND_DISPLAY")
    out = subprocess.run(["xrandr", "--query"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         timeout=30)
    assert out.returncode == 0, out.stderr
    assert "connected 1080x1920+0+0 left (" in out.stdout, out.stdout
    assert "connected 1920x1080+1080+0 (" in out.stdout, out.stdout
