"""What a test asks of the windows and the layout on its server (mixed into the server and lease classes):
`windows`, `move_window`, `fullscreen_window`, `wait_for_window`, `wait_for_layout`, `configuration_serial`,
`wait_for_configuration`."""

from __future__ import annotations

import time
from typing import Any, Callable, Sequence

from ._layout import describe_layout, layout_matches

#: How often the waits below ask again where no event wakes them: windows have no event the CLI reports,
#: and the wayland kind's layout none it reports without starting Xwayland.
POLL_INTERVAL = 0.02


def window_id(window: int | dict[str, Any]) -> int:
    """A window's id: an element of `windows()` or the id itself."""
    return window["id"] if isinstance(window, dict) else int(window)


def frame_fields(frame: Sequence[int] | dict[str, int]) -> dict[str, int]:
    """`move_window`'s frame as the request's fields: (x, y), (x, y, width, height), or a dict of those keys
    with x and y together and width and height together."""
    if isinstance(frame, dict):
        unknown = set(frame) - {"x", "y", "width", "height"}
        if unknown or ("x" in frame) != ("y" in frame) or ("width" in frame) != ("height" in frame) or "x" not in frame:
            raise ValueError(f"frame takes x and y, and width with height, not {frame!r}")
        return {k: int(v) for k, v in frame.items()}
    values = list(frame)
    if len(values) not in (2, 4):
        raise ValueError(f"frame must be (x, y) or (x, y, width, height), not {frame!r}")
    return dict(zip(("x", "y", "width", "height"), (int(v) for v in values)))


class _Windows:
    """Windows and the layout, through the control socket (`_request`, `screens`, `env` and `watch` are the
    class's it is mixed into)."""

    def windows(self) -> list[dict[str, Any]]:
        """Every top-level window, front first, as `multihead windows --json` lists them: `id`, `title`,
        `appId` (X: the class of WM_CLASS), `pid`, `frame` (`x`, `y`, `width`, `height`, in the screens'
        coordinates), `screen` (the monitor it is mostly on, or None) and `state` (`normal`, `maximized`,
        `fullscreen`, `minimized`)."""
        return self._request("windows")["windows"]

    def move_window(self, window: int | dict[str, Any], screen: str,
                    frame: Sequence[int] | dict[str, int] | None = None) -> dict[str, Any]:
        """Puts a window (an element of `windows()`, or its `id`) on `screen`: at `frame` in the screen's own
        coordinates, `(x, y)` (its size kept) or `(x, y, width, height)` (or a dict of those keys), else at
        its top-left corner with its size; out of fullscreen or maximized first. Returns the window as it is
        then (on the wayland kind a native client's new size may come later: `wait_for_window`)."""
        fields = frame_fields(frame) if frame is not None else {}
        return self._request("move_window", window=window_id(window), screen=screen, **fields)["window"]

    def fullscreen_window(self, window: int | dict[str, Any], screen: str) -> dict[str, Any]:
        """Makes a window (an element of `windows()`, or its `id`) fill `screen`, as its window manager's
        fullscreen would (the compositor's on `wayland`). Returns the window as it is then."""
        return self._request("fullscreen_window", window=window_id(window), screen=screen)["window"]

    def wait_for_window(self, predicate: Callable[[dict[str, Any]], bool] | None = None,
                        timeout: float = 10.0) -> dict[str, Any]:
        """The first window of `windows()` for which `predicate` holds (any window without one), asked
        again every 20 ms until `timeout`: a window mapped by its client is listed once its window manager
        (or the compositor) shows it, a moment later. TimeoutError says which windows there were."""
        deadline = time.monotonic() + timeout
        while True:
            listed = self.windows()
            found = next((w for w in listed if predicate is None or predicate(w)), None)
            if found is not None:
                return found
            if time.monotonic() >= deadline:
                shown = ", ".join(f"{w['id']} {w['title']!r} on {w['screen']}" for w in listed) or "none"
                raise TimeoutError(f"no such window within {timeout:g} s; the windows: {shown}")
            time.sleep(POLL_INTERVAL)

    def configuration_serial(self) -> int:
        """The configuration serial now: a number that grows with every change of the screens' configuration,
        whoever makes it, and stays while nothing changes (docs/control-socket.md). `plug` and `unplug`
        return the one their change made."""
        return self._request("screens")["configurationSerial"]

    def wait_for_layout(self, expected: dict[str, Any], timeout: float = 10.0) -> list[dict[str, Any]]:
        """Waits until the screens are as `expected` and returns them (as `screens()` lists them): the barrier
        for "the output manager has applied" (kanshi, autorandr run from a hook, the app under test).
        `expected` maps a screen's name to its frame ("WxH+X+Y", or a dict of `x`, `y`, `width`,
        `height`), to a dict of what to check among `frame`, `scale` and `primary`, or to None (the screen
        must be absent); screens it does not name are not checked. On the X kinds the screens are read at
        once and again after each screen event (`watch`); on the wayland kind, whose own changes the CLI
        does not report (watching Xwayland would start it), every 20 ms. TimeoutError after `timeout`
        seconds says what they were then."""
        answer = self._wait_for_screens(lambda a: layout_matches(a["screens"], expected), timeout,
                                        lambda a: f"the screens were not as expected within {timeout:g} s: "
                                                  f"{describe_layout(a['screens'])}")
        return answer["screens"]

    def wait_for_configuration(self, after: int, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Waits until the configuration serial is past `after` (the one `plug` or `unplug` returned, or
        `configuration_serial()`), and returns the screens then: the barrier for "something reacted to my
        change" when the test does not know the layout to expect. Read as `wait_for_layout` reads; a
        TimeoutError after `timeout` seconds when nothing changed."""
        answer = self._wait_for_screens(lambda a: a["configurationSerial"] > after, timeout,
                                        lambda a: f"the configuration stayed at serial {a['configurationSerial']} (not past "
                                                  f"{after}) for {timeout:g} s: {describe_layout(a['screens'])}")
        return answer["screens"]

    def _wait_for_screens(self, done: Callable[[dict[str, Any]], bool], timeout: float,
                          failure: Callable[[dict[str, Any]], str]) -> dict[str, Any]:
        """The socket's `screens` answer once `done` holds of it: read at once and again after each screen
        event on X, every 20 ms on the wayland kind."""
        from .server import MultiheadError  # the classes this is mixed into are server.py's
        deadline = time.monotonic() + timeout
        watch = None
        if "WAYLAND_DISPLAY" not in self.env and self.env.get("DISPLAY"):
            try:
                watch = self.watch(timeout=timeout)
            except MultiheadError:
                watch = None
        try:
            while True:
                answer = self._request("screens")
                if done(answer):
                    return answer
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(failure(answer))
                if watch is None:
                    time.sleep(min(POLL_INTERVAL, left))
                    continue
                watch.timeout = left
                try:
                    next(watch)
                except TimeoutError:
                    pass
                except StopIteration:  # the watch ended: asked again on time from here
                    watch.close()
                    watch = None
        finally:
            if watch is not None:
                watch.close()
