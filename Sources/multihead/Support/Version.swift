/// Multihead's version: what `multihead --version` prints, and the version of the .deb and the wheel
/// (`Scripts/package` reads it from this line, `python/pytest-multihead/setup.py` too). The one place it
/// is written.
let multiheadVersion = "0.1.0"
