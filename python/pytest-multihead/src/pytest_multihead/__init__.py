"""pytest-multihead: a private X server with the monitors a test asks for, and hotplug in a call."""

from .browsers import BrowserError, BrowserScreen, ScreensChange
from .server import KINDS, ControlError, LineReader, MultiheadError, MultiheadServer, MultiheadWarning, Watch

__all__ = ["KINDS", "BrowserError", "BrowserScreen", "ControlError", "LineReader", "MultiheadError", "MultiheadServer",
           "MultiheadWarning", "ScreensChange", "Watch"]
