// The kit is built on the X11 backend, and code written against it before `ServerControl` moved there
// (`import MultiheadTesting` alone) still finds it: the kit re-exports the backend's module.
@_exported import MultiheadX11
