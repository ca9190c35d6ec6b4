"""The errors of a `multihead` command or control request: MultiheadError (its arguments, exit status,
message and stable error `code`) and ControlError (the control socket itself could not be used). They are
imported from server.py, as they were when defined there, and named as its (`__module__`), so that a
traceback says `pytest_multihead.server.MultiheadError` as before."""

from __future__ import annotations

from typing import Sequence


class MultiheadError(Exception):
    """A `multihead` command or control request failed: its arguments, its exit status (the one the CLI
    would exit with), what it said (`stderr`) and, for a request on the control socket, the stable error
    `code` (docs/control-socket.md)."""

    __module__ = "pytest_multihead.server"

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

    __module__ = "pytest_multihead.server"

    def __init__(self, args: Sequence[str], path: str, what: str):
        self.path = path
        #: What went wrong with the socket, without the request and the path.
        self.what = what
        super().__init__(args, 69, "", f"could not use the control socket {path}: {what}", code="controlUnavailable")
