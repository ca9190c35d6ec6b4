"""Windows as facts and commands: `toplevels` gives each window an id (unique for the compositor's life,
stable while the window lives), its client's pid and its state; `move-window` and `fullscreen-window`
put a GTK 4 (xdg-shell) or X11 (Xwayland) window on the output asked, checked by `toplevels` and by the
pixels read back (each client draws one solid colour)."""
import select
import time

from conftest import TIMEOUT


def window(compositor, title):
    (found,) = [w for w in compositor.ok("toplevels") if w["title"] == title]
    return found


def output_frame(compositor, name):
    (found,) = [o for o in compositor.ok("outputs") if o["name"] == name]
    return found["frame"]


def drawn(lines, width, height, connector=None):
    """Waits for the GTK client's frame painted at that size (on that output)."""
    return lines.wait_for(lambda s: s["event"] == "drawn" and (s["width"], s["height"]) == (width, height)
                          and connector in (None, s["connector"]))


def geometry(x, y, width, height):
    """The X11 client is given that geometry (layout coordinates: Xwayland's root)."""
    return lambda s: s["event"] == "configure" and (s["x"], s["y"], s["width"], s["height"]) == (x, y, width, height)


def configured(lines, x, y, width, height):
    return lines.wait_for(geometry(x, y, width, height))


def all_seen(lines, *facts):
    """Waits until each fact has held for one of the client's lines, in any order (an X11 window's
    geometry and its _NET_WM_STATE come in either order)."""
    left = list(facts)

    def check(line):
        left[:] = [fact for fact in left if not fact(line)]
        return not left
    lines.wait_for(check)


def x11_committed(compositor, proc, lines):
    """Every X window's drawing so far committed (Compositor/README.md, `frame`): `frame`, then an X
    round trip (the client's XSync)."""
    compositor.ok("frame")
    proc.stdin.write(b"sync\n")
    proc.stdin.flush()
    lines.wait_for(lambda s: s["event"] == "synced")


def listed(compositor, title, timeout=TIMEOUT):
    """Waits until `toplevels` lists a window of that title (an upper bound only), for a window whose
    client hears of nothing when the compositor shows it (an override-redirect one gets no focus)."""
    deadline = time.monotonic() + timeout
    while True:
        found = [w for w in compositor.ok("toplevels") if w["title"] == title]
        if found:
            return found[0]
        assert time.monotonic() < deadline, f"{title} never listed"
        select.select([], [], [], 0.02)


def corners(compositor, name, frame, scale=1):
    """The colours at a frame's four corners, in the output's pixels (frame in its logical coordinates)."""
    x0, y0 = frame["x"] * scale, frame["y"] * scale
    x1, y1 = (frame["x"] + frame["width"]) * scale - 1, (frame["y"] + frame["height"]) * scale - 1
    return {compositor.ok(f"pixel {name} {x} {y}") for x in (x0, x1) for y in (y0, y1)}


def test_ids_are_unique_stable_across_plugs_and_never_reused(compositor):
    compositor.ok("plug DP-1 mode=1024x768")
    compositor.ok("plug HDMI-1 mode=800x600")
    first, first_lines = compositor.gtk4("--color", "112233")
    drawn(first_lines, 300, 200, "DP-1")
    compositor.ok("pointer 1100 10")  # the next window goes to HDMI-1
    second, second_lines = compositor.gtk4("--color", "445566")
    drawn(second_lines, 300, 200, "HDMI-1")
    ids = {w["title"]: w["id"] for w in compositor.ok("toplevels")}
    assert sorted(ids) == ["mh-test-112233", "mh-test-445566"]
    assert all(isinstance(i, int) and i > 0 for i in ids.values()) and len(set(ids.values())) == 2, ids
    compositor.ok("plug DP-2 mode=640x480")
    compositor.ok("mode DP-1 mode=1280x720")
    assert {w["title"]: w["id"] for w in compositor.ok("toplevels")} == ids
    compositor.ok("unplug HDMI-1")  # the second window moves to DP-1, the same window
    moved = window(compositor, "mh-test-445566")
    assert (moved["id"], moved["output"]) == (ids["mh-test-445566"], "DP-1")
    assert {w["title"]: w["id"] for w in compositor.ok("toplevels")} == ids
    # A window that goes takes its id along: a new one gets another, never one given before.
    first.stdin.close()
    first.wait(20)
    assert [w["title"] for w in compositor.ok("toplevels")] == ["mh-test-445566"]
    third, third_lines = compositor.gtk4("--color", "778899")
    drawn(third_lines, 300, 200)
    new_id = window(compositor, "mh-test-778899")["id"]
    assert new_id not in ids.values() and new_id > max(ids.values())


def test_pid_is_the_clients_process(start_compositor, x11_window_client):
    c = start_compositor(xwayland_starts=True)
    c.ok("plug DP-1 mode=1024x768")
    gtk, gtk_lines = c.gtk4("--color", "123456")
    drawn(gtk_lines, 300, 200)
    x11, x11_lines = c.start_client([x11_window_client, "654321"], DISPLAY=c.display)
    x11_lines.wait_for(lambda s: s["event"] == "focused")
    # Without _NET_WM_PID (which a client may set to anything): the X connection's own, by X-Resource.
    anonymous, anonymous_lines = c.start_client([x11_window_client, "abcdef", "--no-pid"], DISPLAY=c.display)
    anonymous_lines.wait_for(lambda s: s["event"] == "focused")
    assert window(c, "mh-test-123456")["pid"] == gtk.pid
    assert window(c, "x11-654321")["pid"] == x11.pid
    assert window(c, "x11-abcdef")["pid"] == anonymous.pid


def test_a_gtk_window_asking_maximized_fullscreen_or_minimized_is_reported_so(compositor):
    compositor.ok("plug DP-1 mode=1024x768")
    compositor.ok("plug HDMI-1 mode=800x600")
    maximized, maximized_lines = compositor.gtk4("--color", "aa0000", "--maximize")
    drawn(maximized_lines, 1024, 768)
    w = window(compositor, "mh-test-aa0000")
    assert (w["state"], w["fullscreen"], w["output"]) == ("maximized", False, "DP-1")
    assert w["frame"] == output_frame(compositor, "DP-1")
    assert corners(compositor, "DP-1", w["frame"]) == {"#aa0000"}

    compositor.ok("pointer 1100 10")
    full, full_lines = compositor.gtk4("--color", "00aa00", "--fullscreen")
    drawn(full_lines, 800, 600)
    w = window(compositor, "mh-test-00aa00")
    assert (w["state"], w["fullscreen"], w["output"]) == ("fullscreen", True, "HDMI-1")
    assert w["frame"] == output_frame(compositor, "HDMI-1")

    compositor.ok("pointer 10 10")
    small, small_lines = compositor.gtk4("--color", "0000aa", "--minimize")
    small_lines.wait_for(lambda s: s["event"] == "minimize-asked")
    w = window(compositor, "mh-test-0000aa")
    assert (w["state"], w["fullscreen"]) == ("minimized", False)
    # Nothing is hidden; activating it (a click on it focuses it) ends the state.
    assert compositor.ok("pixel DP-1 10 10") == "#0000aa"
    compositor.ok("button left")
    assert window(compositor, "mh-test-0000aa")["state"] == "normal"
    assert window(compositor, "mh-test-aa0000")["state"] == "maximized"


def test_an_x11_window_asking_maximized_fullscreen_or_minimized_is_reported_so(start_compositor,
                                                                                x11_window_client):
    c = start_compositor(xwayland_starts=True)
    c.ok("plug DP-1 mode=1024x768")
    c.ok("plug HDMI-1 mode=800x600")
    maximized, maximized_lines = c.start_client([x11_window_client, "aa0000", "--maximize"], DISPLAY=c.display)
    all_seen(maximized_lines, lambda s: s["event"] == "state" and s["maximized"], geometry(0, 0, 1024, 768))
    w = window(c, "x11-aa0000")
    assert (w["state"], w["fullscreen"], w["output"]) == ("maximized", False, "DP-1")
    assert w["frame"] == output_frame(c, "DP-1")
    x11_committed(c, maximized, maximized_lines)
    assert corners(c, "DP-1", w["frame"]) == {"#aa0000"}

    c.ok("pointer 1100 10")
    full, full_lines = c.start_client([x11_window_client, "00aa00", "--fullscreen"], DISPLAY=c.display)
    all_seen(full_lines, lambda s: s["event"] == "state" and s["fullscreen"], geometry(1024, 0, 800, 600))
    w = window(c, "x11-00aa00")
    assert (w["state"], w["fullscreen"], w["output"]) == ("fullscreen", True, "HDMI-1")
    assert w["frame"] == output_frame(c, "HDMI-1")

    c.ok("pointer 10 10")
    small, small_lines = c.start_client([x11_window_client, "0000aa", "--minimize"], DISPLAY=c.display)
    small_lines.wait_for(lambda s: s["event"] == "state" and s["wmState"] == 3)  # IconicState: granted
    assert window(c, "x11-0000aa")["state"] == "minimized"
    answer = c.ok(f"move-window {window(c, 'x11-0000aa')['id']} DP-1 frame=50,60")
    assert answer["state"] == "normal"
    small_lines.wait_for(lambda s: s["event"] == "state" and s["wmState"] == 1)  # NormalState again


def test_move_window_puts_a_gtk_window_on_the_output_asked(compositor):
    compositor.ok("plug DP-1 mode=1024x768")
    compositor.ok("plug HDMI-1 mode=1600x1200 scale=2 pos=1024,100")  # 800x600 logical, at 1024,100
    compositor.ok("pointer 10 10")
    gtk, lines = compositor.gtk4("--color", "336699")
    drawn(lines, 300, 200, "DP-1")
    ident = window(compositor, "mh-test-336699")["id"]

    # Without a frame: the output's top-left corner, the same size.
    moved = compositor.ok(f"move-window {ident} HDMI-1")
    assert (moved["id"], moved["output"], moved["state"]) == (ident, "HDMI-1", "normal")
    assert moved["frame"] == {"x": 1024, "y": 100, "width": 300, "height": 200}
    assert window(compositor, "mh-test-336699") == moved
    lines.wait_for(lambda s: s["event"] == "drawn" and s["connector"] == "HDMI-1" and s["scale"] == 2)
    assert corners(compositor, "HDMI-1", {"x": 0, "y": 0, "width": 300, "height": 200}, 2) == {"#336699"}
    assert compositor.ok("pixel HDMI-1 601 10") == "#000000"
    assert compositor.ok("pixel DP-1 10 10") == "#000000"

    # With a frame: its place within the output and a new size (shown once the client commits it).
    moved = compositor.ok(f"move-window {ident} HDMI-1 frame=100,50,400,250")
    assert (moved["frame"]["x"], moved["frame"]["y"]) == (1124, 150)
    drawn(lines, 400, 250)
    assert window(compositor, "mh-test-336699")["frame"] == {"x": 1124, "y": 150, "width": 400, "height": 250}
    assert corners(compositor, "HDMI-1", {"x": 100, "y": 50, "width": 400, "height": 250}, 2) == {"#336699"}
    assert compositor.ok("pixel HDMI-1 199 99") == "#000000"
    assert compositor.ok("pixel HDMI-1 1001 599") == "#000000"

    # Back to the first output, a place within it, keeping the size.
    moved = compositor.ok(f"move-window {ident} DP-1 frame=600,500")
    assert moved["frame"] == {"x": 600, "y": 500, "width": 400, "height": 250}
    assert corners(compositor, "DP-1", moved["frame"]) == {"#336699"}
    assert compositor.ok("pixel HDMI-1 300 200") == "#000000"
    # A changed output keeps its windows where they were within it.
    compositor.ok("mode DP-1 pos=0,900")
    assert window(compositor, "mh-test-336699")["frame"] == {"x": 600, "y": 1400, "width": 400, "height": 250}


def test_move_window_puts_an_x11_window_on_the_output_asked(start_compositor, x11_window_client):
    c = start_compositor(xwayland_starts=True)
    c.ok("plug DP-1 mode=1024x768")
    c.ok("plug HDMI-1 mode=800x600 pos=1024,100")
    proc, lines = c.start_client([x11_window_client, "cc8844"], DISPLAY=c.display)
    lines.wait_for(lambda s: s["event"] == "focused")
    ident = window(c, "x11-cc8844")["id"]
    assert window(c, "x11-cc8844")["kind"] == "x11"

    moved = c.ok(f"move-window {ident} HDMI-1")
    assert (moved["output"], moved["state"]) == ("HDMI-1", "normal")
    assert moved["frame"] == {"x": 1024, "y": 100, "width": 300, "height": 200}
    configured(lines, 1024, 100, 300, 200)
    x11_committed(c, proc, lines)
    assert corners(c, "HDMI-1", {"x": 0, "y": 0, "width": 300, "height": 200}) == {"#cc8844"}
    assert c.ok("pixel HDMI-1 301 10") == "#000000"
    assert c.ok("pixel DP-1 10 10") == "#000000"

    # X11 windows take the new size at once (the answer has it).
    moved = c.ok(f"move-window {ident} HDMI-1 frame=30,40,200,100")
    assert moved["frame"] == {"x": 1054, "y": 140, "width": 200, "height": 100}
    configured(lines, 1054, 140, 200, 100)
    x11_committed(c, proc, lines)
    assert window(c, "x11-cc8844")["frame"] == moved["frame"]
    assert corners(c, "HDMI-1", {"x": 30, "y": 40, "width": 200, "height": 100}) == {"#cc8844"}
    assert c.ok("pixel HDMI-1 29 39") == "#000000"
    assert c.ok("pixel HDMI-1 230 140") == "#000000"


def test_fullscreen_window_fills_the_output_asked_and_off_restores_a_gtk_window(compositor):
    compositor.ok("plug DP-1 mode=1024x768")
    compositor.ok("plug HDMI-1 mode=1600x1200 scale=2")  # 800x600 logical, at 1024,0
    compositor.ok("pointer 10 10")
    gtk, lines = compositor.gtk4("--color", "2288cc")
    drawn(lines, 300, 200)
    ident = window(compositor, "mh-test-2288cc")["id"]
    compositor.ok(f"move-window {ident} DP-1 frame=20,30")

    answer = compositor.ok(f"fullscreen-window {ident} HDMI-1")
    assert (answer["state"], answer["fullscreen"], answer["output"]) == ("fullscreen", True, "HDMI-1")
    drawn(lines, 800, 600, "HDMI-1")
    frame = output_frame(compositor, "HDMI-1")
    assert window(compositor, "mh-test-2288cc")["frame"] == frame
    assert corners(compositor, "HDMI-1", {"x": 0, "y": 0, "width": 800, "height": 600}, 2) == {"#2288cc"}
    assert compositor.ok("pixel DP-1 25 35") == "#000000"

    answer = compositor.ok(f"fullscreen-window {ident} off")
    assert (answer["state"], answer["fullscreen"], answer["output"]) == ("normal", False, "DP-1")
    drawn(lines, 300, 200, "DP-1")
    w = window(compositor, "mh-test-2288cc")
    assert w["frame"] == {"x": 20, "y": 30, "width": 300, "height": 200}
    assert corners(compositor, "DP-1", w["frame"]) == {"#2288cc"}
    assert corners(compositor, "HDMI-1", {"x": 0, "y": 0, "width": 800, "height": 600}, 2) == {"#000000"}

    # move-window ends fullscreen first, back to the normal size.
    compositor.ok(f"fullscreen-window {ident} DP-1")
    drawn(lines, 1024, 768, "DP-1")
    moved = compositor.ok(f"move-window {ident} HDMI-1 frame=10,10")
    assert (moved["state"], moved["fullscreen"], moved["output"]) == ("normal", False, "HDMI-1")
    drawn(lines, 300, 200, "HDMI-1")
    assert window(compositor, "mh-test-2288cc")["frame"] == {"x": 1034, "y": 10, "width": 300, "height": 200}


def test_fullscreen_window_fills_the_output_asked_and_off_restores_an_x11_window(start_compositor,
                                                                                  x11_window_client):
    c = start_compositor(xwayland_starts=True)
    c.ok("plug DP-1 mode=1024x768")
    c.ok("plug HDMI-1 mode=800x600 pos=1024,100")
    proc, lines = c.start_client([x11_window_client, "66aa22"], DISPLAY=c.display)
    lines.wait_for(lambda s: s["event"] == "focused")
    ident = window(c, "x11-66aa22")["id"]
    c.ok(f"move-window {ident} DP-1 frame=40,50")

    answer = c.ok(f"fullscreen-window {ident} HDMI-1")
    assert (answer["state"], answer["fullscreen"], answer["output"]) == ("fullscreen", True, "HDMI-1")
    frame = output_frame(c, "HDMI-1")
    assert answer["frame"] == frame
    all_seen(lines, geometry(1024, 100, 800, 600), lambda s: s["event"] == "state" and s["fullscreen"])
    x11_committed(c, proc, lines)
    assert corners(c, "HDMI-1", {"x": 0, "y": 0, "width": 800, "height": 600}) == {"#66aa22"}

    answer = c.ok(f"fullscreen-window {ident} off")
    assert (answer["state"], answer["output"]) == ("normal", "DP-1")
    assert answer["frame"] == {"x": 40, "y": 50, "width": 300, "height": 200}
    all_seen(lines, geometry(40, 50, 300, 200), lambda s: s["event"] == "state" and not s["fullscreen"])
    x11_committed(c, proc, lines)
    assert corners(c, "DP-1", answer["frame"]) == {"#66aa22"}
    assert corners(c, "HDMI-1", {"x": 0, "y": 0, "width": 800, "height": 600}) == {"#000000"}


def test_window_commands_refuse_an_override_redirect_x11_window(start_compositor, x11_window_client):
    """A menu or tooltip: listed, but its client places it (an X11 client may not be moved under it)."""
    c = start_compositor(xwayland_starts=True)
    c.ok("plug DP-1 mode=1024x768")
    c.ok("plug HDMI-1 mode=800x600")
    proc, lines = c.start_client([x11_window_client, "884422", "--override-redirect"], DISPLAY=c.display)
    lines.wait_for(lambda s: s["event"] == "mapped")
    menu = listed(c, "x11-884422")
    assert (menu["kind"], menu["state"], menu["pid"]) == ("x11", "normal", proc.pid)
    for line in (f"move-window {menu['id']} HDMI-1", f"fullscreen-window {menu['id']} HDMI-1"):
        answer = c.cmd(line)
        assert answer.startswith("error unsupported "), (line, answer)
    assert window(c, "x11-884422") == menu


BAD_WORDS = [
    ("move-window", "usage"),
    ("move-window {id}", "usage"),
    ("move-window {id} DP-1 size=10,10", "usage"),
    ("move-window {id} DP-1 frame=1,1 frame=2,2", "usage"),
    ("move-window {id} DP-1 extra", "usage"),
    ("fullscreen-window {id}", "usage"),
    ("fullscreen-window {id} DP-1 extra", "usage"),
    ("move-window abc DP-1", "bad-value"),
    ("move-window 0 DP-1", "bad-value"),
    ("move-window -1 DP-1", "bad-value"),
    ("move-window +1 DP-1", "bad-value"),
    ("move-window 1.0 DP-1", "bad-value"),
    ("fullscreen-window x off", "bad-value"),
    ("move-window {id} DP-1 frame=", "bad-value"),
    ("move-window {id} DP-1 frame=1", "bad-value"),
    ("move-window {id} DP-1 frame=1,2,3", "bad-value"),
    ("move-window {id} DP-1 frame=1,2,3,4,5", "bad-value"),
    ("move-window {id} DP-1 frame=a,b", "bad-value"),
    ("move-window {id} DP-1 frame=1,2,", "bad-value"),
    ("move-window {id} DP-1 frame=1,2,0,10", "bad-value"),
    ("move-window {id} DP-1 frame=1,2,10,0", "bad-value"),
    ("move-window {id} DP-1 frame=1,2,-10,10", "bad-value"),
    ("move-window {id} DP-1 frame=1,2,32768,10", "bad-value"),
    ("move-window {id} DP-1 frame=1,2,10,32768", "bad-value"),
    ("move-window {id} DP-1 frame=32768,0", "bad-value"),
    ("move-window {id} DP-1 frame=0,-32768", "bad-value"),
    ("move-window {id} HDMI-1 frame=768,0", "bad-value"),  # HDMI-1 is at 32000,0: 32768 in the layout
    ("move-window 999 DP-1", "no-such-window"),
    ("fullscreen-window 999 DP-1", "no-such-window"),
    ("fullscreen-window 999 off", "no-such-window"),
    ("move-window {id} DP-7", "no-such-output"),
    ("move-window {id} layout", "no-such-output"),
    ("fullscreen-window {id} HDMI-8", "no-such-output"),
]


def test_window_commands_refuse_bad_words(compositor):
    """Checked in this order: the words (usage), the values (bad-value), the window, the output."""
    compositor.ok("plug DP-1 mode=1024x768")
    compositor.ok("plug HDMI-1 mode=800x600 pos=32000,0")
    gtk, lines = compositor.gtk4("--color", "445500")
    drawn(lines, 300, 200)
    before = window(compositor, "mh-test-445500")
    for line, code in BAD_WORDS:
        answer = compositor.cmd(line.format(id=before["id"]))
        assert answer.startswith(f"error {code} "), (line, answer)
    assert window(compositor, "mh-test-445500") == before
    # The limits themselves are taken.
    assert compositor.ok(f"move-window {before['id']} HDMI-1 frame=767,0")["frame"]["x"] == 32767
    assert compositor.ok(f"move-window {before['id']} DP-1 frame=-32767,0,32767,1")["frame"]["x"] == -32767
