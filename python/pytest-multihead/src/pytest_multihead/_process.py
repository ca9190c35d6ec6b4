"""The processes a killed server leaves, found and ended by pidfd: whether a PID is still the X server a
`multihead server` started (a child or grandchild, not a stranger that took a reused PID), signals and
waits by pidfd, and the files the two would have removed on a normal end (MultiheadServer.kill)."""

from __future__ import annotations

import os
import selectors
import shutil
import signal
from pathlib import Path


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
