"""The plugin's own tests run pytest inside pytest (pytester), each against the `multihead` given by
--multihead-bin (Scripts/test passes the one it built)."""

pytest_plugins = ["pytester"]
