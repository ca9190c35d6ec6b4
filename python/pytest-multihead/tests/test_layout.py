"""wait_for_layout's comparison (pure) and its TimeoutError on a real server."""

import pytest

from pytest_multihead._layout import describe_layout, frame_of, layout_matches
from test_plugin import run

SCREENS = [{"name": "DP-1", "frame": {"x": 0, "y": 0, "width": 1920, "height": 1080}, "scale": 1, "primary": True},
           {"name": "HDMI-1", "frame": {"x": 1920, "y": 0, "width": 1280, "height": 720}, "scale": 1.5, "primary": False}]


def test_layouts_as_a_test_writes_them():
    assert frame_of("1280x720+1920+0") == {"x": 1920, "y": 0, "width": 1280, "height": 720}
    assert frame_of("10x20-5-6") == {"x": -5, "y": -6, "width": 10, "height": 20}
    with pytest.raises(ValueError):
        frame_of("1280x720")
    assert layout_matches(SCREENS, {"HDMI-1": "1280x720+1920+0"})
    assert layout_matches(SCREENS, {"HDMI-1": {"x": 1920, "y": 0, "width": 1280, "height": 720}})
    assert layout_matches(SCREENS, {"HDMI-1": {"scale": 1.5, "primary": False}, "DP-2": None})
    assert not layout_matches(SCREENS, {"HDMI-1": {"scale": 1}})
    assert not layout_matches(SCREENS, {"DP-2": "1x1+0+0"})
    assert not layout_matches(SCREENS, {"DP-1": None})
    with pytest.raises(ValueError):
        layout_matches(SCREENS, {"DP-1": {"mode": "x"}})
    assert describe_layout(SCREENS) == "DP-1 1920x1080+0+0 ×1, HDMI-1 1280x720+1920+0 ×1.5"


def test_wait_for_layout_on_a_server(pytester):
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.multihead(monitors=["1024x768"], kind="xvfb")
        def test_wait(multihead_server):
            s = multihead_server
            s.plug("EXT-1", "800x600+1024+0")
            assert [x["name"] for x in s.wait_for_layout({"EXT-1": "800x600+1024+0"})] == ["VIRTUAL-1", "EXT-1"]
            with pytest.raises(TimeoutError) as late:
                s.wait_for_layout({"EXT-1": None}, timeout=0.3)
            assert "EXT-1 800x600+1024+0" in str(late.value)
        """
    )
    run(pytester).assert_outcomes(passed=1)


def test_configuration_serial_on_each_kind(pytester):
    pytester.makepyfile(
        """
        import subprocess
        import pytest

        def check(s, kind):
            name = "EXT-1" if kind == "xvfb" else "HDMI-1"
            before = s.configuration_serial()
            assert s.configuration_serial() == before  # nothing changed
            plugged = s.plug(name, "800x600+1024+0")
            assert plugged > before and s.configuration_serial() == plugged
            # Nothing past the plug: the barrier times out and says where it stayed.
            with pytest.raises(TimeoutError) as late:
                s.wait_for_configuration(after=plugged, timeout=0.3)
            assert f"serial {plugged}" in str(late.value)
            # Another client's change is past it (xrandr on X, wlr-randr through the output manager).
            if kind == "xorg":
                subprocess.run(["xrandr", "--output", name, "--pos", "1024x100"], env=s.env, check=True)
            if kind == "wayland":
                subprocess.run(["wlr-randr", "--output", name, "--pos", "1024,100"], env=s.env, check=True)
            moved = plugged
            if kind != "xvfb":
                screens = s.wait_for_configuration(after=plugged)
                assert {x["name"]: x["frame"]["y"] for x in screens}[name] == 100
                moved = s.configuration_serial()
            gone = s.unplug(name)
            assert gone > moved and s.configuration_serial() == gone

        @pytest.mark.multihead(monitors=["1024x768"], kind="xvfb")
        def test_xvfb(multihead_server):
            check(multihead_server, "xvfb")

        @pytest.mark.multihead(monitors=["1024x768"], kind="xorg")
        def test_xorg(multihead_server):
            check(multihead_server, "xorg")

        @pytest.mark.multihead(monitors=["1024x768"], kind="wayland")
        def test_wayland(multihead_server):
            check(multihead_server, "wayland")
        """
    )
    run(pytester).assert_outcomes(passed=3)


def test_a_portrait_monitor_on_each_kind(pytester):
    pytester.makepyfile(
        """
        import pytest
        from pytest_multihead import MultiheadError

        def turned(s):
            s.plug("HDMI-1", "1920x1080+1024+0", rotation="left")
            screen = {x["name"]: x for x in s.screens()}["HDMI-1"]
            assert screen["rotation"] == 90
            assert (screen["frame"]["width"], screen["frame"]["height"]) == (1080, 1920)
            s.mode("HDMI-1", "1920x1080", rotation="normal")
            screen = {x["name"]: x for x in s.screens()}["HDMI-1"]
            assert screen["rotation"] == 0 and screen["frame"]["width"] == 1920

        @pytest.mark.multihead(monitors=["1024x768"], kind="xorg")
        def test_xorg(multihead_server):
            turned(multihead_server)

        @pytest.mark.multihead(monitors=["1024x768"], kind="wayland")
        def test_wayland(multihead_server):
            turned(multihead_server)

        @pytest.mark.multihead(monitors=["1024x768"], kind="xvfb")
        def test_xvfb_refuses(multihead_server):
            with pytest.raises(MultiheadError) as refused:
                multihead_server.plug("EXT-1", "1920x1080+1024+0", rotation="left")
            assert "the xvfb kind cannot turn a monitor" in str(refused.value)
            assert [x["name"] for x in multihead_server.screens()] == ["VIRTUAL-1"]
        """
    )
    run(pytester).assert_outcomes(passed=3)


def test_move_window_frames():
    from pytest_multihead._windows import frame_fields, window_id
    assert frame_fields((20, 30)) == {"x": 20, "y": 30}
    assert frame_fields([1, 2, 3, 4]) == {"x": 1, "y": 2, "width": 3, "height": 4}
    assert frame_fields({"x": 5, "y": 6, "width": 7, "height": 8}) == {"x": 5, "y": 6, "width": 7, "height": 8}
    for bad in [(1,), (1, 2, 3), {"width": 800, "height": 600}, {"x": 1}, {"x": 1, "y": 2, "width": 3}, {"x": 1, "y": 2, "w": 3}]:
        with pytest.raises(ValueError):
            frame_fields(bad)
    assert window_id({"id": 7}) == 7 and window_id(8) == 8
