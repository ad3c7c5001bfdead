# What the plugin answers Hermes, without Hermes: python3 hermes_plugin_check.py
from hermes_hooks import hermes_plugin


class Context:
    """The one call of Hermes' plugin context that a hook plugin makes."""

    def __init__(self):
        self.hooks = {}

    def register_hook(self, event, callback):
        self.hooks[event] = callback


ctx = Context()
hermes_plugin.register(ctx)
print(len(ctx.hooks), "Hermes events registered")
print(ctx.hooks["pre_tool_call"](tool_name="terminal", args={"command": "rm -rf /"}, task_id="t1"))
