"""Mode lists (issue 68): a plugged output offers a list of modes as a monitor's EDID does, its preferred
mode first, then `modes=` or the standard sizes below it; `outputs` shows it, `mode=WxH` takes a listed
size's rate, a custom mode joins the list while it is current, and zwlr_output_manager_v1 advertises the
list: wlr-randr lists it and sets a listed mode (GTK 4 sees the new geometry), kanshi 1.3.1 applies one, and
a client that stays connected (clients/output_heads.py, on the wire) sees custom modes join and leave.
Waits are on facts, with deadlines."""
import os

from conftest import HERE
from test_output_manager import DELL, Kanshi, gtk_sees, outputs, wait_outputs, wlr_randr


def mode(width, height, refresh=60, preferred=False):
    return {"width": width, "height": height, "refresh": refresh, "preferred": preferred}


def sizes(listed):
    return [(m["width"], m["height"], m["refresh"]) for m in listed]


SMALLER_THAN_1080P = [mode(1680, 1050), mode(1600, 900), mode(1280, 1024), mode(1280, 800), mode(1280, 720),
                      mode(1024, 768), mode(800, 600), mode(640, 480)]


def test_default_list_is_the_preferred_mode_and_the_standard_smaller_sizes(compositor):
    dp1 = compositor.ok("plug DP-1")
    assert dp1["modes"] == [mode(1920, 1080, preferred=True)] + SMALLER_THAN_1080P
    # The current mode keeps its key and form.
    assert dp1["mode"] == {"width": 1920, "height": 1080, "refreshRate": 60}
    assert '"mode":{"width":1920,"height":1080,"refreshRate":60.000},"modes":[{"width":1920,"height":1080,' \
           '"refresh":60.000,"preferred":true},' in compositor.cmd("outputs")
    # No wider and no taller than the preferred mode, its own size left out, at 60 Hz (the preferred mode
    # keeps its rate).
    hdmi = compositor.ok("plug HDMI-1 mode=2560x1440@75")
    assert hdmi["modes"] == [mode(2560, 1440, 75, True), mode(1920, 1200), mode(1920, 1080)] + SMALLER_THAN_1080P
    # 1280x1024: 1280x800 and smaller; 1600x900 is wider.
    assert sizes(compositor.ok("plug DP-2 mode=1280x1024")["modes"]) == [
        (1280, 1024, 60), (1280, 800, 60), (1280, 720, 60), (1024, 768, 60), (800, 600, 60), (640, 480, 60)]
    # 3840x2160: every other standard size; 640x480 and an odd small size: the preferred mode alone.
    assert len(compositor.ok("plug DP-3 mode=3840x2160")["modes"]) == 12
    assert compositor.ok("plug DP-4 mode=640x480")["modes"] == [mode(640, 480, preferred=True)]
    assert compositor.ok("plug DP-5 mode=1000x500@50")["modes"] == [mode(1000, 500, 50, True), mode(640, 480)]
    assert outputs(compositor)["DP-1"]["modes"] == dp1["modes"]


def test_modes_option_gives_the_list(compositor):
    hdmi = compositor.ok("plug HDMI-1 mode=2560x1440 modes=1920x1080@75,1280x720,1024x768@59.94")
    assert hdmi["modes"] == [mode(2560, 1440, preferred=True), mode(1920, 1080, 75), mode(1280, 720),
                             mode(1024, 768, 59.94)]
    # A mode equal to one before it (size and rate) is merged into it; the same size at another rate is not.
    merged = compositor.ok("plug DP-1 mode=1280x720 modes=1280x720,800x600,1280x720@50,800x600@60,800x600")
    assert sizes(merged["modes"]) == [(1280, 720, 60), (800, 600, 60), (1280, 720, 50)]
    assert [m["preferred"] for m in merged["modes"]] == [True, False, False]
    # One mode: modes= naming the preferred one. A list of 32 (the most) is taken.
    assert compositor.ok("plug DP-2 mode=1024x768 modes=1024x768")["modes"] == [mode(1024, 768, preferred=True)]
    many = ",".join(f"{640 + i}x480" for i in range(32))
    assert len(compositor.ok(f"plug DP-3 modes={many}")["modes"]) == 33
    # Without mode=, the preferred mode is the default 1920x1080.
    assert sizes(compositor.ok("plug DP-4 modes=800x600")["modes"]) == [(1920, 1080, 60), (800, 600, 60)]


def test_mode_takes_a_listed_rate_and_custom_modes_join_the_list_while_current(compositor):
    listed = compositor.ok("plug HDMI-1 mode=2560x1440 modes=1024x768@75,800x600")["modes"]
    # A listed size without a rate: the listed mode's rate. With one, or another size: a custom mode, last
    # in the list while it is current.
    assert compositor.ok("mode HDMI-1 mode=1024x768")["mode"] == {"width": 1024, "height": 768, "refreshRate": 75}
    assert outputs(compositor)["HDMI-1"]["modes"] == listed
    custom = compositor.ok("mode HDMI-1 mode=1024x768@60")
    assert custom["mode"]["refreshRate"] == 60 and custom["modes"] == listed + [mode(1024, 768)]
    custom = compositor.ok("mode HDMI-1 mode=1000x700")  # any size still goes, at 60 Hz
    assert custom["mode"] == {"width": 1000, "height": 700, "refreshRate": 60}
    assert custom["frame"] == {"x": 0, "y": 0, "width": 1000, "height": 700}
    assert custom["modes"] == listed + [mode(1000, 700)]
    assert compositor.ok("mode HDMI-1 mode=2560x1440")["modes"] == listed
    # A scale or position change keeps the custom mode; an unplug with one current frees it (ASan checks).
    compositor.ok("mode HDMI-1 mode=1111x555@30")
    assert compositor.ok("mode HDMI-1 scale=2 pos=10,10")["modes"] == listed + [mode(1111, 555, 30)]
    compositor.ok("unplug HDMI-1")


def test_wlr_randr_lists_and_sets_listed_modes(compositor):
    compositor.ok("plug DP-1")
    compositor.ok("plug HDMI-1 mode=1280x720 modes=1024x768@75,800x600")
    _, gtk = compositor.gtk4()
    gtk_sees(gtk, lambda m: m.get("DP-1", {}).get("geometry") == [0, 0, 1920, 1080] and "HDMI-1" in m)

    text = wlr_randr(compositor).stdout
    for line in ("1920x1080 px, 60.000000 Hz (preferred, current)", "1680x1050 px, 60.000000 Hz",
                 "1600x900 px, 60.000000 Hz", "1280x720 px, 60.000000 Hz", "640x480 px, 60.000000 Hz",
                 "1280x720 px, 60.000000 Hz (preferred, current)", "1024x768 px, 75.000000 Hz"):
        assert line in text, (line, text)
    assert text.count(" px, ") == 9 + 3

    done = wlr_randr(compositor, "--output", "DP-1", "--mode", "1280x720")
    assert done.returncode == 0, done.stderr
    dp1 = outputs(compositor)["DP-1"]
    assert dp1["mode"] == {"width": 1280, "height": 720, "refreshRate": 60}
    assert dp1["frame"] == {"x": 0, "y": 0, "width": 1280, "height": 720}
    assert len(dp1["modes"]) == 9  # a listed mode: the list is unchanged
    gtk_sees(gtk, lambda m: m.get("DP-1", {}).get("geometry") == [0, 0, 1280, 720])
    assert "1280x720 px, 60.000000 Hz (current)" in wlr_randr(compositor).stdout

    # With a rate; a mode the head does not list is wlr-randr's to refuse (--custom-mode sets one).
    done = wlr_randr(compositor, "--output", "HDMI-1", "--mode", "1024x768@75Hz")
    assert done.returncode == 0, done.stderr
    assert outputs(compositor)["HDMI-1"]["mode"] == {"width": 1024, "height": 768, "refreshRate": 75}
    gtk_sees(gtk, lambda m: m.get("HDMI-1", {}).get("geometry", [])[2:] == [1024, 768]
             and m["HDMI-1"]["refresh"] == 75000)
    refused = wlr_randr(compositor, "--output", "HDMI-1", "--mode", "1234x567")
    assert refused.returncode != 0 and "unknown mode" in refused.stderr
    # A custom mode of a listed size without a rate (refresh 0) takes the listed rate, as `mode` does.
    assert wlr_randr(compositor, "--output", "HDMI-1", "--custom-mode", "800x600").returncode == 0
    assert len(outputs(compositor)["HDMI-1"]["modes"]) == 3
    assert wlr_randr(compositor, "--output", "HDMI-1", "--custom-mode", "1000x700@50Hz").returncode == 0
    hdmi = outputs(compositor)["HDMI-1"]
    assert hdmi["mode"] == {"width": 1000, "height": 700, "refreshRate": 50} and hdmi["modes"][-1] == mode(1000, 700, 50)
    assert "1000x700 px, 50.000000 Hz (current)" in wlr_randr(compositor).stdout
    # Back to a listed mode by --mode: the custom one leaves the list.
    assert wlr_randr(compositor, "--output", "HDMI-1", "--mode", "1280x720").returncode == 0
    assert len(outputs(compositor)["HDMI-1"]["modes"]) == 3
    gtk_sees(gtk, lambda m: m.get("HDMI-1", {}).get("geometry", [])[2:] == [1280, 720])


def test_kanshi_applies_a_listed_mode(compositor, tmp_path):
    config = tmp_path / "kanshi.conf"
    config.write_text('profile docked {\n'
                      '    output "Dell Inc. DELL U2720Q ABC123" mode 1280x720 position 0,0\n}\n')
    compositor.ok(DELL)  # 2560x1440: its default list has 1280x720
    kanshi = Kanshi(compositor, str(config))
    try:
        kanshi.wait_line("configuration for profile 'docked' applied")
        hdmi = wait_outputs(compositor, lambda o: o["HDMI-1"]["mode"]["width"] == 1280)["HDMI-1"]
        assert hdmi["mode"] == {"width": 1280, "height": 720, "refreshRate": 60}
        assert hdmi["frame"] == {"x": 0, "y": 0, "width": 1280, "height": 720}
        assert hdmi["modes"][0] == mode(2560, 1440, preferred=True) and len(hdmi["modes"]) == 11
    finally:
        kanshi.stop()


def heads_client(compositor):
    return compositor.start_client(["/usr/bin/python3", os.path.join(HERE, "clients", "output_heads.py")])


def test_a_connected_client_sees_custom_modes_join_and_leave(compositor):
    compositor.ok("plug DP-1")
    _, heads = heads_client(compositor)

    def seen(current, count, last=None):
        def check(e):
            assert e["event"] != "unknown-current-mode", e
            dp1 = e["heads"].get("DP-1") if e["event"] == "done" else None
            return (dp1 is not None and dp1["current"] == current and len(dp1["modes"]) == count
                    and (last is None or dp1["modes"][-1] == last))
        return heads.wait_for(check)

    first = seen({"width": 1920, "height": 1080, "refresh": 60000}, 9)
    assert first["heads"]["DP-1"]["modes"][0] == {"width": 1920, "height": 1080, "refresh": 60000, "preferred": True}
    custom = {"width": 1000, "height": 700, "refresh": 60000}
    compositor.ok("mode DP-1 mode=1000x700")
    seen(custom, 10, dict(custom, preferred=False))
    # Another custom mode replaces it (the first one is finished), and a new client sees the same.
    compositor.ok("mode DP-1 mode=1100x700@50")
    custom = {"width": 1100, "height": 700, "refresh": 50000}
    seen(custom, 10, dict(custom, preferred=False))
    assert "1100x700 px, 50.000000 Hz (current)" in wlr_randr(compositor).stdout
    # Two changes in one write, both run before the next update: away to another custom mode and back to a
    # new custom mode of the size the client has as current. The client still gets its current_mode.
    compositor.send_raw(b"mode DP-1 mode=1000x700\nmode DP-1 mode=1100x700@50\n")
    assert [compositor.out.readline()[:3] for _ in range(2)] == ["ok "] * 2
    seen(custom, 10, dict(custom, preferred=False))
    # An output manager's custom mode, then a listed mode: the custom one leaves.
    assert wlr_randr(compositor, "--output", "DP-1", "--custom-mode", "900x600").returncode == 0
    seen({"width": 900, "height": 600, "refresh": 60000}, 10)
    compositor.ok("mode DP-1 mode=1280x720")
    seen({"width": 1280, "height": 720, "refresh": 60000}, 9)
    # Disabled with a custom mode current (still listed, its head showing no current mode), then enabled:
    # wlr-randr --on asks for the preferred mode, as on hardware, and the custom one leaves.
    compositor.ok("mode DP-1 mode=1000x700")
    assert wlr_randr(compositor, "--output", "DP-1", "--off").returncode == 0
    seen(None, 10, {"width": 1000, "height": 700, "refresh": 60000, "preferred": False})
    assert wlr_randr(compositor, "--output", "DP-1", "--on").returncode == 0
    seen({"width": 1920, "height": 1080, "refresh": 60000}, 9)
    assert outputs(compositor)["DP-1"]["mode"] == {"width": 1920, "height": 1080, "refreshRate": 60}
    compositor.ok("unplug DP-1")


def test_refusals(compositor):
    for line in ("plug DP-1 modes=abc", "plug DP-1 modes=", "plug DP-1 modes=0x720", "plug DP-1 modes=1280x0",
                 "plug DP-1 modes=0x0", "plug DP-1 mode=0x0", "plug DP-1 modes=1280x720,,800x600",
                 "plug DP-1 modes=1280x720,", "plug DP-1 modes=,1280x720", "plug DP-1 modes=1280x720@0",
                 "plug DP-1 modes=1280x720@abc", "plug DP-1 modes=9000x100", "plug DP-1 modes=7681x4320",
                 "plug DP-1 modes=1280x720@1001", "plug DP-1 modes=1280x720;800x600",
                 "plug DP-1 modes=" + ",".join(f"{640 + i}x480" for i in range(33)),
                 "plug DP-1 modes=" + ",".join(["800x600"] * 33)):
        answer = compositor.cmd(line)
        assert answer.startswith("error bad-value"), (line, answer)
    assert compositor.cmd("plug DP-1 modes=800x600 modes=640x480").startswith("error usage")
    assert compositor.ok("outputs") == []
    compositor.ok("plug DP-1")
    for value in ("0x0", "0x720", "abc"):
        assert compositor.cmd(f"mode DP-1 mode={value}").startswith("error bad-value")
    assert compositor.cmd("mode DP-1 modes=800x600").startswith("error usage")  # the list is the plug's
    assert len(outputs(compositor)["DP-1"]["modes"]) == 9
