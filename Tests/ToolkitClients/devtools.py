"""Chromium's DevTools protocol over its pipe (`--remote-debugging-pipe`: JSON messages ending in a NUL), for
the suite's Chromium clients (chromium-screens.py on X11, Compositor/tests/clients/chromium_screens.py on
Wayland). Only the standard library."""
import fcntl
import json
import os
import queue
import threading


class DevTools:
    """The DevTools protocol over Chromium's pipe: `call` waits for a command's answer; the events go to
    `events`. A closed pipe (Chromium ended) puts None there and fails every call waiting."""

    def __init__(self, to_chromium, from_chromium, timeout):
        self._out = to_chromium
        self._in = from_chromium
        self._next = 0
        self._answers = {}
        self._timeout = timeout
        self._ready = threading.Condition()
        self.closed = False
        self.events = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = b""
        while True:
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                break
            buffer += chunk
            while b"\0" in buffer:
                raw, _, buffer = buffer.partition(b"\0")
                message = json.loads(raw)
                if "id" in message:
                    with self._ready:
                        self._answers[message["id"]] = message
                        self._ready.notify_all()
                else:
                    self.events.put(message)
        with self._ready:
            self.closed = True
            self._ready.notify_all()
        self.events.put(None)

    def call(self, method, session=None, **params):
        self._next += 1
        number = self._next
        message = {"id": number, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        try:
            os.write(self._out, json.dumps(message).encode() + b"\0")
        except OSError:
            raise RuntimeError(f"{method}: Chromium ended") from None
        with self._ready:
            if not self._ready.wait_for(lambda: number in self._answers or self.closed, self._timeout):
                raise RuntimeError(f"{method}: no answer within {self._timeout} s")
            if number not in self._answers:
                raise RuntimeError(f"{method}: Chromium ended")
            answer = self._answers.pop(number)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error'].get('message')}")
        return answer["result"]


def high(fd):
    """The same pipe end on a descriptor above 9 (the other closed)."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved
