"""A private X server started through the `multihead` command line tool, and what a test does with it.

Beside it: the errors (_errors.py), the control socket's client, LineReader and Watch (_control.py), and
the pidfd helpers with which `kill()` ends a stuck server (_process.py); each is importable from here as
before."""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Sequence

from ._control import START_TIMEOUT, Control, LineReader, Watch
from ._errors import ControlError, MultiheadError
from ._process import _pidfd_of_child, _remove_leftovers, _signal, _wait_pidfd
from ._windows import _Windows

#: The kinds of server, as `--multihead-kind` and the marker's `kind` name them, and the flag of each. Without
#: a kind the CLI starts its default: Xorg with Multihead's driver where it can start, else Xvfb (saying why).
KINDS = {"xvfb": ["--xvfb"], "xorg-dummy": ["--xorg-dummy"], "xorg": ["--xorg"], "wayland": ["--wayland"]}


def _client_env(values: dict[str, Any]) -> dict[str, str]:
    """A copy of `os.environ` for a client of the server `values` describe (what `multihead server` printed,
    or a `lease` answer): DISPLAY and XAUTHORITY on X; WAYLAND_DISPLAY, XDG_RUNTIME_DIR and DISPLAY
    (Xwayland) on Wayland, where no XAUTHORITY of the caller's is passed on. Never MULTIHEAD_CONTROL."""
    env = dict(os.environ)
    env.pop("MULTIHEAD_CONTROL", None)
    wayland = values.get("WAYLAND_DISPLAY") or values.get("waylandDisplay")
    if wayland:
        for key in ("XAUTHORITY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "DISPLAY"):
            env.pop(key, None)
        env["WAYLAND_DISPLAY"] = wayland
        env["XDG_RUNTIME_DIR"] = values.get("XDG_RUNTIME_DIR") or values["runtimeDirectory"]
    xauthority = values.get("XAUTHORITY") or values.get("xauthority")
    if xauthority:
        env["XAUTHORITY"] = xauthority
    display = values.get("DISPLAY") or values.get("display")
    if display:
        env["DISPLAY"] = display
    return env

#: What the CLI's line on stderr says when its default kind is Xvfb for want of Xorg or its driver.
_XVFB_NOTICE = "starting Xvfb, not Xorg"

#: How long a warm server has to answer `hello` before it is taken for stuck and replaced (seconds).
HELLO_TIMEOUT = 5.0


class MultiheadWarning(UserWarning):
    """Something a test should know that did not make it fail: its warm server stopped answering (or ended)
    and was replaced by a fresh one before the test."""


def _layout_refusal(monitors: Any) -> str | None:
    """Why `monitors` is not a layout (see `_layout`), or None when it is one."""
    if monitors is None or isinstance(monitors, str):
        return None
    if isinstance(monitors, (list, tuple)) and all(isinstance(m, str) for m in monitors):
        return None
    return (f'monitors must be a string of sizes such as "1920x1080,1280x720" or a list of such strings, '
            f'not {monitors!r} ({type(monitors).__name__})')


def _layout(monitors: str | Sequence[str] | None) -> list[str] | None:
    """The monitor sizes as the server takes them: None (the server's default layout), a string of sizes
    separated by commas ("1920x1080,1280x720"), or a list or tuple of sizes. The sizes are the server's to
    check ("" and [] are layouts it refuses); anything else is a TypeError naming what was given."""
    refusal = _layout_refusal(monitors)
    if refusal is not None:
        raise TypeError(refusal)
    if isinstance(monitors, str):
        return monitors.split(",")
    return None if monitors is None else list(monitors)


def _fields(keywords: dict[str, Any]) -> dict[str, Any]:
    """Keywords in snake case as the socket's fields, in camel case (`serial_number` → `serialNumber`)."""
    return {"".join(w.capitalize() if i else w for i, w in enumerate(k.split("_"))): v for k, v in keywords.items()}


class _Screens(_Windows):
    """What a test does with its server, through the control socket: `plug`, `unplug`, `mode`, `screens`,
    `screenshot`, `pixel`, and `_Windows`' `windows`, `move_window`, `fullscreen_window`, `wait_for_window`,
    `wait_for_layout`; `watch` and `run` run the CLI."""

    binary: str
    env: dict[str, str]
    _control: Control
    #: The lease's identity from the `lease` answer, sent with each request: once another lease has begun,
    #: the server refuses this one's requests (`noLease`) and does nothing. None: act on the lease held.
    lease_id: str | None = None

    def _request(self, request: str, *, timeout: float | None = None, **fields: Any) -> dict[str, Any]:
        __tracebackhide__ = True
        return self._control.request(request, timeout=timeout, lease=self.lease_id, **fields)

    def run(self, *args: str) -> str:
        """Runs `multihead ARGS…` against this server (through its control socket) and returns its stdout;
        MultiheadError on failure."""
        env = dict(self.env, MULTIHEAD_CONTROL=self._control.path)
        done = subprocess.run([self.binary, *args], env=env, capture_output=True, text=True, timeout=START_TIMEOUT)
        if done.returncode != 0:
            raise MultiheadError(args, done.returncode, done.stderr)
        return done.stdout

    def plug(self, name: str, geometry: str, primary: bool = False, rate: float | None = None, **monitor: Any) -> int:
        """Plugs a monitor: `geometry` is WxH+X+Y. `monitor` keywords are the EDID's (`manufacturer`,
        `model`, `serial_number`, `physical_size`, `edid`: a file), for a kind whose outputs take one, and
        `scale` (1…4 such as 1.5, the output's scale: `wayland` only; X has none) and `rotation` (`left` or
        `right` for a portrait monitor: `geometry`'s size is its mode; `xorg` and `wayland`). Returns the
        configuration serial the plug made (`wait_for_configuration(after=…)`)."""
        fields = _fields(monitor)
        if "edid" in fields:
            fields["edid"] = os.path.abspath(os.fspath(fields["edid"]))
        return self._request("plug", name=name, geometry=geometry, primary=primary, rate=rate, **fields)["configurationSerial"]

    def unplug(self, name: str, keep_primary: bool = False) -> int:
        """Unplugs a monitor; returns the configuration serial the unplug made."""
        return self._request("unplug", name=name, keepPrimary=keep_primary)["configurationSerial"]

    def mode(self, name: str, size: str, rate: float | None = None, scale: float | None = None,
             rotation: str | None = None, **options: Any) -> dict[str, Any]:
        """Sets a monitor's mode (WxH, and the rate nearest `rate`; `scale` on `wayland`; `rotation`: `normal`,
        `left`, `right` or `inverted`, on `xorg` and `wayland`); returns the mode set. Other keywords are the
        request's other fields, in snake case (`ModeRequest`'s declaration: a new field needs no change here)."""
        return self._request("mode", name=name, size=size, rate=rate, scale=scale, rotation=rotation, **_fields(options))["mode"]

    def screens(self) -> list[dict[str, Any]]:
        """The screens as `multihead screens --json` lists them, main first."""
        return self._request("screens")["screens"]

    def screenshot(self, path: str | os.PathLike, screen: str | None = None) -> Path:
        """Writes a PNG of one screen (by name), or of the whole desktop, and returns its path."""
        whole = os.path.abspath(os.fspath(path))
        self._request("screenshot", output=whole, screen=screen)
        return Path(path)

    def pixel(self, x: int, y: int, screen: str | None = None) -> str:
        """One pixel as "#rrggbb": at (x, y) of a screen (by name), or of the desktop."""
        return self._request("pixel", x=x, y=y, screen=screen)["pixel"]

    def watch(self, timeout: float = 10.0) -> Watch:
        """Starts watching the screen events (see `Watch`): each `next()` waits up to `timeout` seconds."""
        return Watch(self, timeout)


class MultiheadServer(_Screens):
    """A `multihead server` of its own (the marker's `fresh=True`, or a worker's warm server), with the
    monitors it was asked for.

    `display` and `xauthority` are what an X client needs; `env` is a copy of `os.environ` with both set,
    for `subprocess`. A failing request raises `MultiheadError` with the CLI's exit status and message.

    `kind` None (the default) starts the CLI's default kind: Xorg with Multihead's driver where it can start,
    else Xvfb; `kind` is then the kind started (the control socket's `hello` says it), and `notice` the CLI's
    line saying why it is Xvfb (None when it is not)."""

    def __init__(self, binary: str, monitors: str | Sequence[str] | None = None, kind: str | None = None, glx: bool = False,
                 wm: bool = False):
        if kind is not None and kind not in KINDS:
            raise ValueError(f"unknown multihead kind {kind!r}: one of {', '.join(KINDS)}")
        layout = _layout(monitors)
        self.binary = binary
        self.kind = kind
        #: The CLI's line on stderr saying why its default kind is Xvfb here (None: it is not, or a kind was named).
        self.notice: str | None = None
        #: Why this server does not answer (it ended, or a request got no answer in time), once known.
        self.failure: str | None = None
        args = ["server", *(KINDS[kind] if kind else []), *(["--glx"] if glx else []), *(["--wm"] if wm else [])]
        if layout is not None:
            args += ["--monitors", ",".join(layout)]
        self._args = args
        self._stderr = tempfile.TemporaryFile()
        self._proc = subprocess.Popen([binary, *args], stdout=subprocess.PIPE, stderr=self._stderr,
                                      stdin=subprocess.DEVNULL, bufsize=0)
        #: The `multihead server` process's ID (the X server's is `pid`).
        self.cli_pid = self._proc.pid
        values: dict[str, str] = {}
        lines = LineReader(self._proc.stdout)
        try:
            while "MULTIHEAD_PID" not in values:
                line = lines.readline(START_TIMEOUT)
                if line is None:
                    raise MultiheadError(args, self._proc.wait(timeout=START_TIMEOUT), self._stderr_text())
                key, _, value = line.partition("=")
                values[key] = value
        except TimeoutError:
            # What it said, read before stop() closes the file it said it in.
            said = self._stderr_text()
            self.stop()
            raise MultiheadError(args, None, said, f"printed no DISPLAY within {START_TIMEOUT:g} s")
        finally:
            lines.close()
        try:
            self._control = Control(values["MULTIHEAD_CONTROL"])
            if self.kind is None:
                self.kind = self._control.request("hello", timeout=HELLO_TIMEOUT)["kind"]
        except ControlError:
            self.stop()
            raise
        # Written before the server started, so there by now.
        self.notice = next((line for line in self._stderr_text().splitlines() if _XVFB_NOTICE in line), None)
        self._set(values)

    def _set(self, values: dict[str, str]) -> None:
        self.display: str = values.get("DISPLAY", "")
        #: The authority file (None on `wayland`, whose Xwayland takes none).
        self.xauthority: str | None = values.get("XAUTHORITY")
        #: On `wayland`: the compositor's socket name and its private runtime folder (else None).
        self.wayland_display: str | None = values.get("WAYLAND_DISPLAY")
        self.runtime_directory: str | None = values.get("XDG_RUNTIME_DIR")
        #: The X server's process ID (the compositor's on `wayland`).
        self.pid = int(values["PID"])
        #: The X server running now (a lease may have replaced the first): its display and PID.
        self._xserver = (self.display, self.pid)
        self.env: dict[str, str] = _client_env(values)

    def alive(self) -> bool:
        """Whether the `multihead server` process still runs."""
        return self._proc.poll() is None

    def _stderr_text(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")

    def lease(self, monitors: str | Sequence[str] | None = None, wm: bool | None = None) -> "Lease":
        """Ends the lease held (its clients closed, the server reset to fresh and checked) and leases the
        server again with `monitors` (sizes as a list, or one string separated by commas; default: the
        layout it started with; `wm`: whether openbox runs on it for this lease, default the server's `--wm`).
        A layout the server refuses is its MultiheadError."""
        answer = self._control.request("lease", monitors=_layout(monitors), wm=wm)
        self._xserver = (answer.get("display") or "", answer["pid"])
        return Lease(self, answer)

    def check(self, timeout: float = HELLO_TIMEOUT) -> str | None:
        """None when the server answers `hello` within `timeout` seconds; else why not (its process has
        ended, or it gave no answer), which is kept in `failure`: a server that once failed to answer is
        not asked again."""
        if self.failure is None:
            if self._proc.poll() is not None:
                self.failure = f"its `multihead server` (PID {self.cli_pid}) had ended with status {self._proc.returncode}"
            else:
                try:
                    self._control.request("hello", timeout=timeout)
                except ControlError as error:
                    self.failure = f"its `multihead server` (PID {self.cli_pid}) did not answer `hello` ({error.what})"
        return self.failure

    def kill(self) -> None:
        """Ends a server that does not answer, by PID: SIGKILL to `multihead server` (reaped here); its X
        server, which gets its parent-death SIGTERM then, is woken (SIGCONT, in case it was stopped) and
        given a few seconds to go, then SIGKILL. What they would have removed on a normal end (the
        process's folder, the X server's lock and socket) is removed."""
        self._control.close()
        display, xpid = self._xserver
        xserver = _pidfd_of_child(xpid, self.cli_pid)
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()
        if xserver is not None:
            try:
                _signal(xserver, signal.SIGCONT)
                if not _wait_pidfd(xserver, HELLO_TIMEOUT):
                    _signal(xserver, signal.SIGKILL)
                    _wait_pidfd(xserver, START_TIMEOUT)
            finally:
                os.close(xserver)
        _remove_leftovers(self._control.path, self.cli_pid, display, xpid)
        self._proc.stdout.close()
        self._stderr.close()

    def stop(self) -> None:
        """Stops the server (SIGTERM to `multihead server`, which ends the X server and removes its files;
        SIGCONT too, should it have been stopped)."""
        if getattr(self, "_control", None):
            self._control.close()
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGTERM)
            self._proc.send_signal(signal.SIGCONT)
            try:
                self._proc.wait(timeout=START_TIMEOUT)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._proc.stdout.close()
        self._stderr.close()


class Lease(_Screens):
    """One test's lease of a warm `multihead server`: the same attributes and methods as MultiheadServer.
    Its cookie is its own: `stop()` (the fixture's teardown) revokes it, which closes every client the test
    started, and the server is reset to fresh and checked before the next lease. `replaced` says when the
    server could not be made fresh and was replaced (`reason` says why)."""

    def __init__(self, host: MultiheadServer, answer: dict[str, Any]):
        self.binary = host.binary
        self.kind = host.kind
        self.cli_pid = host.cli_pid
        self._host = host
        self._control = host._control
        #: This lease's identity (the `lease` answer's "lease"), sent with every request it makes.
        self.lease_id: str | None = answer.get("lease")
        self.display: str = answer.get("display") or ""
        self.xauthority: str | None = answer.get("xauthority")
        self.wayland_display: str | None = answer.get("waylandDisplay")
        self.runtime_directory: str | None = answer.get("runtimeDirectory")
        #: The X server's process ID (the compositor's on `wayland`).
        self.pid: int = answer["pid"]
        self.warm: bool = answer["warm"]
        self.replaced: bool = answer["replaced"]
        self.reason: str | None = answer.get("reason")
        self.env: dict[str, str] = _client_env(answer)
        self._released = False

    def stop(self) -> None:
        """Ends the lease: its clients are closed and the server reset for the next test. A lease that has
        already ended (another began since: `noLease`) has nothing left to release. A server that does not
        answer `hello` within a few seconds is not waited for: ControlError, and `check()` says so."""
        if not self._released:
            self._released = True
            failure = self._host.check()
            if failure is not None:
                raise ControlError(["release"], self._control.path, f"{failure}; the lease was not released")
            try:
                self._request("release")
            except ControlError as error:
                self._host.failure = f"its `multihead server` (PID {self.cli_pid}) did not answer `release` ({error.what})"
                raise
            except MultiheadError as error:
                if error.code != "noLease":
                    raise
