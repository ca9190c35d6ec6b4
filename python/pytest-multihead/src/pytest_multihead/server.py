"""A private X server started through the `multihead` command line tool, and what a test does with it."""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

#: The kinds of server, as `--multihead-kind` and the marker's `kind` name them, and the flag of each.
KINDS = {"xvfb": [], "xorg-dummy": ["--xorg-dummy"], "xorg": ["--xorg"]}

#: How long a server may take to start, and a command to answer, before the test fails (seconds).
START_TIMEOUT = 60.0


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
        super().__init__(f"`multihead {' '.join(args)}` {what}" + (f": {stderr.strip()}" if stderr.strip() else ""))


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
    MultiheadError with the status, code and message of an error answer."""

    def __init__(self, path: str, timeout: float = START_TIMEOUT):
        self.path = path
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._socket.settimeout(timeout)
        self._socket.connect(path)
        self._buffer = b""

    def request(self, request: str, **fields: Any) -> dict[str, Any]:
        line = json.dumps({"request": request, **{k: v for k, v in fields.items() if v is not None}})
        self._socket.sendall(line.encode() + b"\n")
        while b"\n" not in self._buffer:
            chunk = self._socket.recv(65536)
            if not chunk:
                raise MultiheadError([request], None, "", "got no answer: the control socket closed")
            self._buffer += chunk
        answer, _, self._buffer = self._buffer.partition(b"\n")
        reply = json.loads(answer)
        if not reply.get("ok"):
            error = reply.get("error", {})
            words = [request, *(",".join(map(str, v)) if isinstance(v, list) else str(v)
                                for v in fields.values() if v is not None and not isinstance(v, bool))]
            raise MultiheadError(words, error.get("status"), error.get("message", ""),
                                 f"failed with status {error.get('status')} ({error.get('code')})", code=error.get("code"))
        return reply

    def close(self) -> None:
        self._socket.close()


class _Screens:
    """What a test does with its server, through the control socket: `plug`, `unplug`, `mode`, `screens`,
    `screenshot`, `pixel`; `watch` and `run` run the CLI."""

    binary: str
    env: dict[str, str]
    _control: Control

    def run(self, *args: str) -> str:
        """Runs `multihead ARGS…` against this server (through its control socket) and returns its stdout;
        MultiheadError on failure."""
        env = dict(self.env, MULTIHEAD_CONTROL=self._control.path)
        done = subprocess.run([self.binary, *args], env=env, capture_output=True, text=True, timeout=START_TIMEOUT)
        if done.returncode != 0:
            raise MultiheadError(args, done.returncode, done.stderr)
        return done.stdout

    def plug(self, name: str, geometry: str, primary: bool = False, rate: float | None = None, **monitor: Any) -> None:
        """Plugs a monitor: `geometry` is WxH+X+Y. `monitor` keywords are the EDID's (`manufacturer`,
        `model`, `serial_number`, `physical_size`, `edid`: a file), for a kind whose outputs take one."""
        fields = {"".join(w.capitalize() if i else w for i, w in enumerate(k.split("_"))): v for k, v in monitor.items()}
        if "edid" in fields:
            fields["edid"] = os.path.abspath(os.fspath(fields["edid"]))
        self._control.request("plug", name=name, geometry=geometry, primary=primary, rate=rate, **fields)

    def unplug(self, name: str, keep_primary: bool = False) -> None:
        """Unplugs a monitor."""
        self._control.request("unplug", name=name, keepPrimary=keep_primary)

    def mode(self, name: str, size: str, rate: float | None = None) -> dict[str, Any]:
        """Sets a monitor's mode (WxH, and the rate nearest `rate`); returns the mode set."""
        return self._control.request("mode", name=name, size=size, rate=rate)["mode"]

    def screens(self) -> list[dict[str, Any]]:
        """The screens as `multihead screens --json` lists them, main first."""
        return self._control.request("screens")["screens"]

    def screenshot(self, path: str | os.PathLike, screen: str | None = None) -> Path:
        """Writes a PNG of one screen (by name), or of the whole desktop, and returns its path."""
        whole = os.path.abspath(os.fspath(path))
        self._control.request("screenshot", output=whole, screen=screen)
        return Path(path)

    def pixel(self, x: int, y: int, screen: str | None = None) -> str:
        """One pixel as "#rrggbb": at (x, y) of a screen (by name), or of the desktop."""
        return self._control.request("pixel", x=x, y=y, screen=screen)["pixel"]

    def watch(self, timeout: float = 10.0) -> Watch:
        """Starts watching the screen events (see `Watch`): each `next()` waits up to `timeout` seconds."""
        return Watch(self, timeout)


class MultiheadServer(_Screens):
    """A `multihead server` of its own (the marker's `fresh=True`, or a worker's warm server), with the
    monitors it was asked for.

    `display` and `xauthority` are what an X client needs; `env` is a copy of `os.environ` with both set,
    for `subprocess`. A failing request raises `MultiheadError` with the CLI's exit status and message."""

    def __init__(self, binary: str, monitors: Sequence[str] | None = None, kind: str = "xvfb", glx: bool = False):
        if kind not in KINDS:
            raise ValueError(f"unknown multihead kind {kind!r}: one of {', '.join(KINDS)}")
        self.binary = binary
        self.kind = kind
        args = ["server", *KINDS[kind], *(["--glx"] if glx else [])]
        if monitors:
            args += ["--monitors", ",".join(monitors)]
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
            self.stop()
            raise MultiheadError(args, None, self._stderr_text(), f"printed no DISPLAY within {START_TIMEOUT:g} s")
        finally:
            lines.close()
        self._control = Control(values["MULTIHEAD_CONTROL"])
        self._set(values["DISPLAY"], values["XAUTHORITY"], int(values["PID"]))

    def _set(self, display: str, xauthority: str, pid: int) -> None:
        self.display: str = display
        self.xauthority: str = xauthority
        #: The X server's process ID.
        self.pid = pid
        self.env: dict[str, str] = dict(os.environ, DISPLAY=display, XAUTHORITY=xauthority)
        self.env.pop("MULTIHEAD_CONTROL", None)

    def alive(self) -> bool:
        """Whether the `multihead server` process still runs."""
        return self._proc.poll() is None

    def _stderr_text(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")

    def lease(self, monitors: Sequence[str] | None = None) -> "Lease":
        """Ends the lease held (its clients closed, the server reset to fresh and checked) and leases the
        server again with `monitors` (default: the layout it started with)."""
        answer = self._control.request("lease", monitors=list(monitors) if monitors else None)
        return Lease(self, answer)

    def stop(self) -> None:
        """Stops the server (SIGTERM to `multihead server`, which ends the X server and removes its files)."""
        if getattr(self, "_control", None):
            self._control.close()
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGTERM)
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
        self.display: str = answer["display"]
        self.xauthority: str = answer["xauthority"]
        #: The X server's process ID.
        self.pid: int = answer["pid"]
        self.warm: bool = answer["warm"]
        self.replaced: bool = answer["replaced"]
        self.reason: str | None = answer.get("reason")
        self.env: dict[str, str] = dict(os.environ, DISPLAY=self.display, XAUTHORITY=self.xauthority)
        self.env.pop("MULTIHEAD_CONTROL", None)
        self._released = False

    def stop(self) -> None:
        """Ends the lease: its clients are closed and the server reset for the next test."""
        if not self._released:
            self._released = True
            self._control.request("release")
