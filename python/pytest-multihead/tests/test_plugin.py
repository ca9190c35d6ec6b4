"""The plugin as a tester uses it: the fixture, the marker, the options, failures and errors."""

import os
import re

import pytest


def run(pytester, *args):
    """Runs pytest on the files made in `pytester`, in a subprocess, with the CLI under test."""
    binary = pytester._request.config.getoption("--multihead-bin")
    return pytester.runpytest_subprocess(f"--multihead-bin={binary}", "-p", "no:cacheprovider", *args, timeout=600)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_fixture_layout_hotplug_and_events(pytester):
    pytester.makepyfile(
        """
        import subprocess
        import pytest

        @pytest.mark.multihead(monitors=["1920x1080", "1280x720"])
        def test_hotplug(multihead_server):
            s = multihead_server
            assert s.display.startswith(":") and s.env["DISPLAY"] == s.display
            assert s.env["XAUTHORITY"] == s.xauthority
            assert [x["name"] for x in s.screens()] == ["VIRTUAL-1", "VIRTUAL-2"]
            with s.watch(timeout=10) as events:
                s.plug("EXT-1", "800x600+3200+0")
                e = next(events)
                assert (e["event"], e["screen"]["name"]) == ("connect", "EXT-1")
                s.mode("EXT-1", "1024x768")
                e = next(events)
                assert e["event"] == "modeChange" and e["screen"]["frame"]["width"] == 1024
                assert e["previous"]["frame"]["width"] == 800
                s.unplug("EXT-1")
                assert next(events)["event"] == "disconnect"
            # What any X client sees: xrandr with the fixture's environment.
            listed = subprocess.run(["xrandr", "--listmonitors"], env=s.env, capture_output=True, text=True).stdout
            assert "VIRTUAL-2" in listed and "EXT-1" not in listed
            print("XSERVER", s.pid)
        """
    )
    result = run(pytester, "-s")
    result.assert_outcomes(passed=1)
    pid = int(re.search(r"XSERVER (\d+)", result.stdout.str()).group(1))
    assert not alive(pid), "the X server outlived its test"


def test_kind_from_marker_and_option(pytester):
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.multihead(monitors=["1024x768"], kind="xorg-dummy")
        def test_marker_kind(multihead_server):
            assert multihead_server.kind == "xorg-dummy"
            assert [x["name"] for x in multihead_server.screens()] == ["DUMMY0"]
            multihead_server.plug("DUMMY1", "1280x720+1024+0", rate=60)
            assert [x["name"] for x in multihead_server.screens()] == ["DUMMY0", "DUMMY1"]

        @pytest.mark.multihead(monitors=["800x600"])
        def test_option_kind(multihead_server):
            assert multihead_server.kind == "xorg-dummy"
            assert [x["frame"]["width"] for x in multihead_server.screens()] == [800]
        """
    )
    run(pytester, "--multihead-kind=xorg-dummy").assert_outcomes(passed=2)


def test_glx_only_when_the_marker_asks(pytester):
    pytester.makepyfile(
        """
        import pytest

        def args(server):
            with open(f"/proc/{server.pid}/cmdline", "rb") as f:
                return f.read().split(b"\\0")

        def test_default(multihead_server):
            a = args(multihead_server)
            assert a[a.index(b"-extension") + 1] == b"GLX"

        @pytest.mark.multihead(glx=True)
        def test_glx(multihead_server):
            assert b"GLX" not in args(multihead_server)

        @pytest.mark.multihead(colour="blue")
        def test_unknown(multihead_server):
            pass
        """
    )
    result = run(pytester)
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*multihead marker: unknown argument(s) colour*"])


def test_a_failing_test_gets_a_png_per_screen(pytester):
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.multihead(monitors=["640x480", "320x240"])
        def test_fails(multihead_server):
            assert False, "on purpose"
        """
    )
    result = run(pytester, "--junitxml=report.xml")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "multihead screens" in out
    paths = re.findall(r"VIRTUAL-\d: (\S+\.png)", out)
    assert len(paths) == 2
    for path in paths:
        with open(path, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    # The paths are in the report's properties too (JUnit XML).
    assert (pytester.path / "report.xml").read_text().count('name="multihead screenshot"') == 2


def test_errors_are_the_clis(pytester):
    pytester.makepyfile(
        """
        import pytest
        from pytest_multihead import MultiheadError

        def test_bad_geometry(multihead_server):
            with pytest.raises(MultiheadError) as caught:
                multihead_server.plug("EXT-1", "12x")
            assert caught.value.status == 64 and caught.value.code == "usage"
            assert "12x" in str(caught.value) and "failed with status 64" in str(caught.value)

        def test_rate_on_a_virtual_monitor(multihead_server):
            with pytest.raises(MultiheadError) as caught:
                multihead_server.plug("EXT-1", "800x600+0+0", rate=75)
            assert caught.value.status == 64 and "rate" in caught.value.stderr
            assert caught.value.code == "invalidMonitor"

        @pytest.mark.multihead(monitors=["nonsense"])
        def test_bad_layout(multihead_server):
            pass

        @pytest.mark.multihead(monitors=["nonsense"], fresh=True)
        def test_bad_layout_fresh(multihead_server):
            pass
        """
    )
    result = run(pytester)
    result.assert_outcomes(passed=2, errors=2)
    result.stdout.fnmatch_lines(["*MultiheadError*`multihead lease nonsense` failed with status 64 (usage)*nonsense*"])
    result.stdout.fnmatch_lines(["*MultiheadError*`multihead server --monitors nonsense` exited with status 64*"])


def test_missing_binary_is_a_usage_error(pytester):
    pytester.makepyfile("def test_x(multihead_server):\n    pass\n")
    result = pytester.runpytest_subprocess("--multihead-bin=/nonexistent/multihead", "-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*multihead: '/nonexistent/multihead' is not an executable*"])


def test_xdist_one_server_per_test(pytester):
    pytest.importorskip("xdist")
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.parametrize("i", range(4))
        def test_own_server(multihead_server, i, tmp_path):
            multihead_server.plug(f"EXT-{i}", "640x480+4000+0")
            assert [s["name"] for s in multihead_server.screens()][-1] == f"EXT-{i}"
            print("DISPLAY", multihead_server.display)
        """
    )
    result = run(pytester, "-n", "2", "-s")
    result.assert_outcomes(passed=4)


def test_a_worker_killed_with_sigkill_leaves_no_server(pytester, tmp_path):
    """A pytest process killed outright (as a stuck xdist worker is) takes its `multihead server` along."""
    record = tmp_path / "pids"
    pytester.makepyfile(
        f"""
        import os, signal

        def test_killed(multihead_server):
            with open({str(record)!r}, "w") as f:
                f.write(f"{{multihead_server.cli_pid}} {{multihead_server.pid}}")
            os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    run(pytester)
    cli, xserver = (int(p) for p in record.read_text().split())
    import time
    deadline = time.monotonic() + 15
    while (alive(cli) or alive(xserver)) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not alive(cli), "multihead server outlived the killed pytest"
    assert not alive(xserver), "its X server outlived it"
    leftovers = [n for n in os.listdir(os.environ.get("TMPDIR", "/tmp")) if n.startswith(f"multihead-{cli}-")]
    assert leftovers == []
