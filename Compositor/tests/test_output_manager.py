"""zwlr_output_manager_v1: wlr-randr and kanshi 1.3.1 (Debian's packages) configure the compositor's outputs
as they do a wlroots compositor's on hardware; each change shows in the `outputs` answer and to a GTK 4
client. Clients run in the compositor's private XDG_RUNTIME_DIR; waits are on facts with deadlines."""
import os
import select
import signal
import subprocess
import time

import pytest

from conftest import TIMEOUT, Lines, stop_process

DELL = 'plug HDMI-1 make=DEL model="DELL U2720Q" serial=ABC123 mode=2560x1440 size-mm=597x336'


def wlr_randr(compositor, *args):
    return subprocess.run(["wlr-randr", *args], env=compositor.client_env(), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)


def outputs(compositor):
    return {o["name"]: o for o in compositor.ok("outputs")}


def wait_outputs(compositor, predicate, timeout=TIMEOUT):
    """The `outputs` answer once predicate holds of it (polled until a deadline)."""
    deadline = time.monotonic() + timeout
    while True:
        current = outputs(compositor)
        if predicate(current):
            return current
        assert time.monotonic() < deadline, f"outputs never matched: {current}"
        select.select([], [], [], 0.05)


def gtk_sees(lines, predicate):
    return lines.wait_for(lambda o: o.get("event") == "monitors"
                          and predicate({m["connector"]: m for m in o["monitors"]}))


def qt_sees(lines, predicate):
    return lines.wait_for(lambda o: o.get("event") == "screens" and predicate({s["name"]: s for s in o["screens"]}))


def test_wlr_randr_lists_and_configures(compositor):
    compositor.ok(DELL)
    compositor.ok("plug DP-1")
    _, gtk = compositor.gtk4()
    _, qt = compositor.qt6()
    gtk_sees(gtk, lambda m: set(m) == {"HDMI-1", "DP-1"})
    qt_sees(qt, lambda s: set(s) == {"HDMI-1", "DP-1"})

    listed = wlr_randr(compositor)
    assert listed.returncode == 0, listed.stderr
    text = listed.stdout
    # wlr-randr 0.2.0 prints the head's description: make (the PNP id's company), model and serial.
    assert 'HDMI-1 "Dell Inc. DELL U2720Q ABC123 (HDMI-1)"' in text, text
    assert 'DP-1 "Multihead Virtual Monitor (DP-1)"' in text, text
    assert "Physical size: 597x336 mm" in text
    # Each head lists its modes (test_mode_lists.py), the plug's mode preferred and current.
    assert "2560x1440 px, 60.000000 Hz (preferred, current)" in text
    assert "1920x1080 px, 60.000000 Hz (preferred, current)" in text
    assert text.count("Enabled: yes") == 2

    # A mode, a position and a scale at once, as one configuration.
    done = wlr_randr(compositor, "--output", "DP-1", "--custom-mode", "1280x720@60Hz", "--pos", "2560,100",
                     "--scale", "2")
    assert done.returncode == 0, done.stderr
    now = outputs(compositor)["DP-1"]
    assert now["mode"]["width"] == 1280 and now["mode"]["height"] == 720 and now["scale"] == 2
    assert now["frame"] == {"x": 2560, "y": 100, "width": 640, "height": 360}
    gtk_sees(gtk, lambda m: m.get("DP-1", {}).get("geometry") == [2560, 100, 640, 360]
             and m["DP-1"]["scale"] == 2)
    qt_sees(qt, lambda s: s.get("DP-1", {}).get("geometry") == [2560, 100, 640, 360])
    assert "1280x720 px, 60.000000 Hz (current)" in wlr_randr(compositor).stdout

    # The listed mode, by --mode.
    assert wlr_randr(compositor, "--output", "HDMI-1", "--mode", "2560x1440", "--pos", "0,0").returncode == 0

    # A scale out of 1…4 is refused (as `mode` refuses it): `failed`, nothing changes. (Fractional scales
    # within it are test_fractional_scale.py's.)
    refused = wlr_randr(compositor, "--output", "DP-1", "--scale", "4.5")
    assert refused.returncode != 0 and "failed" in refused.stderr
    assert outputs(compositor)["DP-1"]["scale"] == 2

    # Disabled: gone from `outputs` and from GTK's monitors, listed by wlr-randr as disabled.
    assert wlr_randr(compositor, "--output", "HDMI-1", "--off").returncode == 0
    assert list(outputs(compositor)) == ["DP-1"]
    gtk_sees(gtk, lambda m: set(m) == {"DP-1"})
    qt_sees(qt, lambda s: set(s) == {"DP-1"})
    text = wlr_randr(compositor).stdout
    assert "Enabled: no" in text and "Enabled: yes" in text
    assert compositor.cmd("mode HDMI-1 scale=2").startswith("error no-such-output")
    assert compositor.cmd("plug HDMI-1").startswith("error output-exists")

    # Enabled again, where it was and first in plug order.
    assert wlr_randr(compositor, "--output", "HDMI-1", "--on").returncode == 0
    assert list(outputs(compositor)) == ["HDMI-1", "DP-1"]
    assert outputs(compositor)["HDMI-1"]["frame"] == {"x": 0, "y": 0, "width": 2560, "height": 1440}
    gtk_sees(gtk, lambda m: m.get("HDMI-1", {}).get("geometry") == [0, 0, 2560, 1440])
    qt_sees(qt, lambda s: s.get("HDMI-1", {}).get("geometry") == [0, 0, 2560, 1440])

    # A fractional scale: 2560x1440 at 1.5 is 1706x960 in the layout, for GTK 4 (scale 2) and Qt 6 alike.
    assert wlr_randr(compositor, "--output", "HDMI-1", "--scale", "1.5").returncode == 0
    assert outputs(compositor)["HDMI-1"]["scale"] == 1.5
    gtk_sees(gtk, lambda m: m.get("HDMI-1", {}).get("geometry") == [0, 0, 1706, 960] and m["HDMI-1"]["scale"] == 2)
    qt_sees(qt, lambda s: s.get("HDMI-1", {}).get("geometry") == [0, 0, 1706, 960])

    # A disabled output is unplugged as any other.
    assert wlr_randr(compositor, "--output", "HDMI-1", "--off").returncode == 0
    compositor.ok("unplug HDMI-1")
    assert "HDMI-1" not in wlr_randr(compositor).stdout


def test_control_changes_reach_wlr_randr(compositor):
    compositor.ok("plug DP-2")
    compositor.ok("mode DP-2 mode=1024x768@75 pos=10,20 scale=2")
    text = wlr_randr(compositor).stdout
    assert "1024x768 px, 75.000000 Hz (current)" in text and "Position: 10,20" in text and "Scale: 2.0" in text
    compositor.ok("unplug DP-2")
    assert wlr_randr(compositor).stdout.strip() == ""


def test_pnp_make(compositor):
    if not os.path.exists("/usr/share/hwdata/pnp.ids"):
        pytest.fail("hwdata's pnp.ids is missing (Scripts/setup installs hwdata)")
    assert compositor.ok("plug HDMI-1 make=DEL")["make"] == "Dell Inc."
    # Not a known PNP id, not three capitals: as given.
    assert compositor.ok("plug DP-1 make=QQX")["make"] == "QQX"
    assert compositor.ok("plug DP-2 make=del")["make"] == "del"
    assert compositor.ok("plug DP-3 make=Dell")["make"] == "Dell"


class Kanshi:
    def __init__(self, compositor, config):
        self.proc = subprocess.Popen(["kanshi", "-c", config], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     env=compositor.client_env())
        self.log = Lines(self.proc.stderr.fileno(), "kanshi")

    def wait_line(self, text):
        while text not in self.log.readline():
            pass

    def stop(self):
        # kanshi reads no stdin: SIGTERM by PID ends it (stop_process's fallbacks if it does not).
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        stop_process(self.proc)
        self.proc.stderr.close()


def test_kanshi_profile(compositor, tmp_path):
    # A laptop's panel (DP-1) and a Dell monitor docked beside it. kanshi 1.3.1 skips a profile that is its
    # current one, so re-plugging the monitor re-applies "docked" once "undocked" has been applied between.
    config = tmp_path / "kanshi.conf"
    config.write_text('profile undocked {\n    output DP-1 position 0,0\n}\n'
                      'profile docked {\n    output DP-1 position 0,0\n'
                      '    output "Dell Inc. DELL U2720Q ABC123" position 1920,200 scale 2\n}\n')
    compositor.ok("plug DP-1")
    kanshi = Kanshi(compositor, str(config))
    try:
        kanshi.wait_line("configuration for profile 'undocked' applied")
        docked = lambda o: ("HDMI-1" in o and o["HDMI-1"]["scale"] == 2
                            and o["HDMI-1"]["frame"] == {"x": 1920, "y": 200, "width": 1280, "height": 720})
        compositor.ok(DELL)
        kanshi.wait_line("configuration for profile 'docked' applied")
        wait_outputs(compositor, docked)
        compositor.ok("unplug HDMI-1")
        kanshi.wait_line("configuration for profile 'undocked' applied")
        compositor.ok(DELL)
        kanshi.wait_line("configuration for profile 'docked' applied")
        wait_outputs(compositor, docked)
        compositor.ok("unplug HDMI-1")
        kanshi.wait_line("configuration for profile 'undocked' applied")
        # Another serial: no profile matches, and the monitor stays as plugged.
        answer = compositor.ok(DELL.replace("ABC123", "XYZ999"))
        kanshi.wait_line("no profile matched")
        serial = answer.pop("configurationSerial")
        assert outputs(compositor)["HDMI-1"] == answer
        # Nothing changed after the plug: the configuration serial is still the one the plug made.
        assert compositor.ok("configuration")["configurationSerial"] == serial
        assert answer["scale"] == 1 and answer["frame"]["x"] == 1920 and answer["frame"]["y"] == 0
    finally:
        kanshi.stop()
