"""The pytest plugin: the `multihead_server` fixture, the `multihead` marker and the command line options."""

from __future__ import annotations

import os
import shutil

import pytest

from .server import KINDS, MultiheadError, MultiheadServer


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("multihead", "private X servers with monitors (multihead)")
    group.addoption("--multihead-kind", choices=sorted(KINDS), default=None,
                    help="the kind of server for tests whose marker names none (default: xvfb)")
    group.addoption("--multihead-bin", default=None,
                    help="the multihead command line tool (default: multihead on PATH)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "multihead(monitors=None, kind=None, glx=False): the monitor sizes (left to right, the first primary), "
        "the kind of server (xvfb, xorg-dummy, xorg) that this test's multihead_server starts, and whether it "
        "keeps the GLX extension")


def _binary(config: pytest.Config) -> str:
    given = config.getoption("--multihead-bin") or "multihead"
    found = shutil.which(given)
    if found is None:
        pytest.fail(f"multihead: {given!r} is not an executable (give --multihead-bin, or put multihead on PATH)",
                    pytrace=False)
    return found


@pytest.fixture
def multihead_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """A private X server for this test, from `multihead server`; stopped when the test ends.

    The test's `@pytest.mark.multihead(monitors=[...], kind=..., glx=False)` sets its layout, kind and
    whether the server keeps GLX; else the
    CLI's default layout on `--multihead-kind` (default xvfb). A failing test gets a PNG of each screen,
    named in its report."""
    marker = request.node.get_closest_marker("multihead")
    options = dict(marker.kwargs) if marker else {}
    unknown = set(options) - {"monitors", "kind", "glx"}
    if unknown:
        raise pytest.UsageError(f"multihead marker: unknown argument(s) {', '.join(sorted(unknown))}")
    kind = options.get("kind") or request.config.getoption("--multihead-kind") or "xvfb"
    monitors = options.get("monitors")
    if isinstance(monitors, str):
        monitors = [monitors]
    server = MultiheadServer(_binary(request.config), monitors=monitors, kind=kind, glx=bool(options.get("glx")))
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
