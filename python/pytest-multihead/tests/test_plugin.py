"""The plugin as a tester uses it: the fixture, the marker, the options, failures and errors."""

import json
import os
import re
import signal
import subprocess

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


def running(pid):
    """Whether `pid` is a process that has not ended (a zombie nobody has reaped yet has ended)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        # Gone, or reaped between the open and the read (ESRCH: ProcessLookupError).
        return False
    return stat[stat.rindex(b")") + 2:][:1] != b"Z"


def end(pid):
    """Ends a process this test started by way of the inner session, should it still run (by PID)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        signal.pidfd_send_signal(fd, signal.SIGKILL)
    except ProcessLookupError:
        pass
    finally:
        os.close(fd)


def test_fixture_layout_hotplug_and_events(pytester):
    pytester.makepyfile(
        """
        import subprocess
        import pytest

        @pytest.mark.multihead(monitors=["1920x1080", "1280x720"], kind="xvfb")
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


def test_the_default_kind_is_the_clis(pytester):
    """Without a kind the plugin starts the CLI's default kind (the one `multihead doctor` calls default:
    Xorg with Multihead's driver where it can start), and `kind` says which; kind="xvfb" asks for Xvfb."""
    binary = pytester._request.config.getoption("--multihead-bin")
    doctor = subprocess.run([binary, "doctor", "--json"], capture_output=True, text=True)
    default = json.loads(doctor.stdout)["defaultKind"]
    first = {"xorg": "DP-1", "xvfb": "VIRTUAL-1"}[default]
    pytester.makepyfile(
        f"""
        import pytest

        def test_default(multihead_server):
            assert multihead_server.kind == {default!r}
            assert [x["name"] for x in multihead_server.screens()][0] == {first!r}

        @pytest.mark.multihead(kind="xvfb")
        def test_xvfb(multihead_server):
            assert multihead_server.kind == "xvfb"
            assert [x["name"] for x in multihead_server.screens()] == ["VIRTUAL-1", "VIRTUAL-2"]
        """
    )
    result = run(pytester)
    # The default says nothing where it is Xorg; on Xvfb one warning says why.
    result.assert_outcomes(passed=2, warnings=0 if default == "xorg" else 1)


def test_without_xorg_the_default_is_xvfb_and_the_first_test_is_told_why(pytester, monkeypatch):
    monkeypatch.setenv("MULTIHEAD_XORG", "/nonexistent/Xorg")
    pytester.makepyfile(
        """
        def test_1(multihead_server):
            assert multihead_server.kind == "xvfb"

        def test_2(multihead_server):
            assert multihead_server.kind == "xvfb"
        """
    )
    result = run(pytester, "-p", "no:randomly")
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines([
        "*test_1*",
        "*MultiheadWarning: multihead: starting Xvfb, not Xorg with Multihead's driver, which needs Xorg (xserver-xorg-core): "
        "apt-get install xserver-xorg-core; GTK, Qt 5, SDL, GLFW and Chromium see no hotplug on Xvfb*",
    ])


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
    paths = re.findall(r"^\S+-\d: (\S+\.png)$", out, re.M)
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

        @pytest.mark.multihead(kind="xvfb")
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
    result.stdout.fnmatch_lines(["*MultiheadError*`multihead lease nonsense` failed with status 64 (invalidField)*nonsense*"])
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


def test_marker_monitors_is_a_layout_or_a_usage_error(pytester):
    """`monitors` is a string of sizes or a list (or tuple) of them; anything else is a usage error naming
    the marker. An empty layout is a layout: the server refuses it, for a lease and a fresh server alike,
    and its reason is the test's error."""
    pytester.makepyfile(
        """
        import pytest

        def widths(s):
            return [x["frame"]["width"] for x in s.screens()]

        @pytest.mark.multihead(monitors=1920)
        def test_int(multihead_server):
            pass

        @pytest.mark.multihead(monitors=["1920x1080", 1280])
        def test_list_with_an_int(multihead_server):
            pass

        @pytest.mark.multihead(["1920x1080"])
        def test_positional(multihead_server):
            pass

        @pytest.mark.multihead(monitors="")
        def test_empty(multihead_server):
            pass

        @pytest.mark.multihead(monitors=[])
        def test_empty_list(multihead_server):
            pass

        @pytest.mark.multihead(monitors="", fresh=True)
        def test_empty_fresh(multihead_server):
            pass

        @pytest.mark.multihead(monitors="1024x768,800x600")
        def test_string(multihead_server):
            assert widths(multihead_server) == [1024, 800]

        @pytest.mark.multihead(monitors=("1024x768",), fresh=True)
        def test_tuple_fresh(multihead_server):
            assert widths(multihead_server) == [1024]

        def test_default_after_the_refusals(multihead_server):
            assert len(widths(multihead_server)) == 2
        """
    )
    result = run(pytester, "-p", "no:randomly")
    result.assert_outcomes(passed=3, errors=6)
    out = result.stdout.str()
    assert "TypeError" not in out
    result.stdout.fnmatch_lines([
        "*ERROR at setup of test_int*",
        '*multihead marker: monitors must be a string of sizes such as "1920x1080,1280x720" or a list of such strings, not 1920 (int)*',
        "*ERROR at setup of test_list_with_an_int*",
        "*multihead marker: monitors must be * not ?'1920x1080', 1280? (list)*",
        "*ERROR at setup of test_positional*",
        "*multihead marker: takes keyword arguments only*got ?'1920x1080'?*",
        "*ERROR at setup of test_empty *",
        '*`multihead lease ?""?` failed with status 64 (*)*"" is not a size*',
        "*ERROR at setup of test_empty_list*",
        "*`multihead lease ??` failed with status 64 (*)*monitors*",
        "*ERROR at setup of test_empty_fresh*",
        "*`multihead server --monitors ''` exited with status 64*is not a size*",
    ])


def test_a_failing_test_whose_warm_server_died_says_why_and_the_session_goes_on(pytester, tmp_path):
    """No screenshot from a server that is gone: the report says why, the session goes on, and the next
    test gets a fresh warm server (told why)."""
    record = tmp_path / "pids"
    pytester.makepyfile(
        f"""
        import os, signal

        def test_1_fails_after_its_server_died(multihead_server):
            host = multihead_server._host
            with open({str(record)!r}, "w") as f:
                f.write(f"{{host.cli_pid}} {{host.pid}}")
            os.kill(host.cli_pid, signal.SIGKILL)
            host._proc.wait(timeout=30)
            assert False, "on purpose"

        def test_2_next(multihead_server):
            assert multihead_server.replaced and "had ended" in multihead_server.reason
            assert [s["frame"]["width"] for s in multihead_server.screens()] == [1920, 1280]
        """
    )
    result = run(pytester, "-p", "no:randomly")
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    result.assert_outcomes(failed=1, passed=1, errors=1, warnings=1)
    cli, _ = (int(p) for p in record.read_text().split())
    # The lease could not be released: the test's teardown says so.
    result.stdout.fnmatch_lines([
        "*ERROR at teardown of test_1_fails_after_its_server_died*",
        f"*`multihead release` could not use the control socket*PID {cli}*had ended*the lease was not released",
    ])
    result.stdout.fnmatch_lines([
        "*- multihead screens -*",
        f"no screenshot: `multihead screens` could not use the control socket *multihead-{cli}-*control.sock: *",
    ])
    result.stdout.fnmatch_lines([
        f"*MultiheadWarning: the worker's warm * server was replaced by a fresh one: its `multihead server` (PID {cli}) had ended*",
    ])
    tmp = os.environ.get("TMPDIR", "/tmp")
    assert [n for n in os.listdir(tmp) if n.startswith(f"multihead-{cli}-")] == []


def test_a_failing_test_whose_server_is_stuck_says_why_within_seconds(pytester, tmp_path):
    """A test that fails while a client of its holds a server grab (the server answers `notResponding`),
    and one that fails after stopping its `multihead server` (no answer at all): each failure's screenshot
    is given up within seconds, its report says why, and the session goes on."""
    record = tmp_path / "grabber"
    pytester.makepyfile(
        f"""
        import os, signal, subprocess, sys
        GRAB = "import ctypes, ctypes.util\\nx = ctypes.CDLL(ctypes.util.find_library('X11'))\\nx.XOpenDisplay.restype = ctypes.c_void_p\\nd = ctypes.c_void_p(x.XOpenDisplay(None))\\nx.XGrabServer(d)\\nx.XSync(d, 0)\\nprint('grabbed', flush=True)\\nwhile True:\\n    x.XSync(d, 0)\\n"

        def test_1_fails_holding_a_grab(multihead_server):
            p = subprocess.Popen([sys.executable, "-c", GRAB], env=multihead_server.env, stdout=subprocess.PIPE, text=True)
            with open({str(record)!r}, "w") as f:
                f.write(str(p.pid))
            assert p.stdout.readline() == "grabbed\\n"
            assert False, "on purpose"

        def test_2_fails_with_its_server_stopped(multihead_server):
            os.kill(multihead_server.cli_pid, signal.SIGSTOP)
            assert False, "on purpose"

        def test_3_next(multihead_server):
            assert multihead_server.replaced
            assert [s["frame"]["width"] for s in multihead_server.screens()] == [1920, 1280]
        """
    )
    try:
        result = run(pytester, "-p", "no:randomly")
    finally:
        end(int(record.read_text()))
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    # test_2's teardown cannot release its lease (the server does not answer): an error of its own.
    result.assert_outcomes(failed=2, passed=1, errors=1, warnings=1)
    said = re.findall(r"^no screenshot: (.*)$", result.stdout.str(), re.M)
    assert len(said) == 2, result.stdout.str()
    grabbed, stopped = said
    assert "(notResponding)" in grabbed or "no answer within 10 s" in grabbed, grabbed
    assert "could not use the control socket" in stopped and "no answer within 10 s" in stopped, stopped
