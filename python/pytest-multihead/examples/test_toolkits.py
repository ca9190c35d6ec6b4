"""The toolkit matrix of docs/other-toolkits.md as plugin tests: what GTK 3, Qt 5, SDL 2 and GLFW 3 see
when a monitor is plugged and unplugged on a private Xorg with the dummy driver (real outputs), and what
they, GTK 4, Qt 6 and Chromium see on Multihead's own driver (cables and EDIDs). Each client is a small
program in Tests/ToolkitClients that prints what its toolkit reports, one line at a time."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from pytest_multihead import LineReader

CLIENTS = Path(__file__).resolve().parents[3] / "Tests" / "ToolkitClients"


class Client:
    """A toolkit client on the test's server: its lines, each waited for (no sleeps)."""

    def __init__(self, command, env, stderr=subprocess.STDOUT):
        self.proc = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr, bufsize=0)
        self.lines = []
        self._reader = LineReader(self.proc.stdout)

    def expect(self, wanted, timeout=20):
        """Reads lines until one equals `wanted`; fails with every line read when none does in time."""
        while wanted not in self.lines:
            try:
                line = self._reader.readline(timeout)
            except TimeoutError:
                pytest.fail(f"no {wanted!r} within {timeout} s; the client said {self.lines}")
            if line is None:
                pytest.fail(f"the client ended ({self.proc.wait()}) before {wanted!r}; it said {self.lines}")
            self.lines.append(line)

    def expect_prefix(self, prefix, timeout=20):
        """Reads lines until one starts with `prefix`, and returns it."""
        while True:
            found = [line for line in self.lines if line.startswith(prefix)]
            if found:
                return found[0]
            try:
                line = self._reader.readline(timeout)
            except TimeoutError:
                pytest.fail(f"no line starting {prefix!r} within {timeout} s; the client said {self.lines}")
            if line is None:
                pytest.fail(f"the client ended ({self.proc.wait()}) before {prefix!r}; it said {self.lines}")
            self.lines.append(line)

    def close(self):
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        self._reader.close()


def c_client(name, package, tmp_path_factory):
    """A C client compiled against Debian's -dev package."""
    if shutil.which("pkg-config") is None:
        pytest.fail("pkg-config is needed to build the C clients (Scripts/setup installs it)")
    out = tmp_path_factory.mktemp("clients") / name
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", package], capture_output=True, text=True, check=True).stdout.split()
    subprocess.run(["cc", "-o", str(out), str(CLIENTS / f"{name}.c"), *flags], check=True)
    return [str(out)]


# The clients run by Debian's python3 (its python3-gi, PyQt5 and PyQt6), each as a process of its own.
PYTHON_CLIENTS = {
    "gtk": "gtk-monitors.py",
    "qt": "qt-monitors.py",
    "gtk4": "gtk4-monitors.py",
    "qt6": "qt6-monitors.py",
    "chromium": "chromium-screens.py",
}


@pytest.fixture
def client(request, multihead_server, tmp_path_factory):
    """Starts the client the test is parametrized with, on the test's server; ends it afterwards."""
    kind = request.param
    if kind in PYTHON_CLIENTS:
        command = ["/usr/bin/python3", str(CLIENTS / PYTHON_CLIENTS[kind])]
    elif kind == "sdl":
        command = c_client("sdl-monitors", "sdl2", tmp_path_factory)
    else:
        command = c_client("glfw-monitors", "glfw3", tmp_path_factory)
    started = Client(command, dict(multihead_server.env, SDL_VIDEODRIVER="x11", QT_QPA_PLATFORM="xcb"))
    yield kind, started
    started.close()


# What each toolkit reports for a plug and an unplug of DUMMY1 (None: it reports nothing, see the docs).
SEEN = {
    "gtk": ("added DUMMY1", "removed DUMMY1"),
    "qt": ("added DUMMY1", "removed DUMMY1"),
    "sdl": ("connected DUMMY1", None),
    "glfw": ("connected DUMMY1", "disconnected DUMMY1"),
}


@pytest.mark.multihead(monitors=["1920x1080"], kind="xorg-dummy")
@pytest.mark.parametrize("client", sorted(SEEN), indirect=True)
def test_toolkit_sees_hotplug(multihead_server, client):
    kind, app = client
    app.expect("end")
    added, removed = SEEN[kind]
    multihead_server.plug("DUMMY1", "1280x720+1920+0")
    app.expect(added)
    multihead_server.unplug("DUMMY1")
    if removed:
        app.expect(removed)
    # The server agrees with the toolkit: DUMMY1 is gone from RandR's monitors.
    assert [s["name"] for s in multihead_server.screens()] == ["DUMMY0"]


@pytest.mark.multihead(monitors=["1920x1080"], kind="xorg-dummy")
@pytest.mark.parametrize("client", ["qt"], indirect=True)
def test_qt_reads_the_plugged_monitors_edid(multihead_server, client):
    """A monitor plugged with an EDID (--manufacturer, --model, --serial-number) is named by Qt 5 from it.
    Qt 5.15 shows the line feed that ends an EDID text shorter than 13 characters as a dash, as it does for
    a real monitor's ("DELL U2720Q-"), and the PNP id as the vendor's name ("Dell Inc.")."""
    _, app = client
    app.expect("end")
    multihead_server.plug("DUMMY1", "1280x720+1920+0", manufacturer="DEL", model="DELL U2720Q", serial_number="ABC123")
    app.expect("added DUMMY1")
    line = app.expect_prefix("identity DUMMY1 ")
    _, _, fields = line.partition("identity DUMMY1 ")
    manufacturer, model, serial = fields.split("|")
    assert model.rstrip("-") == "DELL U2720Q" and serial.rstrip("-") == "ABC123" and manufacturer == "Dell Inc.", line



# On Multihead's own Xorg driver (kind="xorg") a plug is a cable: the output is connected with the
# monitor's EDID, then lit; an unplug turns it off and disconnects it. SDL names the display from the EDID
# (its model and diagonal: the kit's own EDID is named after the connector) and reports the unplug too;
# the others as on the dummy driver.
# (the plug, the unplug, the start of the line for a second plug, of HDMI-2 with the kit's own EDID)
CABLE = {
    "gtk": ("added HDMI-1", "removed HDMI-1", "added HDMI-2"),
    "qt": ("added HDMI-1", "removed HDMI-1", "added HDMI-2"),
    "sdl": ('connected DELL U2720Q 27"', "disconnected 1", "connected HDMI-2"),
    "glfw": ("connected HDMI-1", "disconnected HDMI-1", "connected HDMI-2"),
}


@pytest.mark.multihead(monitors=["1920x1080"], kind="xorg")
@pytest.mark.parametrize("client", sorted(CABLE), indirect=True)
def test_toolkit_sees_a_cable(multihead_server, client):
    kind, app = client
    app.expect("end")
    added, removed, next_plug = CABLE[kind]
    with multihead_server.watch() as events:
        multihead_server.plug("HDMI-1", "2560x1440+1920+0", manufacturer="DEL", model="DELL U2720Q",
                              serial_number="ABC123", physical_size="597x336")
        app.expect(added)
        connect = next(events)
        multihead_server.unplug("HDMI-1")
        app.expect(removed)
        disconnect = next(events)
        # Each once: the next plug is the next thing either side reports, so every line before it is read.
        multihead_server.plug("HDMI-2", "1280x720+1920+0")
        assert (lambda e: (e["event"], e["screen"]["name"]))(next(events)) == ("connect", "HDMI-2")
        app.expect_prefix(next_plug)
    assert app.lines.count(added) == 1 and app.lines.count(removed) == 1, app.lines
    assert (connect["event"], connect["screen"]["name"], connect["screen"]["manufacturer"]) == ("connect", "HDMI-1", "DEL")
    assert connect["screen"]["model"] == "DELL U2720Q" and connect["screen"]["physicalSize"] == {"width": 597, "height": 336}
    assert (disconnect["event"], disconnect["screen"]["name"]) == ("disconnect", "HDMI-1")
    if kind == "qt":
        line = app.expect_prefix("identity HDMI-1 ")
        manufacturer, model, serial = line.partition("identity HDMI-1 ")[2].split("|")
        assert manufacturer == "Dell Inc." and model.rstrip("-") == "DELL U2720Q" and serial.rstrip("-") == "ABC123", line


# Today's toolkits on Multihead's own driver: GTK 4 (a Gio.ListModel of monitors), Qt 6 and Chromium
# (the Window Management API, window.getScreenDetails()). Each client lists DP-1, then sees HDMI-1 plugged
# with a Dell's EDID, set to 1920x1080 and unplugged; each as its toolkit names things:
# (listed, plugged, the mode change, unplugged, the start of the line for a second plug, of HDMI-2).
# GTK 4.8 names a monitor by its connector, takes the manufacturer's PNP id from the EDID as is and
# gives the connector as the model; Qt 6.4 maps the PNP id to the vendor and shows the EDID's texts with
# their line feed as a "-" (as Qt 5); Chromium labels a screen with the EDID's monitor name (the
# connector's name when the plug gave no model: a page tells DP-1 from DP-2 by label).
TODAY = {
    "gtk4": ("monitor DP-1 1920x1080+0+0 scale 1|MHD|DP-1", "added HDMI-1 2560x1440+1920+0 scale 1|DEL|HDMI-1",
             "geometry HDMI-1 1920x1080+1920+0", "removed HDMI-1", "added HDMI-2 "),
    "qt6": ("monitor DP-1 1920x1080+0+0 dpr 1", "added HDMI-1 2560x1440+1920+0 dpr 1",
            "geometry HDMI-1 1920x1080+1920+0", "removed HDMI-1", "added HDMI-2 "),
    "chromium": ('screen "DP-1" 1920x1080+0+0 dpr 1', 'added "DELL U2720Q" 2560x1440+1920+0 dpr 1',
                 'changed "DELL U2720Q" 1920x1080+1920+0 dpr 1', 'removed "DELL U2720Q"', 'added "HDMI-2" 1280x720+1920+0'),
}


@pytest.mark.multihead(monitors=["1920x1080"], kind="xorg")
@pytest.mark.parametrize("client", sorted(TODAY), indirect=True)
def test_todays_toolkit_sees_a_cable_and_a_mode(multihead_server, client):
    kind, app = client
    listed, added, mode, removed, next_plug = TODAY[kind]
    # Chromium takes seconds to start on a busy machine: its list is waited for longer.
    app.expect("end", timeout=120 if kind == "chromium" else 20)
    assert listed in app.lines, app.lines
    multihead_server.plug("HDMI-1", "2560x1440+1920+0", manufacturer="DEL", model="DELL U2720Q",
                          serial_number="ABC123")
    app.expect(added)
    if kind == "qt6":
        line = app.expect_prefix("identity HDMI-1 ")
        manufacturer, model, serial = line.partition("identity HDMI-1 ")[2].split("|")
        assert manufacturer == "Dell Inc." and model.rstrip("-") == "DELL U2720Q" and serial.rstrip("-") == "ABC123", line
    multihead_server.mode("HDMI-1", "1920x1080")
    app.expect(mode)
    multihead_server.unplug("HDMI-1")
    app.expect(removed)
    # Each once: the next plug is the next thing the toolkit reports, so every line before it is read.
    multihead_server.plug("HDMI-2", "1280x720+1920+0")
    app.expect_prefix(next_plug)
    assert [app.lines.count(line) for line in (added, mode, removed)] == [1, 1, 1], app.lines


def test_qt6_takes_each_screens_scale_from_run(request):
    """`multihead run --scale "HDMI-1=2"` sets QT_SCREEN_SCALE_FACTORS: Qt 6 gives HDMI-1, plugged while it
    runs, a devicePixelRatio of 2 (its geometry in device-independent pixels) and DP-1 its own 1."""
    binary = request.config.getoption("--multihead-bin") or "multihead"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "XAUTHORITY", "MULTIHEAD_CONTROL")}
    app = Client([binary, "run", "--xorg", "--monitors", "1920x1080", "--scale", "HDMI-1=2", "--print-env",
                  "--", "/usr/bin/python3", str(CLIENTS / "qt6-monitors.py")], env, stderr=subprocess.PIPE)
    run = app.proc
    said = LineReader(run.stderr)
    try:
        # --print-env's lines come first on stderr; the control socket's is the last of them.
        while "MULTIHEAD_CONTROL" not in env:
            line = said.readline(60)
            assert line is not None, f"multihead run ended ({run.wait()}) before its environment"
            name, _, value = line.partition("=")
            env[name] = value
        app.expect("end")
        assert "monitor DP-1 1920x1080+0+0 dpr 1" in app.lines, app.lines
        subprocess.run([binary, "plug", "HDMI-1", "2560x1440+1920+0"], env=env, check=True, timeout=60)
        app.expect("added HDMI-1 1280x720+1920+0 dpr 2")
        subprocess.run([binary, "mode", "HDMI-1", "1920x1080"], env=env, check=True, capture_output=True, timeout=60)
        app.expect("geometry HDMI-1 960x540+1920+0")
    finally:
        app.close()
        said.close()
        run.stderr.close()
    assert run.returncode == 0
