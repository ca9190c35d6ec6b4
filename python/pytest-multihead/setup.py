"""What pyproject.toml cannot say statically.

- The version is Multihead's, from its one place: `Sources/multihead/Support/Version.swift` of the clone
  this project sits in (`pip install ./python/pytest-multihead` builds in place). An sdist has no clone
  around it: Scripts/package writes the version into `VERSION` beside this file in its copy of the
  project, which the sdist carries (MANIFEST.in), and that file is read first.
- A wheel built with the `multihead` CLI, Multihead's Xorg driver and its Wayland compositor inside the
  package (`bin/multihead`, `lib/multihead/drivers/multihead_drv.so`, `lib/multihead/multihead-compositor`:
  Scripts/package puts them there) is a platform wheel: its files in platlib (Root-Is-Purelib: false), tagged
  `py3-none-linux_x86_64` (the binaries run on any Python). `auditwheel repair` (Scripts/package) then
  copies in the libraries no manylinux policy allows (libXrandr, libxcb-randr, wlroots 0.15, …), rewrites
  the binaries' run paths and retags it `py3-none-manylinux_2_36_x86_64`, which PyPI takes. It installs a
  `multihead` console command that runs the CLI inside. Without them (an sdist's build), a pure wheel: the
  plugin, which runs a `multihead` from PATH (Multihead's .deb).
"""

import pathlib
import re
import sysconfig

from setuptools import Distribution, setup

HERE = pathlib.Path(__file__).resolve().parent
BUNDLED = (HERE / "src" / "pytest_multihead" / "bin" / "multihead").exists()


def version() -> str:
    carried = HERE / "VERSION"
    if carried.exists():
        return carried.read_text().strip()
    swift = HERE.parent.parent / "Sources" / "multihead" / "Support" / "Version.swift"
    try:
        found = re.search(r'^let multiheadVersion = "([^"]+)"', swift.read_text(), re.M)
    except OSError as error:
        raise SystemExit(f"pytest-multihead takes Multihead's version from {swift}: {error}") from None
    if found is None:
        raise SystemExit(f"pytest-multihead: no `let multiheadVersion = \"…\"` line in {swift}")
    return found.group(1)


commands = {}
distclass = Distribution
entry_points = {"pytest11": ["multihead = pytest_multihead.plugin"]}
if BUNDLED:
    try:
        from setuptools.command.bdist_wheel import bdist_wheel
    except ImportError:  # setuptools before 70.1
        from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        """Any Python 3, this platform: the package carries executables, no extension module; its files
        go to platlib, where auditwheel looks for the binaries it repairs."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            return "py3", "none", sysconfig.get_platform().replace("-", "_").replace(".", "_")

    class PlatformDistribution(Distribution):
        """A distribution with platform files: setuptools installs the package into platlib (the wheel's
        root), not into `.data/purelib`, where auditwheel refuses binaries."""

        def has_ext_modules(self):
            return True

    commands["bdist_wheel"] = PlatformWheel
    distclass = PlatformDistribution
    entry_points["console_scripts"] = ["multihead = pytest_multihead._bundle:main"]

setup(version=version(), cmdclass=commands, entry_points=entry_points, distclass=distclass)
