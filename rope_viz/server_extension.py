"""A Jupyter server extension: kernel websockets send each message at once (``TCP_NODELAY``).

A live figure (:mod:`rope_viz.widgets.live`) asks the kernel for a state at every slider step and draws the
answer. The Jupyter server relays the answer to the browser over the kernel's websocket, and tornado leaves
Nagle's algorithm on for websockets: the end of a message that does not fill a TCP segment waits until the
browser acknowledges the data before it, and the browser delays that acknowledgement by up to 40 ms on
Linux. Through a server on 127.0.0.1, that wait made up most of a live step's round trip; with
``TCP_NODELAY`` the round trip is about four times shorter (``benchmarks/bench_kernel_websocket.py``, results
in ``benchmarks/README.md``). jupyter_server (2.17 to 2.21 at least) does not set the option, so this
extension sets it on every kernel websocket when it opens.

The package installs ``etc/jupyter/jupyter_server_config.d/rope_viz.json``, which enables the extension in
the environment it is installed into (as Binder installs ``requirements.txt``). Turn it off with
``jupyter server extension disable rope_viz.server_extension``. The option changes only when the server
sends: messages go out in as many TCP segments as before, without waiting.
"""

from __future__ import annotations

import functools
from typing import Any

#: Set on the handler's ``open`` once it is wrapped, so that loading the extension twice wraps it once.
_WRAPPED = "_rope_viz_nodelay"


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """Name this module as the extension jupyter_server loads (its extension-discovery protocol)."""
    return [{"module": "rope_viz.server_extension"}]


def send_without_delay(handler_class: type) -> bool:
    """Make every websocket of ``handler_class`` set ``TCP_NODELAY`` when it opens; return whether it did.

    Parameters
    ----------
    handler_class : type
        A tornado ``WebSocketHandler`` subclass (jupyter_server's ``KernelWebsocketHandler``).

    Returns
    -------
    bool
        False if the class has no ``open`` and ``set_nodelay`` to wrap; True once it is wrapped (also when
        it was already).

    """
    open_ = getattr(handler_class, "open", None)
    if open_ is None or not callable(getattr(handler_class, "set_nodelay", None)):
        return False
    if getattr(open_, _WRAPPED, False):
        return True

    @functools.wraps(open_)
    def open_without_delay(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.set_nodelay(True)
        return open_(self, *args, **kwargs)  # tornado awaits what ``open`` returns

    setattr(open_without_delay, _WRAPPED, True)
    handler_class.open = open_without_delay
    return True


def _load_jupyter_server_extension(server_app: Any) -> None:
    """Wrap jupyter_server's kernel websocket handler (called by jupyter_server when it starts)."""
    try:
        from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
    except ImportError as error:  # another server layout: leave it as it is
        server_app.log.warning("rope_viz: kernel websockets left as they are (%s)", error)
        return
    if send_without_delay(KernelWebsocketHandler):
        server_app.log.info("rope_viz: kernel websockets send without delay (TCP_NODELAY)")
    else:
        server_app.log.warning("rope_viz: kernel websockets left as they are (no open/set_nodelay)")
