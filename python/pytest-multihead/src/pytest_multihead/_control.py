"""Talking to a `multihead server` and the CLI: `Control`, the client of its control socket (one JSON
line a request, one its answer: docs/control-socket.md); `LineReader`, whole lines from a child's pipe with
a timeout; and `Watch`, `multihead watch --json` read event by event. All are importable from server.py
(and LineReader and Watch from the package), which uses them."""

from __future__ import annotations

import json
import os
import select
import selectors
import socket
import subprocess
import time
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from ._errors import ControlError, MultiheadError

if TYPE_CHECKING:
    from .server import MultiheadServer

#: How long a server may take to start, and a command to answer, before the test fails (seconds).
START_TIMEOUT = 60.0


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


def _word(value: Any) -> str:
    """A field's value as the request's words in messages show it: a list as the CLI's comma-separated
    form, unless that would hide an empty or comma-holding item (then as JSON)."""
    if isinstance(value, list):
        items = [str(v) for v in value]
        return json.dumps(items) if not items or any(not i or "," in i for i in items) else ",".join(items)
    return str(value)
