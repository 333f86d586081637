"""The Jupyter server extension that sends kernel messages without delay (:mod:`rope_viz.server_extension`).

The extension's effect on a running server is checked in ``tests/live`` (the server's log) and measured in
``benchmarks/bench_kernel_websocket.py``; here, what it does to a handler class, and that installing the
package enables it.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from rope_viz import server_extension

ROOT = Path(__file__).resolve().parents[1]


class Handler:
    """Stands for tornado's WebSocketHandler: records the option and what ``open`` received."""

    def __init__(self) -> None:
        self.nodelay: list[bool] = []
        self.opened: list[str] = []

    def set_nodelay(self, value: bool) -> None:
        self.nodelay.append(value)

    async def open(self, kernel_id: str) -> str:
        assert self.nodelay == [True], "the option must be set before the handler's own open runs"
        self.opened.append(kernel_id)
        return "opened"


def finish(coroutine):
    """Run a coroutine that never waits to its end (no event loop: another test may hold one)."""
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("the coroutine waited")


def test_every_websocket_of_the_class_sets_nodelay_before_it_opens():
    class Kernel(Handler):
        pass

    original = Kernel.open
    assert server_extension.send_without_delay(Kernel)
    handler = Kernel()
    assert finish(handler.open("k-1")) == "opened"  # what open returns is still awaited by tornado
    assert handler.nodelay == [True] and handler.opened == ["k-1"]
    # Loading the extension again wraps nothing twice.
    wrapped = Kernel.open
    assert server_extension.send_without_delay(Kernel)
    assert Kernel.open is wrapped and wrapped is not original
    assert Kernel.open.__name__ == "open"


def test_a_class_without_set_nodelay_is_left_alone():
    class NotAWebsocket:
        async def open(self) -> None:
            return None

    original = NotAWebsocket.open
    assert not server_extension.send_without_delay(NotAWebsocket)
    assert NotAWebsocket.open is original


def test_installing_the_package_enables_the_extension():
    (point,) = server_extension._jupyter_server_extension_points()
    assert point == {"module": server_extension.__name__}
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data_files = pyproject["tool"]["setuptools"]["data-files"]["etc/jupyter/jupyter_server_config.d"]
    (config_file,) = data_files
    config = json.loads((ROOT / config_file).read_text(encoding="utf-8"))
    assert config == {"ServerApp": {"jpserver_extensions": {server_extension.__name__: True}}}
