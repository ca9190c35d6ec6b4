// The backend is built on the model, and code that imports only `MultiheadX11` (as the docs once showed)
// still finds the model's types, `Bitmap` among them since it moved there.
@_exported import Multihead
