"""Time a live figure's question to the kernel through the Jupyter server's websocket, without a browser.

Run from the repository root (the Binder-like venv must exist: ``tests/live/make_env.py``)::

    .venv/bin/python benchmarks/bench_kernel_websocket.py [--questions 60] [--demo MethodComparison]

The Binder-like server (``.venv-binder``) is started twice: with ``rope_viz.server_extension`` (TCP_NODELAY on
kernel websockets) and with the extension turned off in the server's user configuration, as ``jupyter server
extension disable --user`` does. Each time a kernel makes one live figure of the demo, and a websocket client
on 127.0.0.1 asks it, the way the figure's script does, for the state at one slider index after another
(``{"type": "state"}``, 50 ms apart) and waits for each answer. Reported: the round trip per question, and the
kernel's own time for the same states (``LiveFigure.last_update_seconds``) as the baseline. The browser's part
(drawing, its own event loop) is measured by ``bench_live.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import tornado.websocket  # noqa: E402
from jupyter_client import BlockingKernelClient  # noqa: E402
from percentiles import percentile  # noqa: E402  (run as a script: benchmarks/ is on the path)

from tests.live import jupyter_client  # noqa: E402

SETUP = """
import json, rope_viz.demos
from rope_viz.widgets import live_widget
_bench = live_widget({{cls.__name__: cls for cls in rope_viz.demos.all_demos()}}[{demo!r}]())
_bench_times = []
_bench_answer = _bench._on_message
def _timed(widget, content, buffers):
    _bench_answer(widget, content, buffers)
    _bench_times.append(_bench.last_update_seconds)
_bench.on_msg(_bench_answer, remove=True)
_bench.on_msg(_timed)
_bench_sizes = [len(grid) for grid in _bench.grids]
print(json.dumps({{"comm": _bench.comm.comm_id, "indices": _bench._indices, "sizes": _bench_sizes}}))
"""


def run_code(client: BlockingKernelClient, code: str) -> str:
    """Execute ``code`` in the kernel and return what it printed."""
    printed: list[str] = []

    def keep(message: dict[str, Any]) -> None:
        if message["header"]["msg_type"] == "stream":
            printed.append(message["content"]["text"])

    client.execute_interactive(code, timeout=120, output_hook=keep)
    return "".join(printed)


async def ask(
    server: jupyter_client.JupyterServer, kernel_id: str, figure: dict, questions: int
) -> list[float]:
    """Ask the figure for ``questions`` states over the kernel websocket; return the round trips in ms."""
    url = f"ws://127.0.0.1:{server.port}/api/kernels/{kernel_id}/channels?token={server.token}"
    socket = await tornado.websocket.websocket_connect(url)
    session = uuid.uuid4().hex
    slider = max(range(len(figure["sizes"])), key=lambda k: figure["sizes"][k])
    round_trips = []
    for number in range(questions):
        indices = list(figure["indices"])
        indices[slider] = (indices[slider] + number + 1) % figure["sizes"][slider]
        content = {"type": "state", "key": ",".join(map(str, indices)), "indices": indices, "current": True}
        message = {
            "header": {
                "msg_id": uuid.uuid4().hex,
                "username": "bench",
                "session": session,
                "msg_type": "comm_msg",
                "version": "5.3",
                "date": "",
            },
            "parent_header": {},
            "metadata": {},
            "channel": "shell",
            "buffers": [],
            "content": {"comm_id": figure["comm"], "data": {"method": "custom", "content": content}},
        }
        started = time.perf_counter()
        await socket.write_message(json.dumps(message))
        while True:
            reply = await socket.read_message()
            if reply is None:
                raise RuntimeError("the kernel websocket closed")
            if isinstance(reply, bytes):
                continue
            data = json.loads(reply)
            answer = data.get("content", {}).get("data", {}).get("content", {})
            if data.get("msg_type") == "comm_msg" and answer.get("type") == "state":
                break
        round_trips.append((time.perf_counter() - started) * 1e3)
        await asyncio.sleep(0.05)
    socket.close()
    return round_trips


def measure(venv: Path, demo: str, questions: int, extension: bool) -> dict[str, float]:
    """Start a server (the extension on or off), ask the questions; return round trip and kernel times."""
    off = {"ServerApp": {"jpserver_extensions": {"rope_viz.server_extension": False}}}
    config = None if extension else off
    server = jupyter_client.start_server(venv, "jupyterlab", ROOT / "notebooks", server_config=config)
    try:
        log = server.log()
        active = "kernel websockets send without delay" in log
        if active != extension:
            raise RuntimeError(f"the extension should be {'on' if extension else 'off'}:\n{log}")
        kernel = server.api("POST", "api/kernels", {"name": "python3"})
        connection = server.home / "runtime" / f"kernel-{kernel['id']}.json"
        deadline = time.monotonic() + 60
        while not connection.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        client = BlockingKernelClient(connection_file=str(connection))
        client.load_connection_file()
        client.start_channels()
        client.wait_for_ready(60)
        figure = json.loads(run_code(client, SETUP.format(demo=demo)).strip().splitlines()[-1])
        round_trips = asyncio.run(ask(server, kernel["id"], figure, questions))
        kernel_ms = [1e3 * value for value in json.loads(run_code(client, "print(json.dumps(_bench_times))"))]
        client.stop_channels()
    finally:
        server.stop()
    return {
        "round trip p50": statistics.median(round_trips),
        "round trip p95": percentile(round_trips, 0.95),
        "kernel p50": statistics.median(kernel_ms),
    }


def main() -> None:
    """Print a Markdown table: round trips with and without the extension, and the kernel's own time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=60)
    parser.add_argument("--demo", default="MethodComparison")
    parser.add_argument("--venv", type=Path, default=ROOT / ".venv-binder")
    args = parser.parse_args()
    rows = {
        "TCP_NODELAY (rope_viz.server_extension)": measure(args.venv, args.demo, args.questions, True),
        "extension off (jupyter_server as it is)": measure(args.venv, args.demo, args.questions, False),
    }
    print(f"{args.demo}, {args.questions} questions, 50 ms apart\n")
    print("| server | round trip p50 (ms) | p95 (ms) | kernel's own time p50 (ms) | p50 / kernel |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, row in rows.items():
        ratio = row["round trip p50"] / row["kernel p50"]
        print(
            f"| {name} | {row['round trip p50']:.1f} | {row['round trip p95']:.1f} "
            f"| {row['kernel p50']:.1f} | {ratio:.1f} |"
        )


if __name__ == "__main__":
    main()
