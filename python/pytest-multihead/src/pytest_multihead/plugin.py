"""The pytest plugin: the `multihead_server` fixture, the `multihead` marker and the command line options."""

from __future__ import annotations

import os
import shutil
import time

import pytest

from ._bundle import bundled_binary
from .server import KINDS, MultiheadError, MultiheadServer, MultiheadWarning, _layout, _layout_refusal

#: How long a failing test's screenshots may take, all screens together (seconds): more than the X
#: server's watchdog (5 s), after which the server answers `notResponding`, and far less than a request's
#: usual timeout, so that a stuck server costs a failing test little.
SCREENSHOT_TIMEOUT = 10.0


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("multihead", "private X servers with monitors (multihead)")
    group.addoption("--multihead-kind", choices=sorted(KINDS), default=None,
                    help="the kind of server for tests whose marker names none (default: the CLI's: xorg, Xorg with "
                         "Multihead's driver, where it can start, else xvfb with a MultiheadWarning saying why)")
    group.addoption("--multihead-bin", default=None,
                    help="the multihead command line tool (default: $MULTIHEAD_BIN, else the one this wheel "
                         "carries, else multihead on PATH)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "multihead(monitors=None, kind=None, glx=False, wm=False, fresh=False): the monitor sizes (\"1920x1080,1280x720\" "
        "or a list of sizes, left to right, the first primary), the kind of server (xorg, xvfb, xorg-dummy, or wayland: Multihead's Wayland compositor, whose env has WAYLAND_DISPLAY, XDG_RUNTIME_DIR and DISPLAY for Xwayland; default "
        "--multihead-kind, else the CLI's default) of this test's multihead_server, whether it "
        "keeps the GLX extension, whether openbox manages its windows (X kinds), and whether it is a server of the test's own instead of a lease of the "
        "worker's warm one")


def _binary(config: pytest.Config) -> str:
    """`--multihead-bin`, else `$MULTIHEAD_BIN`, else the CLI this wheel carries, else `multihead` on PATH."""
    given = config.getoption("--multihead-bin") or os.environ.get("MULTIHEAD_BIN") or bundled_binary() or "multihead"
    found = shutil.which(given)
    if found is None:
        pytest.fail(f"multihead: {given!r} is not an executable (give --multihead-bin or MULTIHEAD_BIN, install "
                    "the wheel that carries the CLI, or put multihead on PATH)", pytrace=False)
    return found


_HOSTS = pytest.StashKey[dict]()


def _warm_server(config: pytest.Config, kind: str | None, glx: bool) -> tuple[MultiheadServer, str | None, bool]:
    """This process's (this worker's) warm server of a kind (None: the CLI's default kind), started at the
    first test that needs it and stopped at the session's end, why it was replaced, if it was, and whether
    it was started now. Before it is handed out it must answer `hello` within a few seconds (HELLO_TIMEOUT):
    one that does not, or whose process has ended, is killed (by PID) and replaced by a fresh one."""
    hosts = config.stash.setdefault(_HOSTS, {})
    host = hosts.get((kind, glx))
    replaced = None
    if host is not None:
        failure = host.check()
        if failure is not None:
            host.kill()
            del hosts[(kind, glx)]
            replaced = f"the worker's warm {host.kind} server was replaced by a fresh one: {failure}"
            host = None
    started = host is None
    if host is None:
        host = MultiheadServer(_binary(config), kind=kind, glx=glx)
        hosts[(kind, glx)] = host
    return host, replaced, started


def pytest_unconfigure(config: pytest.Config) -> None:
    for host in config.stash.get(_HOSTS, {}).values():
        if host.failure is not None:
            host.kill()
        else:
            host.stop()


@pytest.fixture
def multihead_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """A private X server for this test, with the monitors its marker asks for.

    By default a lease of this worker's warm `multihead server` (one per kind and GLX, started at the first
    test that needs it): the server reset to fresh and checked, with a cookie of the test's own that the
    teardown revokes (every client the test started is closed then). `@pytest.mark.multihead(fresh=True)`
    starts a server of the test's own, stopped when it ends: for a test that kills, freezes or waits for
    the end of its server. With `wm=True` the test's lease runs openbox, set up for tests (fullscreen and
    maximize per monitor, a window on an unplugged monitor moved to the main one; the compositor of
    `kind="wayland"` is its own window manager). The marker's `monitors`, `kind` and `glx` set the layout, the kind (default
    `--multihead-kind`, else the CLI's default: Xorg with Multihead's driver where it can start, else Xvfb,
    and then the test that started the server gets a MultiheadWarning saying why) and whether the server
    keeps GLX. A failing test gets a PNG of each screen, named in its report."""
    marker = request.node.get_closest_marker("multihead")
    options = dict(marker.kwargs) if marker else {}
    if marker and marker.args:
        raise pytest.UsageError(f"multihead marker: takes keyword arguments only (monitors=, kind=, glx=, wm=, fresh=), "
                                f"got {', '.join(map(repr, marker.args))}")
    unknown = set(options) - {"monitors", "kind", "glx", "wm", "fresh"}
    if unknown:
        raise pytest.UsageError(f"multihead marker: unknown argument(s) {', '.join(sorted(unknown))}")
    kind = options.get("kind") or request.config.getoption("--multihead-kind") or None
    if kind is not None and kind not in KINDS:
        raise pytest.UsageError(f"multihead marker: unknown kind {kind!r}: one of {', '.join(KINDS)}")
    refusal = _layout_refusal(options.get("monitors"))
    if refusal is not None:
        raise pytest.UsageError(f"multihead marker: {refusal}")
    monitors = _layout(options.get("monitors"))
    glx = bool(options.get("glx"))
    wm = bool(options.get("wm"))
    if options.get("fresh"):
        server = MultiheadServer(_binary(request.config), monitors=monitors, kind=kind, glx=glx, wm=wm)
        notice = server.notice
    else:
        host, replaced, started = _warm_server(request.config, kind, glx)
        if replaced is not None:
            request.node.warn(MultiheadWarning(replaced))
        notice = host.notice if started else None
        server = host.lease(monitors, wm=wm)
        if replaced is not None:
            server.replaced, server.reason = True, replaced
    if notice is not None:
        request.node.warn(MultiheadWarning(notice))
    request.node._multihead = (server, tmp_path_factory)
    try:
        yield server
    finally:
        del request.node._multihead
        server.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    attached = getattr(item, "_multihead", None)
    if attached and report.when == "call" and report.failed:
        server, factory = attached
        report.sections.append(("multihead screens", "\n".join(_screenshots(item, report, server, factory))))


def _screenshots(item: pytest.Item, report: pytest.TestReport, server, factory: pytest.TempPathFactory) -> list[str]:
    """Takes a PNG of each screen of a failing test's server, within SCREENSHOT_TIMEOUT all told; returns
    the report's lines: a path per screen, or why there is none. Whatever goes wrong becomes a line: a
    report hook that raised would end the whole session."""
    lines = []
    deadline = time.monotonic() + SCREENSHOT_TIMEOUT
    left = lambda: max(deadline - time.monotonic(), 0.001)
    try:
        folder = factory.mktemp(f"multihead-{item.name}"[:60], numbered=True)
        for i, screen in enumerate(server._request("screens", timeout=left())["screens"]):
            # The name is the server's: only its safe characters go into a file name.
            safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in str(screen["name"]))[:64]
            path = folder / f"{i}-{safe}.png"
            server._request("screenshot", output=os.path.abspath(path), screen=screen["name"], timeout=left())
            lines.append(f"{screen['name']}: {path}")
            # On the item: the teardown's report, which JUnit XML reads properties from, copies them.
            item.user_properties.append(("multihead screenshot", os.fspath(path)))
            report.user_properties.append(("multihead screenshot", os.fspath(path)))
    except MultiheadError as error:
        lines.append(f"no screenshot: {error}")
    except Exception as error:  # noqa: BLE001 - a bug here must not end the session either
        lines.append(f"no screenshot: {type(error).__name__}: {error}")
    return lines
