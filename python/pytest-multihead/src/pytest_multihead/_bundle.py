"""Where the `multihead` command line tool a platform wheel carries is (`bin/multihead` inside this
package, with Multihead's Xorg driver in `lib/multihead/drivers/`, where the CLI looks beside itself).
No pytest here: the wheel's `multihead` console command imports this module only."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def bundled_binary() -> str | None:
    """The CLI inside this package, if this is a wheel that carries one (`Scripts/package`)."""
    path = Path(__file__).resolve().parent / "bin" / "multihead"
    return str(path) if os.access(path, os.X_OK) else None


def main() -> None:
    """The wheel's `multihead` console command: runs the CLI it carries, in this process's place."""
    path = bundled_binary()
    if path is None:
        sys.stderr.write("multihead: this installation of pytest-multihead carries no multihead CLI "
                         "(install the wheel Scripts/package builds, or Multihead's .deb)\n")
        sys.exit(127)
    os.execv(path, [path, *sys.argv[1:]])
