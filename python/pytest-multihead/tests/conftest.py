"""The plugin's own tests run pytest inside pytest (pytester), each against the `multihead` given by
--multihead-bin (Scripts/test passes the one it built)."""

import os

pytest_plugins = ["pytester"]

# pytester gives each inner session a HOME of its own: the driver the default kind (Xorg with Multihead's
# driver) needs stays in the user's cache, found through XDG_CACHE_HOME, instead of being built per session.
os.environ.setdefault("XDG_CACHE_HOME", os.path.join(os.path.expanduser("~"), ".cache"))
