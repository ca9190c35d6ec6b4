"""Fractional scales (issue 68): `plug`/`mode` scale=1.25, 1.5…, the output's logical frame (the mode over the
scale, as wlroots rounds it), the output manager (wlr-randr) setting one, wp_fractional_scale_manager_v1's
preferred_scale for a surface (clients/fractional_scale.py, on the wire), wl_output.scale rounded up for
integer-only clients, and GTK 4 (integer-only) seeing the monitor. Waits are on facts, with deadlines."""
import os
import subprocess

from conftest import HERE, TIMEOUT
from test_windows import pixel, read_png_rgb


def outputs(compositor):
    return {o["name"]: o for o in compositor.ok("outputs")}


def frame(x, y, width, height):
    return {"x": x, "y": y, "width": width, "height": height}


def fractional_client(compositor, *args):
    return compositor.start_client(["/usr/bin/python3", os.path.join(HERE, "clients", "fractional_scale.py"),
                                    *args])


def preferred(lines, scale):
    return lines.wait_for(lambda e: e["event"] == "preferred-scale" and e["scale"] == scale)


def window_id(compositor, title):
    (found,) = [w["id"] for w in compositor.ok("toplevels") if w["title"] == title]
    return found


def wlr_randr(compositor, *args):
    return subprocess.run(["wlr-randr", *args], env=compositor.client_env(), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)


def test_plug_at_a_fractional_scale_gives_a_logical_frame(compositor):
    dp1 = compositor.ok("plug DP-1 scale=1.5")
    dp1.pop("configurationSerial")  # plug's answer has it, `outputs` rows do not
    assert dp1["scale"] == 1.5 and dp1["mode"]["width"] == 1920 and dp1["mode"]["height"] == 1080
    assert dp1["frame"] == frame(0, 0, 1280, 720)  # 1920×1080 over 1.5
    # The next output goes right of it, at its logical edge.
    assert compositor.ok("plug DP-2")["frame"] == frame(1280, 0, 1920, 1080)
    assert compositor.ok("plug HDMI-1 mode=2560x1440 scale=1.25")["frame"] == frame(3200, 0, 2048, 1152)
    listed = outputs(compositor)
    assert listed["DP-1"] == dp1 and listed["DP-1"]["scale"] == 1.5
    assert listed["HDMI-1"]["scale"] == 1.25
    # A whole scale still prints as an integer, as before (a JSON reader of integers keeps working).
    answer = compositor.cmd("outputs")
    assert '"scale":1.5,' in answer and '"scale":1,' in answer and '"scale":1.25,' in answer, answer
    assert '"scale":2,' in compositor.cmd("plug DP-3 scale=2")


def test_mode_changes_to_a_fractional_scale(compositor):
    compositor.ok("plug DP-1")
    compositor.ok("plug DP-2")
    changed = compositor.ok("mode DP-1 scale=1.25")
    assert changed["scale"] == 1.25 and changed["frame"] == frame(0, 0, 1536, 864)
    # Its neighbour keeps its place (positions are the client's or the caller's to change, as for a mode).
    assert outputs(compositor)["DP-2"]["frame"] == frame(1920, 0, 1920, 1080)
    assert compositor.ok("mode DP-1 scale=1.75 pos=0,0")["frame"] == frame(0, 0, 1097, 617)  # truncated
    # wlroots divides in single precision and truncates: 1920×1080 at 1.2 is 1599×899, not 1600×900.
    assert compositor.ok("mode DP-1 scale=1.2")["frame"] == frame(0, 0, 1599, 899)
    # Rounded to the nearest 1/120: 1.3 is 156/120; 1.004 is 120.48/120, so 1; 1.013 is 121.56/120, so 122/120.
    assert compositor.ok("mode DP-1 scale=1.3")["scale"] == 1.3
    answer = compositor.cmd("mode DP-1 scale=1.004")
    assert answer.startswith("ok ") and '"scale":1,' in answer, answer
    assert compositor.ok("mode DP-1 scale=1.013")["scale"] == 122 / 120
    assert compositor.ok("mode DP-1 mode=1280x720 scale=1.5")["frame"] == frame(0, 0, 853, 480)
    assert compositor.ok("mode DP-1 scale=2")["frame"] == frame(0, 0, 640, 360)


def test_scale_range_and_refusals(compositor):
    # From 1 to 4, fractional ones in between; anything else is bad-value and changes nothing.
    assert compositor.ok("plug DP-1 scale=1")["scale"] == 1
    assert compositor.ok("plug DP-2 scale=4")["scale"] == 4
    assert compositor.ok("plug DP-3 scale=3.5")["scale"] == 3.5
    before = compositor.cmd("outputs")
    for value in ("0", "0.5", "0.99", "5", "4.01", "abc", "-1.5", "nan", "inf", "1.5x", "", "0x1.8p0"):
        for line in (f"plug DP-4 scale={value}", f"mode DP-1 scale={value}"):
            answer = compositor.cmd(line)
            assert answer.startswith("error bad-value"), (line, answer)
    assert compositor.cmd("outputs") == before


def test_a_surface_gets_its_outputs_preferred_scale(compositor):
    compositor.ok("plug DP-1 scale=1.5")
    compositor.ok("plug DP-2")
    client, lines = fractional_client(compositor)
    preferred(lines, 180)
    lines.wait_for(lambda e: e["event"] == "mapped")
    window = window_id(compositor, "fractional-scale")
    # A scale change of its output: a new preferred scale.
    compositor.ok("mode DP-1 scale=2")
    preferred(lines, 240)
    # Moved to another output: that output's scale.
    compositor.ok(f"move-window {window} DP-2")
    preferred(lines, 120)
    compositor.ok("mode DP-2 scale=1.25")
    preferred(lines, 150)
    compositor.ok(f"move-window {window} DP-1")
    preferred(lines, 240)
    # Its output unplugged: it moves to the first output left, and gets that one's scale.
    compositor.ok("unplug DP-1")
    preferred(lines, 150)


def test_a_new_surface_gets_the_scale_where_it_will_be_shown(compositor):
    compositor.ok("plug DP-1")
    compositor.ok("plug DP-2 scale=1.75")
    compositor.ok("pointer 2000 10")  # new windows go to the output under the pointer: DP-2
    client, lines = fractional_client(compositor)
    preferred(lines, 210)
    lines.wait_for(lambda e: e["event"] == "mapped")
    assert [w["output"] for w in compositor.ok("toplevels")] == ["DP-2"]


def test_a_second_fractional_scale_for_a_surface_is_a_protocol_error(compositor):
    compositor.ok("plug DP-1 scale=1.5")
    client, lines = fractional_client(compositor, "--twice")
    error = lines.wait_for(lambda e: e["event"] == "error")
    assert error["code"] == 0 and "already" in error["message"], error  # fractional_scale_exists
    client.wait(TIMEOUT)
    assert compositor.ok("clients") == "0"


def test_integer_only_clients_get_wl_output_scale_rounded_up(compositor):
    compositor.ok("plug DP-1 scale=1.5")
    client, lines = fractional_client(compositor)
    lines.wait_for(lambda e: e["event"] == "output" and e["name"] == "DP-1" and e["scale"] == 2)
    lines.wait_for(lambda e: e["event"] == "enter" and e["output"] == "DP-1")
    compositor.ok("mode DP-1 scale=1")
    lines.wait_for(lambda e: e["event"] == "output" and e["name"] == "DP-1" and e["scale"] == 1)
    compositor.ok("mode DP-1 scale=2.25")
    lines.wait_for(lambda e: e["event"] == "output" and e["name"] == "DP-1" and e["scale"] == 3)
    compositor.ok("mode DP-1 scale=1.25")
    lines.wait_for(lambda e: e["event"] == "output" and e["name"] == "DP-1" and e["scale"] == 2)


def test_wlr_randr_sets_a_fractional_scale(compositor):
    compositor.ok("plug DP-1")
    compositor.ok("plug DP-2")
    done = wlr_randr(compositor, "--output", "DP-1", "--scale", "1.5", "--pos", "0,0")
    assert done.returncode == 0, done.stderr
    dp1 = outputs(compositor)["DP-1"]
    assert dp1["scale"] == 1.5 and dp1["frame"] == frame(0, 0, 1280, 720)
    assert "Scale: 1.500000" in wlr_randr(compositor).stdout
    # wl_fixed carries 1.1 as 282/256: rounded to the nearest 1/120, it is 1.1 again.
    assert wlr_randr(compositor, "--output", "DP-2", "--scale", "1.1").returncode == 0
    assert outputs(compositor)["DP-2"]["scale"] == 1.1
    # Out of 1…4: `failed`, nothing changes.
    for value in ("5", "0.5"):
        refused = wlr_randr(compositor, "--output", "DP-1", "--scale", value)
        assert refused.returncode != 0 and "failed" in refused.stderr, (value, refused.stderr)
    assert outputs(compositor)["DP-1"]["scale"] == 1.5


def test_gtk4_sees_a_fractional_output(compositor):
    compositor.ok("plug DP-1 scale=1.5")
    compositor.ok("plug DP-2")
    _, lines = compositor.gtk4()
    # GTK 4.8 has no fractional scale: the monitor's scale factor is wl_output.scale (1.5 rounded up), its
    # geometry xdg-output's logical one.
    lines.wait_for(lambda s: s["event"] == "monitors" and {
        m["connector"]: (m["scale"], m["geometry"]) for m in s["monitors"]} == {
        "DP-1": (2, [0, 0, 1280, 720]), "DP-2": (1, [1280, 0, 1920, 1080])})
    compositor.ok("mode DP-1 scale=1.25")
    lines.wait_for(lambda s: s["event"] == "monitors" and any(
        m["connector"] == "DP-1" and m["scale"] == 2 and m["geometry"] == [0, 0, 1536, 864]
        for m in s["monitors"]))


def test_pixels_read_back_on_a_fractional_output(compositor, tmp_path):
    compositor.ok("plug DP-1 scale=1.5")
    _, lines = compositor.gtk4("--color", "336699")
    lines.wait_for(lambda s: s["event"] == "drawn" and s["connector"] == "DP-1" and s["scale"] == 2)
    # The 300×200 window covers 450×300 of DP-1's pixels.
    assert compositor.ok("pixel DP-1 440 290") == "#336699"
    assert compositor.ok("pixel DP-1 460 10") == "#000000"
    # Layout coordinates: the output's pixel at the point times 1.5 (rounded down).
    assert compositor.ok("pixel layout 299 199") == "#336699"
    assert compositor.ok("pixel layout 310 10") == "#000000"
    shot = str(tmp_path / "layout.png")
    assert compositor.ok(f"screenshot layout {shot}") == {"path": shot, "width": 1280, "height": 720}
    width, height, rows = read_png_rgb(shot)
    assert pixel(rows, 299, 199) == "#336699" and pixel(rows, 310, 10) == "#000000"
