"""A private X server started through the `multihead` command line tool, and what a test does with it."""

from __future__ import annotations

import json
import os
import selectors
import signal
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
    """A `multihead` command failed: its arguments, its exit status and what it wrote on stderr."""

    def __init__(self, args: Sequence[str], status: int | None, stderr: str, reason: str | None = None):
        self.args_ = list(args)
        self.status = status
        self.stderr = stderr
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


class MultiheadServer:
    """A private X server (`multihead server`) for one test, with the monitors it was asked for.

    `display` and `xauthority` are what an X client needs; `env` is a copy of `os.environ` with both set,
    for `subprocess`. `plug`, `unplug`, `mode`, `screens`, `screenshot` and `watch` run the CLI against it;
    a failing one raises `MultiheadError` with the CLI's exit status and stderr."""

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
        self.display: str = values["DISPLAY"]
        self.xauthority: str = values["XAUTHORITY"]
        #: The X server's process ID.
        self.pid = int(values["PID"])
        self.env: dict[str, str] = dict(os.environ, DISPLAY=self.display, XAUTHORITY=self.xauthority)

    def _stderr_text(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")

    def run(self, *args: str) -> str:
        """Runs `multihead ARGS…` against this server and returns its stdout; MultiheadError on failure."""
        done = subprocess.run([self.binary, *args], env=self.env, capture_output=True, text=True,
                              timeout=START_TIMEOUT)
        if done.returncode != 0:
            raise MultiheadError(args, done.returncode, done.stderr)
        return done.stdout

    def plug(self, name: str, geometry: str, primary: bool = False, rate: float | None = None, **monitor: Any) -> None:
        """Plugs a monitor: `geometry` is WxH+X+Y. `monitor` keywords are passed as `--key value` options
        (underscores become dashes), for a kind whose `plug` takes a monitor description."""
        args = ["plug", name, geometry]
        if primary:
            args.append("--primary")
        if rate is not None:
            args += ["--rate", f"{rate:g}"]
        for key, value in monitor.items():
            args += [f"--{key.replace('_', '-')}", str(value)]
        self.run(*args)

    def unplug(self, name: str) -> None:
        """Unplugs a monitor."""
        self.run("unplug", name)

    def mode(self, name: str, size: str, rate: float | None = None) -> None:
        """Sets a monitor's mode (WxH, and the rate nearest `rate`)."""
        self.run("mode", name, size, *(["--rate", f"{rate:g}"] if rate is not None else []))

    def screens(self) -> list[dict[str, Any]]:
        """The screens as `multihead screens --json` lists them, main first."""
        return json.loads(self.run("screens", "--json"))

    def screenshot(self, path: str | os.PathLike, screen: str | None = None) -> Path:
        """Writes a PNG of one screen (by name), or of the whole desktop, and returns its path."""
        self.run("screenshot", "--output", os.fspath(path), *(["--screen", screen] if screen else []))
        return Path(path)

    def watch(self, timeout: float = 10.0) -> Watch:
        """Starts watching the screen events (see `Watch`): each `next()` waits up to `timeout` seconds."""
        return Watch(self, timeout)

    def stop(self) -> None:
        """Stops the server (SIGTERM to `multihead server`, which ends the X server and removes its files)."""
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGTERM)
            try:
                self._proc.wait(timeout=START_TIMEOUT)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._proc.stdout.close()
        self._stderr.close()
