"""What pyproject.toml cannot say statically.

- The version is Multihead's, from its one place: `Sources/multihead/Support/Version.swift` of the clone
  this project sits in (`pip install ./python/pytest-multihead` builds in place; Scripts/package copies
  that file beside its copy of the project).
- A wheel built with the `multihead` CLI and Multihead's Xorg driver inside the package (`bin/multihead`,
  `lib/multihead/drivers/multihead_drv.so`: Scripts/package puts them there) is a platform wheel,
  `py3-none-linux_x86_64` (the binaries run on any Python; `linux_`, not `manylinux_`, because the CLI
  links Debian's X libraries, libXrandr and libxcb-randr among them, which no manylinux policy allows), and
  installs a `multihead` console command that runs the CLI inside. Without them, a pure wheel as before.
"""

import pathlib
import re
import sysconfig

from setuptools import setup

HERE = pathlib.Path(__file__).resolve().parent
BUNDLED = (HERE / "src" / "pytest_multihead" / "bin" / "multihead").exists()


def version() -> str:
    swift = HERE.parent.parent / "Sources" / "multihead" / "Support" / "Version.swift"
    try:
        found = re.search(r'^let multiheadVersion = "([^"]+)"', swift.read_text(), re.M)
    except OSError as error:
        raise SystemExit(f"pytest-multihead takes Multihead's version from {swift}: {error}") from None
    if found is None:
        raise SystemExit(f"pytest-multihead: no `let multiheadVersion = \"…\"` line in {swift}")
    return found.group(1)


commands = {}
entry_points = {"pytest11": ["multihead = pytest_multihead.plugin"]}
if BUNDLED:
    try:
        from setuptools.command.bdist_wheel import bdist_wheel
    except ImportError:  # setuptools before 70.1
        from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        """Any Python 3, this platform: the package carries executables, no extension module."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            return "py3", "none", sysconfig.get_platform().replace("-", "_").replace(".", "_")

    commands["bdist_wheel"] = PlatformWheel
    entry_points["console_scripts"] = ["multihead = pytest_multihead._bundle:main"]

setup(version=version(), cmdclass=commands, entry_points=entry_points)
