"""A private X server started through the `multihead` command line tool, and what a test does with it."""

from __future__ import annotations

import json
import os
import select
import selectors
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

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

#: How long a server may take to start, and a command to answer, before the test fails (seconds).
START_TIMEOUT = 60.0

#: How long a warm server has to answer `hello` before it is taken for stuck and replaced (seconds).
HELLO_TIMEOUT = 5.0


class MultiheadError(Exception):
    """A `multihead` command or control request failed: its arguments, its exit status (the one the CLI
    would exit with), what it said (`stderr`) and, for a request on the control socket, the stable error
    `code` (docs/control-socket.md)."""

    def __init__(self, args: Sequence[str], status: int | None, stderr: str, reason: str | None = None,
                 code: str | None = None):
        self.args_ = list(args)
        self.status = status
        self.stderr = stderr
        self.code = code
        what = reason or f"exited with status {status}"
        shown = " ".join(a if a else "''" for a in self.args_)
        super().__init__(f"`multihead {shown}` {what}" + (f": {stderr.strip()}" if stderr.strip() else ""))


class ControlError(MultiheadError):
    """The control socket could not be used: it could not be reached, it closed, it did not answer in time,
    or what it sent is not an answer. `path` is the socket; `code` is "controlUnavailable" and `status` 69,
    as the CLI has for a socket it cannot reach."""

    def __init__(self, args: Sequence[str], path: str, what: str):
        self.path = path
        #: What went wrong with the socket, without the request and the path.
        self.what = what
        super().__init__(args, 69, "", f"could not use the control socket {path}: {what}", code="controlUnavailable")


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


class LineReader:
    """Whole lines from a child's pipe (opened unbuffered: `bufsize=0`), each waited for with a timeout: a
    test reads what its app prints as it prints it, and never sleeps."""

    def __init__(self, pipe):
        self._fd = pipe.fileno()
        self._buffer = b""
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._fd, selectors.EVENT_READ)
        self.closed = False

    def readline(self, timeout: float) -> str | None:
        """The next line without its newline; None at the end of the pipe; TimeoutError if none comes."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            if self.closed:
                rest, self._buffer = self._buffer, b""
                return rest.decode() if rest else None
            left = deadline - time.monotonic()
            if left <= 0 or not self._selector.select(left):
                raise TimeoutError(f"no line within {timeout:g} s")
            chunk = os.read(self._fd, 65536)
            if chunk:
                self._buffer += chunk
            else:
                self.closed = True
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode()

    def close(self) -> None:
        self._selector.close()


class Watch:
    """`multihead watch --json` running: iterate it for the screen events, each a dict as the CLI prints it
    (`event` is "connect", "disconnect", "modeChange", "mainChange" or "brightnessChange"; `screen` as
    `screens()` lists one; `previous` for a mode change). It is watching once made: nothing done after is missed. `next()` waits up to
    `timeout` seconds and raises TimeoutError when no event comes. Use it in a `with` block, or `close()`."""

    def __init__(self, server: "MultiheadServer", timeout: float):
        self.timeout = timeout
        self._args = ["watch", "--json", "--ready"]
        self._proc = subprocess.Popen([server.binary, *self._args], env=server.env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, bufsize=0)
        self._out = LineReader(self._proc.stdout)
        # The CLI's first line says it is watching: from then on no event is missed.
        try:
            line = self._out.readline(START_TIMEOUT)
        except TimeoutError:
            self.close()
            raise MultiheadError(self._args, None, "", f"did not start watching within {START_TIMEOUT:g} s")
        if line is None or json.loads(line).get("event") != "ready":
            status = self._proc.wait(timeout=START_TIMEOUT)
            said = self._proc.stderr.read().decode(errors="replace")
            self.close()
            raise MultiheadError(self._args, status, said)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return self

    def __next__(self) -> dict[str, Any]:
        try:
            line = self._out.readline(self.timeout)
        except TimeoutError:
            raise TimeoutError(f"no screen event within {self.timeout:g} s") from None
        if line is None:
            status = self._proc.wait(timeout=START_TIMEOUT)
            if status != 0:
                raise MultiheadError(self._args, status, self._proc.stderr.read().decode(errors="replace"))
            raise StopIteration
        return json.loads(line)

    def close(self) -> None:
        """Stops the watch."""
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._out.close()
        for pipe in (self._proc.stdout, self._proc.stderr):
            pipe.close()

    def __enter__(self) -> "Watch":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Control:
    """A connection to a `multihead server`'s control socket (`MULTIHEAD_CONTROL`): one JSON line a request,
    one JSON line its answer (docs/control-socket.md). `request` returns the answer's fields, or raises
    MultiheadError with the status, code and message of an error answer, or ControlError (a MultiheadError,
    code "controlUnavailable", status 69, naming the socket) when the socket cannot be reached, closes,
    gives no answer within the timeout or sends something that is not one. After such a failure the
    connection is closed (a late answer must not be read as the next one's); the next request connects
    again."""

    def __init__(self, path: str, timeout: float = START_TIMEOUT):
        self.path = path
        self.timeout = timeout
        self._socket: socket.socket | None = None
        self._buffer = b""
        self._connect(["connect"])

    def _connect(self, words: Sequence[str]) -> socket.socket:
        if self._socket is not None and not self._open():
            self.close()
        if self._socket is None:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.settimeout(self.timeout)
                s.connect(self.path)
            except OSError as error:
                s.close()
                raise ControlError(words, self.path, f"cannot connect ({_describe(error)}): has the server ended?") from None
            self._socket, self._buffer = s, b""
        return self._socket

    def _open(self) -> bool:
        """Whether the server still keeps this connection: it closes one that has been idle (300 s), and
        a client then connects again (checked before a request is sent: nothing is sent twice)."""
        try:
            poller = select.poll()
            poller.register(self._socket, select.POLLIN)
            if not poller.poll(0):
                return True
            return self._socket.recv(1, socket.MSG_PEEK) != b""
        except OSError:
            return False

    def request(self, request: str, *, timeout: float | None = None, **fields: Any) -> dict[str, Any]:
        """Sends one request (fields whose value is None are left out) and returns its answer; `timeout`
        (seconds, default the connection's) bounds the wait for the answer."""
        __tracebackhide__ = True
        fields = {k: v for k, v in fields.items() if v is not None}
        words = [request, *(_word(v) for k, v in fields.items() if k != "lease" and not isinstance(v, bool))]
        line = json.dumps({"request": request, **fields}).encode() + b"\n"
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        s = self._connect(words)
        try:
            s.settimeout(limit)
            s.sendall(line)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise socket.timeout
                s.settimeout(left)
                chunk = s.recv(65536)
                if not chunk:
                    self.close()
                    raise ControlError(words, self.path, "it closed before answering: has the server ended?")
                self._buffer += chunk
        except socket.timeout:
            self.close()
            raise ControlError(words, self.path, f"no answer within {round(limit, 1):g} s: the server is not answering") from None
        except OSError as error:
            self.close()
            raise ControlError(words, self.path, f"{_describe(error)}: has the server ended?") from None
        answer, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(answer)
            if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
                raise ValueError("not an object with \"ok\"")
            if not reply["ok"] and not isinstance(reply.get("error"), dict):
                raise ValueError("a failure without \"error\"")
        except ValueError as error:
            self.close()
            shown = answer[:200].decode(errors="replace") + ("…" if len(answer) > 200 else "")
            raise ControlError(words, self.path, f"its answer is malformed ({error}): {shown!r}") from None
        if not reply["ok"]:
            error = reply["error"]
            raise MultiheadError(words, error.get("status"), str(error.get("message", "")),
                                 f"failed with status {error.get('status')} ({error.get('code')})", code=error.get("code"))
        return reply

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        self._buffer = b""


def _describe(error: OSError) -> str:
    return f"{type(error).__name__}: {error.strerror or error}"


def _fields(keywords: dict[str, Any]) -> dict[str, Any]:
    """Keywords in snake case as the socket's fields, in camel case (`serial_number` → `serialNumber`)."""
    return {"".join(w.capitalize() if i else w for i, w in enumerate(k.split("_"))): v for k, v in keywords.items()}


def _word(value: Any) -> str:
    """A field's value as the request's words in messages show it: a list as the CLI's comma-separated
    form, unless that would hide an empty or comma-holding item (then as JSON)."""
    if isinstance(value, list):
        items = [str(v) for v in value]
        return json.dumps(items) if not items or any(not i or "," in i for i in items) else ",".join(items)
    return str(value)


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


def _parent(pid: int) -> int:
    with open(f"/proc/{pid}/stat", "rb") as f:
        stat = f.read()
    return int(stat[stat.rindex(b")") + 2:].split()[1])


def _pidfd_of_child(pid: int, parent: int) -> int | None:
    """A pidfd of process `pid` if it is still there and a child of `parent`, or a grandchild (Xorg runs
    under a supervising shell), so not a stranger that took a reused PID; else None."""
    try:
        fd = os.pidfd_open(pid)
    except OSError:
        return None
    try:
        up = _parent(pid)
        if up == parent or (up > 1 and _parent(up) == parent):
            return fd
    except (OSError, ValueError, IndexError):
        pass
    os.close(fd)
    return None


def _signal(pidfd: int, sig: int) -> None:
    try:
        signal.pidfd_send_signal(pidfd, sig)
    except ProcessLookupError:
        pass


def _wait_pidfd(pidfd: int, timeout: float) -> bool:
    """Whether the process ended within `timeout` seconds (its pidfd turns readable when it does)."""
    with selectors.DefaultSelector() as selector:
        selector.register(pidfd, selectors.EVENT_READ)
        return bool(selector.select(timeout))


def _running(pid: int) -> bool:
    """Whether the process is there and not a zombie (one that ended and nobody reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:][:1] != "Z"


def _remove_leftovers(control: str, cli_pid: int, display: str, xserver: int) -> None:
    """What a killed `multihead server` and X server leave: the process's folder (`multihead-PID-XXXXXXXX`,
    the socket's), and the X server's lock file and socket when the lock still names that X server."""
    folder = Path(control).parent
    if folder.name.startswith(f"multihead-{cli_pid}-"):
        shutil.rmtree(folder, ignore_errors=True)
    number = display.lstrip(":").split(".")[0]
    # The lock and socket only once that X server has ended: a live one (reparented when its CLI died
    # first) still serves them.
    if number.isdigit() and not _running(xserver):
        lock = Path(f"/tmp/.X{number}-lock")
        try:
            if int(lock.read_text().strip()) == xserver:
                Path(f"/tmp/.X11-unix/X{number}").unlink(missing_ok=True)
                lock.unlink(missing_ok=True)
        except (OSError, ValueError):
            pass
