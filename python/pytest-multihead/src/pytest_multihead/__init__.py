"""pytest-multihead: a private X server with the monitors a test asks for, and hotplug in a call."""

from .server import KINDS, LineReader, MultiheadError, MultiheadServer, Watch

__all__ = ["KINDS", "LineReader", "MultiheadError", "MultiheadServer", "Watch"]
