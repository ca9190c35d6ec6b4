"""Output managers under test, as docs/output-managers.md shows: autorandr on the default kind (Xorg with
Multihead's driver: cables with EDIDs) and kanshi on the wayland kind (Multihead's compositor, through
wlr-output-management). Each test plugs a monitor as a person docking a laptop would, lets the manager react,
and waits for the manager's change (`wait_for_configuration`: the configuration serial past the plug's) and
for the layout it should apply (`wait_for_layout`), each read again on every screen event."""

import os
import shutil
import signal
import subprocess

import pytest

DELL = dict(manufacturer="DEL", model="DELL U2720Q", serial_number="ABC123")


@pytest.mark.skipif(shutil.which("autorandr") is None, reason="autorandr is not installed (apt-get install autorandr)")
@pytest.mark.multihead(monitors=["1920x1080", "1280x720"], kind="xorg")
def test_autorandr_restores_the_docked_layout(multihead_server, tmp_path):
    s = multihead_server
    # autorandr keeps its profiles under XDG_CONFIG_HOME: the test's own folder.
    env = dict(s.env, XDG_CONFIG_HOME=str(tmp_path), HOME=str(tmp_path))

    def autorandr(*args):
        done = subprocess.run(["autorandr", *args], env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout + done.stderr

    # Docked: the Dell below the laptop's panel, saved as a profile (its EDID is the fingerprint).
    s.plug("HDMI-1", "2560x1440+3200+0", **DELL)
    subprocess.run(["xrandr", "--output", "HDMI-1", "--pos", "0x1080"], env=s.env, check=True, timeout=30)
    s.wait_for_layout({"HDMI-1": "2560x1440+0+1080"})
    autorandr("--save", "docked")
    # Unplugged and plugged again: the monitor comes back where a new cable puts it; `autorandr --change`
    # (what its udev hook runs) applies the profile.
    s.unplug("HDMI-1")
    plugged = s.plug("HDMI-1", "2560x1440+3200+0", **DELL)
    assert autorandr("--detected").split() == ["docked"]
    autorandr("--change")
    s.wait_for_configuration(after=plugged)  # autorandr changed something
    s.wait_for_layout({"HDMI-1": "2560x1440+0+1080", "DP-1": "1920x1080+0+0"})
    # Another monitor of the same model (another serial number) matches no profile: left as plugged, and
    # autorandr changed nothing at all (the configuration serial is still the plug's).
    s.unplug("HDMI-1")
    plugged = s.plug("HDMI-1", "2560x1440+3200+0", **dict(DELL, serial_number="XYZ999"))
    assert autorandr("--detected").split() == []
    autorandr("--change")
    assert s.configuration_serial() == plugged
    assert s.wait_for_layout({"HDMI-1": "2560x1440+3200+0"})


@pytest.mark.skipif(shutil.which("kanshi") is None, reason="kanshi is not installed (apt-get install kanshi)")
@pytest.mark.multihead(monitors=["1920x1080"], kind="wayland")
def test_kanshi_applies_its_profile_to_the_dell(multihead_server, tmp_path):
    s = multihead_server
    config = tmp_path / "kanshi.conf"
    # The compositor names a PNP id's company as a wlroots compositor on hardware does: "Dell Inc.".
    config.write_text('profile undocked {\n    output DP-1 position 0,0\n}\n'
                      'profile docked {\n    output DP-1 position 0,0\n'
                      '    output "Dell Inc. DELL U2720Q ABC123" position 0,1080 scale 1.5\n}\n')
    kanshi = subprocess.Popen(["kanshi", "-c", str(config)], env=s.env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        docked = {"HDMI-1": {"frame": "1706x960+0+1080", "scale": 1.5}, "DP-1": "1920x1080+0+0"}
        plugged = s.plug("HDMI-1", "2560x1440+1920+0", **DELL)
        s.wait_for_configuration(after=plugged)  # kanshi has applied something
        s.wait_for_layout(docked)
        # Again after an unplug and a plug.
        s.unplug("HDMI-1")
        s.wait_for_layout({"HDMI-1": None})
        s.plug("HDMI-1", "2560x1440+1920+0", **DELL)
        s.wait_for_layout(docked)
        # Not for another serial: kanshi changes nothing, and the monitor stays where the plug put it.
        s.unplug("HDMI-1")
        plugged = s.plug("HDMI-1", "2560x1440+1920+0", **dict(DELL, serial_number="XYZ999"))
        with pytest.raises(TimeoutError):
            s.wait_for_configuration(after=plugged, timeout=2)
        assert s.wait_for_layout({"HDMI-1": {"frame": "2560x1440+1920+0", "scale": 1}})
    finally:
        kanshi.send_signal(signal.SIGTERM)
        kanshi.wait(timeout=10)
