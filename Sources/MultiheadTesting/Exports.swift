// The kit is built on the X11 backend and on the server control: code that imports `MultiheadTesting`
// alone finds `X11Backend` and `ServerControl` (`server.controlConnection()` returns one).
@_exported import MultiheadX11
@_exported import MultiheadServerControl
