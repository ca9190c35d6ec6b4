"""Windows: placement, read-back of what a client drew, moving off an unplugged output, Xwayland."""
import os
import struct
import subprocess
import zlib


def read_png_rgb(path):
    """Decodes the compositor's own PNGs (RGB, 8 bits, filter 0 on every row): (width, height, bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        assert zlib.crc32(kind + body) == struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    rows = [raw[y * (width * 3 + 1) + 1:(y + 1) * (width * 3 + 1)] for y in range(height)]
    return width, height, rows


def pixel(rows, x, y):
    return "#%02x%02x%02x" % tuple(rows[y][x * 3:x * 3 + 3])


def toplevel(compositor, title):
    return next((t for t in compositor.ok("toplevels") if t["title"] == title), None)


def test_a_gtk_window_is_placed_and_read_back(compositor, tmp_path):
    compositor.ok("plug DP-1 mode=1024x768")
    compositor.ok("plug HDMI-1 mode=1280x720 scale=2")  # right of DP-1: 1024,0, 640×360 logical
    compositor.ok("pointer 1100 100")  # new windows go to the output under the pointer
    gtk, lines = compositor.gtk4("--color", "336699")
    lines.wait_for(lambda s: s["event"] == "drawn" and s["connector"] == "HDMI-1" and s["scale"] == 2)
    window = toplevel(compositor, "mh-test-336699")
    assert window["output"] == "HDMI-1"
    assert (window["frame"]["x"], window["frame"]["y"]) == (1024, 0)
    assert (window["frame"]["width"], window["frame"]["height"]) == (300, 200)
    # In HDMI-1's pixels (scale 2), the window covers 600×400; beyond it the output is black.
    assert compositor.ok("pixel HDMI-1 10 10") == "#336699"
    assert compositor.ok("pixel HDMI-1 599 399") == "#336699"
    assert compositor.ok("pixel HDMI-1 601 10") == "#000000"
    assert compositor.ok("pixel layout 1100 100") == "#336699"
    assert compositor.ok("pixel layout 100 100") == "#000000"

    shot = str(tmp_path / "hdmi.png")
    assert compositor.ok(f"screenshot HDMI-1 {shot}") == {"path": shot, "width": 1280, "height": 720}
    width, height, rows = read_png_rgb(shot)
    assert (width, height) == (1280, 720)
    assert pixel(rows, 300, 200) == "#336699" and pixel(rows, 700, 200) == "#000000"

    layout = str(tmp_path / "layout.png")
    assert compositor.ok(f"screenshot layout {layout}")["width"] == 1024 + 640
    _, _, rows = read_png_rgb(layout)
    assert pixel(rows, 1024 + 150, 100) == "#336699" and pixel(rows, 500, 100) == "#000000"

    ppm = str(tmp_path / "dp.ppm")
    compositor.ok(f"screenshot DP-1 {ppm} format=ppm")
    with open(ppm, "rb") as f:
        assert f.read(15) == b"P6\n1024 768\n255"
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".part")]


def test_a_window_moves_off_an_unplugged_output_and_input_reaches_it(compositor):
    compositor.ok("plug DP-1 mode=1024x768")
    compositor.ok("plug DP-2 mode=800x600")
    compositor.ok("pointer 1500 10")
    gtk, lines = compositor.gtk4("--color", "aa2211")
    lines.wait_for(lambda s: s["event"] == "drawn" and s["connector"] == "DP-2")
    assert toplevel(compositor, "mh-test-aa2211")["output"] == "DP-2"
    assert compositor.ok("pixel DP-2 50 50") == "#aa2211"

    compositor.ok("unplug DP-2")
    moved = toplevel(compositor, "mh-test-aa2211")
    assert moved["output"] == "DP-1"
    assert (moved["frame"]["x"], moved["frame"]["y"]) == (0, 0)
    assert compositor.ok("pixel DP-1 50 50") == "#aa2211"
    # Input goes through the seat without harm to the client.
    assert compositor.ok("pointer 20 20") == "20.00,20.00"
    compositor.ok("button left")
    compositor.ok("key Escape")
    compositor.ok('type "hello World"')
    assert compositor.cmd("key NoSuchKey").startswith("error bad-value")
    assert compositor.ok("clients") == "1"
    assert gtk.poll() is None


def test_disconnect_clients_ends_every_wayland_client(compositor):
    compositor.ok("plug DP-1")
    first, lines1 = compositor.gtk4()
    second, lines2 = compositor.qt6()
    lines1.wait_for(lambda s: s["event"] == "monitors")
    lines2.wait_for(lambda s: s["event"] == "screens")
    assert compositor.ok("clients") == "2"
    assert compositor.ok("disconnect-clients") == "2"
    assert compositor.ok("clients") == "0"
    # Each toolkit ends when its connection is cut (GTK and Qt exit on a lost display).
    first.wait(20)
    second.wait(20)


def test_x11_clients_see_the_outputs_through_xwayland(start_compositor):
    compositor = start_compositor(xwayland_starts=True)
    assert compositor.display and compositor.display.startswith(":")
    compositor.ok("plug DP-1 mode=1920x1080")
    compositor.ok("plug HDMI-1 mode=1280x1024 pos=1920,0")
    env = compositor.client_env(DISPLAY=compositor.display)
    env.pop("WAYLAND_DISPLAY")
    out = subprocess.run(["xrandr", "--listmonitors"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert "Monitors: 2" in out.stdout, out.stdout
    assert "1920/" in out.stdout and "1280/" in out.stdout and "+1920+0" in out.stdout, out.stdout


def test_without_xwayland_the_ready_line_has_no_display(start_compositor):
    c = start_compositor("--xwayland=off")
    assert c.display is None
    assert c.ok("ping") == "pong"


def test_eager_xwayland_is_ready_before_the_ready_line(start_compositor):
    c = start_compositor("--xwayland=eager", xwayland_starts=True)
    number = c.display.lstrip(":")
    assert os.path.exists(f"/tmp/.X11-unix/X{number}")
    assert c.ok("ping") == "pong"


def test_an_x11_window_asking_fullscreen_the_ewmh_way_fills_its_output(start_compositor, x11_fullscreen_client):
    # wlroots 0.15 sets the surface's fullscreen state before it signals the request: a handler that
    # toggled it undid the request (the window stayed 300x200, without _NET_WM_STATE_FULLSCREEN).
    c = start_compositor(xwayland_starts=True)
    c.ok("plug DP-1 mode=1280x720")
    c.ok("plug HDMI-1 mode=800x600 pos=1280,0")
    _, lines = c.start_client([x11_fullscreen_client], DISPLAY=c.display)
    lines.wait_for(lambda s: s["event"] == "mapped")
    # The new size and the state arrive in either order.
    seen = set()

    def both(line):
        if line["event"] == "configure" and (line["width"], line["height"]) == (1280, 720):
            seen.add("size")
        if line["event"] == "state" and line["fullscreen"]:
            seen.add("state")
        return seen == {"size", "state"}
    lines.wait_for(both)
    windows = [w for w in c.ok("toplevels") if w["title"] == "fullscreen-test"]
    assert len(windows) == 1, windows
    assert windows[0]["kind"] == "x11" and windows[0]["fullscreen"] and windows[0]["output"] == "DP-1", windows
    assert windows[0]["frame"] == {"x": 0, "y": 0, "width": 1280, "height": 720}, windows
