"""The pytest plugin: the `multihead_server` fixture, the `multihead` marker and the command line options."""

from __future__ import annotations

import os
import shutil

import pytest

from ._bundle import bundled_binary
from .server import KINDS, MultiheadError, MultiheadServer


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("multihead", "private X servers with monitors (multihead)")
    group.addoption("--multihead-kind", choices=sorted(KINDS), default=None,
                    help="the kind of server for tests whose marker names none (default: xvfb)")
    group.addoption("--multihead-bin", default=None,
                    help="the multihead command line tool (default: $MULTIHEAD_BIN, else the one this wheel "
                         "carries, else multihead on PATH)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "multihead(monitors=None, kind=None, glx=False, fresh=False): the monitor sizes (left to right, the "
        "first primary), the kind of server (xvfb, xorg-dummy, xorg) of this test's multihead_server, whether it "
        "keeps the GLX extension, and whether it is a server of the test's own instead of a lease of the "
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


def _warm_server(config: pytest.Config, kind: str, glx: bool) -> MultiheadServer:
    """This process's (this worker's) warm server of a kind, started at the first test that needs it and
    stopped at the session's end; started again if it has ended."""
    hosts = config.stash.setdefault(_HOSTS, {})
    host = hosts.get((kind, glx))
    if host is None or not host.alive():
        if host is not None:
            host.stop()
        host = MultiheadServer(_binary(config), kind=kind, glx=glx)
        hosts[(kind, glx)] = host
    return host


def pytest_unconfigure(config: pytest.Config) -> None:
    for host in config.stash.get(_HOSTS, {}).values():
        host.stop()


@pytest.fixture
def multihead_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """A private X server for this test, with the monitors its marker asks for.

    By default a lease of this worker's warm `multihead server` (one per kind and GLX, started at the first
    test that needs it): the server reset to fresh and checked, with a cookie of the test's own that the
    teardown revokes (every client the test started is closed then). `@pytest.mark.multihead(fresh=True)`
    starts a server of the test's own, stopped when it ends: for a test that kills, freezes or waits for
    the end of its server. The marker's `monitors`, `kind` and `glx` set the layout, the kind (default
    `--multihead-kind`, else xvfb) and whether the server keeps GLX. A failing test gets a PNG of each
    screen, named in its report."""
    marker = request.node.get_closest_marker("multihead")
    options = dict(marker.kwargs) if marker else {}
    unknown = set(options) - {"monitors", "kind", "glx", "fresh"}
    if unknown:
        raise pytest.UsageError(f"multihead marker: unknown argument(s) {', '.join(sorted(unknown))}")
    kind = options.get("kind") or request.config.getoption("--multihead-kind") or "xvfb"
    if kind not in KINDS:
        raise pytest.UsageError(f"multihead marker: unknown kind {kind!r}: one of {', '.join(KINDS)}")
    monitors = options.get("monitors")
    if isinstance(monitors, str):
        monitors = [monitors]
    glx = bool(options.get("glx"))
    if options.get("fresh"):
        server = MultiheadServer(_binary(request.config), monitors=monitors, kind=kind, glx=glx)
    else:
        server = _warm_server(request.config, kind, glx).lease(monitors)
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
        folder = factory.mktemp(f"multihead-{item.name}"[:60], numbered=True)
        lines = []
        try:
            for i, screen in enumerate(server.screens()):
                path = server.screenshot(folder / f"{i}-{screen['name']}.png", screen=screen["name"])
                lines.append(f"{screen['name']}: {path}")
                # On the item: the teardown's report, which JUnit XML reads properties from, copies them.
                item.user_properties.append(("multihead screenshot", os.fspath(path)))
                report.user_properties.append(("multihead screenshot", os.fspath(path)))
        except MultiheadError as error:
            lines.append(f"no screenshot: {error}")
        report.sections.append(("multihead screens", "\n".join(lines)))
