"""Drive the real Jupyter clients (JupyterLab 4 and Notebook 7) in chromium over the course's notebooks.

The pieces, each usable on its own (the live-notebook tests and ``benchmarks/bench_live.py`` use them):

* :func:`start_server` starts ``jupyter lab`` or ``jupyter notebook`` from a given venv, on 127.0.0.1 at a
  free port with a random token, serving a temporary root that holds a *copy* of the notebooks (the runs never
  touch the repository's files; the kernel imports ``rope_viz`` installed in that venv). Its settings,
  workspaces, runtime and data folders are isolated in a temporary folder. :meth:`JupyterServer.stop` shuts
  it down.
* :func:`open_notebook` opens a notebook in a new browser context: every request not to 127.0.0.1 is aborted
  and recorded, console errors and warnings and page errors are collected, and the kernel websockets are
  counted and their frames measured (bytes per cell, from the Jupyter messages' parent headers).
* :class:`NotebookPage` runs all cells through the app's command registry (the same commands as the Run menu),
  restarts the kernel, finds the live figures (:func:`find_live_figures`, the one place that knows the
  figures' DOM) and moves their sliders with trusted mouse and keyboard input, measuring in the browser the
  time from each input event to the first frame painted after the figure's SVG changed.

Only ever 127.0.0.1 is contacted. JupyterLab's news and update checks are switched off in the isolated
settings, so the client itself makes no request to another host; the route check would catch it if it did.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlparse

Frontend = Literal["jupyterlab", "notebook7"]

#: The two front ends and the ``jupyter`` subcommand that starts each.
FRONTENDS: dict[str, str] = {"jupyterlab": "lab", "notebook7": "notebook"}

#: Settings written into the isolated user-settings folder before the server starts (plugin id, values).
#: News and update checks off (they would contact jupyter.org); cell timing recorded in the cell metadata
#: (``execution`` timestamps from the kernel, used for the time from a cell's start to its first slider);
#: every cell kept in the page (``windowingMode: none``): JupyterLab 4.4, Binder's, defaults to ``full``,
#: which detaches the cells out of view, so a figure below the fold would not render until scrolled to and
#: its time to first slider would measure the harness's scrolling, not the figure.
USER_SETTINGS: dict[str, dict[str, Any]] = {
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker": {"recordTiming": True, "windowingMode": "none"},
}

#: Environment variables removed from the server's environment, so nothing of the caller's setup leaks in.
_SCRUBBED_ENVIRONMENT = (
    "PYTHONPATH",
    "PYTHONHOME",
    "VIRTUAL_ENV",
    "JUPYTER_PATH",
    "JUPYTER_CONFIG_PATH",
    "JUPYTER_TOKEN",
    "ROPE_VIZ_SITE",
)


# ----------------------------------------------------------------------------------------------------
# The server


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free right now.

    Returns
    -------
    int
        The port number.

    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class JupyterServer:
    """A running Jupyter server (started by :func:`start_server`).

    Attributes
    ----------
    frontend : {"jupyterlab", "notebook7"}
        Which client the server serves.
    venv : Path
        The venv the server and its kernels run from.
    root : Path
        The server's ``root_dir``; the notebooks are copied into ``root / "notebooks"``.
    home : Path
        The temporary folder holding the root, settings, workspaces and the server log.
    source : Path
        The folder the notebooks were copied from (to reset a copy with :meth:`reset_notebook`).
    port : int
        The port on 127.0.0.1.
    token : str
        The random token the server requires.
    process : subprocess.Popen
        The server process (leader of its own process group).
    log_path : Path
        The server's stdout and stderr.

    """

    frontend: Frontend
    venv: Path
    root: Path
    home: Path
    source: Path
    port: int
    token: str
    process: subprocess.Popen
    log_path: Path
    _workspace_count: int = 0

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    def notebooks(self) -> list[str]:
        """Return the names of the notebooks in the server's copy, sorted."""
        return sorted(path.name for path in (self.root / "notebooks").glob("*.ipynb"))

    def notebook_url(self, name: str) -> str:
        """Return the URL that opens notebook ``name`` in this server's front end, token included.

        In JupyterLab each call names a new workspace, so a page never restores notebooks opened before.

        Parameters
        ----------
        name : str
            File name of the notebook, e.g. ``"02_rotation_2d.ipynb"``.

        Returns
        -------
        str
            The URL.

        """
        if self.frontend == "jupyterlab":
            self._workspace_count += 1
            path = f"lab/workspaces/live-test-{self._workspace_count}/tree/notebooks/{name}"
            return f"{self.base_url}/{path}?reset&token={self.token}"
        return f"{self.base_url}/notebooks/notebooks/{name}?token={self.token}"

    def reset_notebook(self, name: str) -> None:
        """Copy notebook ``name`` from the source folder again, over the server's copy (undoing any save).

        Parameters
        ----------
        name : str
            File name of the notebook.

        """
        shutil.copy2(self.source / name, self.root / "notebooks" / name)

    def api(self, method: str, path: str, body: Any = None, timeout: float = 10) -> Any:
        """Call the server's REST API with the token; return the decoded JSON answer (None if empty).

        Parameters
        ----------
        method : str
            HTTP method.
        path : str
            Path after the base URL, e.g. ``"api/sessions"``.
        body : object, optional
            JSON body.
        timeout : float
            Seconds.

        Returns
        -------
        object
            The decoded answer.

        """
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.base_url}/{path}",
            data=data,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read()
        return json.loads(text) if text else None

    def shutdown_kernels(self) -> None:
        """Delete every session and shut down every kernel of the server."""
        for session in self.api("GET", "api/sessions"):
            with contextlib.suppress(urllib.error.HTTPError):
                self.api("DELETE", f"api/sessions/{session['id']}")
        for kernel in self.api("GET", "api/kernels"):
            with contextlib.suppress(urllib.error.HTTPError):
                self.api("DELETE", f"api/kernels/{kernel['id']}")

    def log(self) -> str:
        """Return the server's log so far."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self, timeout: float = 15) -> None:
        """Shut the server down (its kernels with it); terminate, then kill, its process group if it lingers.

        Parameters
        ----------
        timeout : float
            Seconds to wait for a clean shutdown before terminating.

        """
        kernels = _child_pids(self.process.pid)  # kernels run in their own sessions: remember them
        if self.process.poll() is None:
            with contextlib.suppress(OSError, urllib.error.URLError):
                self.api("POST", "api/shutdown", timeout=5)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.terminate()
                try:
                    self.process.wait(5)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(5)
        # End what outlived the server: its process group, and the kernels it had started.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGTERM)
        for pid in kernels:
            with contextlib.suppress(OSError):
                # Only a process still running from this venv (the pid was not reused meanwhile).
                if str(self.venv).encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                    os.kill(pid, signal.SIGTERM)


def _child_pids(parent: int) -> list[int]:
    """Process ids whose parent is ``parent`` (from ``/proc``; empty where there is no ``/proc``)."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == parent:
                children.append(int(stat.parent.name))
    return children


def _write_user_settings(settings_dir: Path, extra: dict[str, dict[str, Any]] | None = None) -> None:
    for plugin, values in {**USER_SETTINGS, **(extra or {})}.items():
        path = settings_dir / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values, indent=1), encoding="utf-8")


def start_server(
    venv: Path,
    frontend: Frontend,
    notebooks: Path,
    *,
    home: Path | None = None,
    settings: dict[str, dict[str, Any]] | None = None,
    server_config: dict[str, Any] | None = None,
    timeout: float = 90,
) -> JupyterServer:
    """Start JupyterLab or Notebook 7 from ``venv`` on 127.0.0.1 over a copy of ``notebooks``.

    Parameters
    ----------
    venv : Path
        A venv with ``jupyterlab`` and ``notebook`` installed (and the course package, for the kernel).
    frontend : {"jupyterlab", "notebook7"}
        ``jupyter lab`` or ``jupyter notebook``.
    notebooks : Path
        Folder whose ``*.ipynb`` files are copied into the server's root, under ``notebooks/``.
    home : Path, optional
        Folder for the root, settings, workspaces and log; a new temporary folder by default. It is left in
        place by :meth:`JupyterServer.stop` (the log may be wanted); the caller removes it.
    settings : dict, optional
        More user settings, ``{"@scope/plugin-extension/plugin": {key: value}}``, over :data:`USER_SETTINGS`.
    server_config : dict, optional
        The server's user configuration (``jupyter_server_config.json`` in its config folder), e.g.
        ``{"ServerApp": {"jpserver_extensions": {"rope_viz.server_extension": False}}}`` to turn an extension
        off as ``jupyter server extension disable --user`` does.
    timeout : float
        Seconds to wait for the server to answer.

    Returns
    -------
    JupyterServer
        The running server.

    Raises
    ------
    RuntimeError
        If the server exits or does not answer within ``timeout``.

    """
    if frontend not in FRONTENDS:
        raise ValueError(f"frontend must be one of {sorted(FRONTENDS)}, got {frontend!r}")
    venv = Path(venv).resolve()
    jupyter = venv / "bin" / "jupyter"
    if not jupyter.exists():
        raise RuntimeError(f"{jupyter} does not exist: is {venv} a venv with jupyterlab and notebook?")
    home = Path(home) if home is not None else Path(tempfile.mkdtemp(prefix=f"rope-viz-{frontend}-"))
    root = home / "root"
    (root / "notebooks").mkdir(parents=True, exist_ok=True)
    for path in sorted(Path(notebooks).glob("*.ipynb")):
        shutil.copy2(path, root / "notebooks" / path.name)
    folders = {
        name: home / name for name in ("config", "data", "runtime", "settings", "workspaces", "ipython")
    }
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    _write_user_settings(folders["settings"], settings)
    if server_config:
        (folders["config"] / "jupyter_server_config.json").write_text(json.dumps(server_config, indent=2))

    environment = {key: value for key, value in os.environ.items() if key not in _SCRUBBED_ENVIRONMENT}
    environment.update(
        PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        JUPYTER_CONFIG_DIR=str(folders["config"]),
        JUPYTER_DATA_DIR=str(folders["data"]),
        JUPYTER_RUNTIME_DIR=str(folders["runtime"]),
        JUPYTERLAB_SETTINGS_DIR=str(folders["settings"]),
        JUPYTERLAB_WORKSPACES_DIR=str(folders["workspaces"]),
        IPYTHONDIR=str(folders["ipython"]),
        JUPYTER_PLATFORM_DIRS="1",
        PYDEVD_DISABLE_FILE_VALIDATION="1",
    )
    port, token = free_port(), secrets.token_hex(24)
    app = "LabApp" if frontend == "jupyterlab" else "JupyterNotebookApp"
    command = [
        str(jupyter),
        FRONTENDS[frontend],
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        # window.jupyterapp: the app's command registry, for Run All as the Run menu does it.
        f"--{app}.expose_app_in_browser=True",
    ]
    if frontend == "jupyterlab":
        # No update check and no PyPI-backed extension manager: the server itself contacts no other host.
        command += [
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
        ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # containers and CI runners often run as root
    log_path = home / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            cwd=root,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    server = JupyterServer(
        frontend=frontend,
        venv=venv,
        root=root,
        home=home,
        source=Path(notebooks).resolve(),
        port=port,
        token=token,
        process=process,
        log_path=log_path,
    )
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(
                f"jupyter {FRONTENDS[frontend]} exited ({process.returncode}):\n{server.log()}"
            )
        try:
            server.api("GET", "api/status", timeout=2)
            return server
        except (OSError, urllib.error.URLError):
            if time.monotonic() > deadline:
                server.stop()
                raise RuntimeError(f"jupyter did not answer within {timeout} s:\n{server.log()}") from None
            time.sleep(0.3)


@contextlib.contextmanager
def running_server(
    venv: Path, frontend: Frontend, notebooks: Path, **options: Any
) -> Iterator[JupyterServer]:
    """Context manager around :func:`start_server` that always stops the server.

    The temporary folder is removed afterwards, unless ``home`` was given.

    Parameters
    ----------
    venv, frontend, notebooks, **options
        As for :func:`start_server`.

    Yields
    ------
    JupyterServer
        The running server.

    """
    server = start_server(venv, frontend, notebooks, **options)
    try:
        yield server
    finally:
        server.stop()
        if options.get("home") is None:
            shutil.rmtree(server.home, ignore_errors=True)


# ----------------------------------------------------------------------------------------------------
# The kernel websocket: frames and their Jupyter messages


def v1_parts(payload: str | bytes) -> list[bytes] | None:
    """Split a binary ``v1.kernel.websocket.jupyter.org`` frame into its parts, or return None.

    The frame is a uint64 part count, that many uint64 offsets, then the parts: the channel, the header, the
    parent header, the metadata, the content and any buffers.

    Parameters
    ----------
    payload : str or bytes
        The frame.

    Returns
    -------
    list of bytes or None
        The parts; None for a text frame or bytes that are not laid out so.

    """
    if isinstance(payload, str):
        return None
    data = bytes(payload)
    count = int.from_bytes(data[:8], "little")
    if not 2 <= count <= 4096 or len(data) < 8 * (count + 1):
        return None
    offsets = [int.from_bytes(data[8 * (k + 1) : 8 * (k + 2)], "little") for k in range(count)]
    if offsets[0] != 8 * (count + 1) or offsets != sorted(offsets) or offsets[-1] > len(data):
        return None
    bounds = [*offsets, len(data)]
    return [data[bounds[k] : bounds[k + 1]] for k in range(count)]


#: The topics ipykernel sends before a message on its IOPub socket: ``kernel.<uuid>.<msg_type>`` for the
#: kernel's own messages, ``stream.<name>`` for printed output, ``comm-<id>`` for a widget's messages, and
#: ``execute_result``, ``display_data`` or ``error`` from the display hooks (ipykernel 7.4). A ZMQ frame of
#: the message's envelope, never one of its parts.
IOPUB_TOPIC = re.compile(
    rb"kernel\.[0-9a-f-]+\.\w+|stream\.\w+|comm-[0-9a-f]+|execute_result|display_data|error"
)


#: Where a v1 frame's parts (:func:`v1_parts`) hold the message's four JSON parts: header, parent header,
#: metadata and content (the channel comes first, buffers after).
MESSAGE_PARTS = slice(1, 5)


def interleaved_iopub(parts: list[bytes]) -> bool:
    """Whether a malformed v1 frame is IOPub messages mixed: a topic frame where a message's part belongs.

    A ZMQ socket is not thread-safe: when two threads of a kernel send on its IOPub socket at the same moment,
    the frames of their messages interleave, and the Jupyter server, which relays v1 frames without parsing
    them, passes on a message one of whose JSON parts is the other message's topic. ipykernel sends from the
    calling thread whenever its IOPub thread is not running (``IOPubThread.schedule``, ipykernel 7.4), as
    when a kernel shuts down for a restart.

    Parameters
    ----------
    parts : list of bytes
        The frame's parts (:func:`v1_parts`).

    Returns
    -------
    bool
        True if the frame came on IOPub and its header, parent header, metadata or content is a topic.

    """
    return parts[0] == b"iopub" and any(IOPUB_TOPIC.fullmatch(part) for part in parts[MESSAGE_PARTS])


def front_end_parses(parts: list[bytes]) -> bool:
    """Whether a front end can read a v1 frame's message: header, parent header, metadata and content JSON.

    JupyterLab's v1 deserializer (``@jupyterlab/services``, ``deserializeV1KernelWebsocketJupyterOrg``) parses
    all four parts, so a frame is lost to it when any one of them is not JSON, not only its header.

    Parameters
    ----------
    parts : list of bytes
        The frame's parts (:func:`v1_parts`).

    Returns
    -------
    bool
        True if the frame has the four parts and each is JSON.

    """
    if len(parts) < MESSAGE_PARTS.stop:
        return False
    try:
        for part in parts[MESSAGE_PARTS]:
            json.loads(part)
    except (ValueError, UnicodeDecodeError):
        return False
    return True


def decode_frame(payload: str | bytes) -> dict[str, Any] | None:
    """Decode one kernel-websocket frame into ``{"channel", "header", "parent_header"}``, or None.

    Handles the binary ``v1.kernel.websocket.jupyter.org`` protocol (JupyterLab 4's default), the legacy JSON
    text frames and the legacy binary frames with buffers.

    Parameters
    ----------
    payload : str or bytes
        The frame.

    Returns
    -------
    dict or None
        The channel and the two headers; None if the frame is not a Jupyter message.

    """
    try:
        if isinstance(payload, str):
            message = json.loads(payload)
            return {k: message.get(k) for k in ("channel", "header", "parent_header")}
        parts = v1_parts(payload)
        if parts is not None:
            return {
                "channel": parts[0].decode(),
                "header": json.loads(parts[1]),
                "parent_header": json.loads(parts[2]),
            }
        data = bytes(payload)
        # Legacy binary: uint32 buffer count, uint32 offsets, then the JSON message first.
        buffers = int.from_bytes(data[:4], "big")
        offsets = [int.from_bytes(data[4 * (k + 1) : 4 * (k + 2)], "big") for k in range(buffers)]
        end = offsets[1] if len(offsets) > 1 else len(data)
        message = json.loads(data[offsets[0] : end])
        return {k: message.get(k) for k in ("channel", "header", "parent_header")}
    except (ValueError, IndexError, UnicodeDecodeError, TypeError):
        return None


@dataclass
class KernelSocket:
    """One kernel websocket seen by the page, with what went over it.

    Attributes
    ----------
    url : str
        The websocket URL (``.../api/kernels/<id>/channels?...``).
    received_bytes : int
        Bytes of every frame received from the server.
    sent_bytes : int
        Bytes of every frame sent to the server.
    received_frames : int
        Frames received.
    bytes_by_parent : dict of str to int
        Received bytes by the ``msg_id`` of the message each reply answers (its parent header).
    execute_requests : list of (str, str)
        ``(msg_id, code)`` of every ``execute_request`` sent, in order.
    sent_types : list of str
        ``msg_type`` of every message sent, in order.
    replied : set of str
        ``msg_id`` of every request that got its ``execute_reply``.
    malformed : list of list of bytes
        Received v1 frames a front end cannot read (:func:`front_end_parses`), as their parts (each cut to
        its first 120 bytes).
    closed : bool
        Whether the socket has closed.

    """

    url: str
    received_bytes: int = 0
    sent_bytes: int = 0
    received_frames: int = 0
    bytes_by_parent: dict[str, int] = field(default_factory=dict)
    execute_requests: list[tuple[str, str]] = field(default_factory=list)
    sent_types: list[str] = field(default_factory=list)
    replied: set[str] = field(default_factory=set)
    malformed: list[list[bytes]] = field(default_factory=list)
    closed: bool = False

    @property
    def kernel_id(self) -> str:
        """The kernel id in the URL."""
        parts = urlparse(self.url).path.split("/")
        return parts[parts.index("kernels") + 1] if "kernels" in parts else ""

    def on_received(self, payload: str | bytes) -> None:
        """Account for one received frame."""
        size = len(payload.encode()) if isinstance(payload, str) else len(payload)
        self.received_bytes += size
        self.received_frames += 1
        message = decode_frame(payload)
        parts = v1_parts(payload)
        if parts is not None and not front_end_parses(parts):
            self.malformed.append([part[:120] for part in parts])
        parent = (message or {}).get("parent_header") or {}
        key = parent.get("msg_id", "") if isinstance(parent, dict) else ""
        self.bytes_by_parent[key] = self.bytes_by_parent.get(key, 0) + size
        header = (message or {}).get("header") or {}
        if isinstance(header, dict) and header.get("msg_type") == "execute_reply":
            self.replied.add(key)

    def on_sent(self, payload: str | bytes) -> None:
        """Account for one sent frame; remember the code of an ``execute_request``."""
        self.sent_bytes += len(payload.encode()) if isinstance(payload, str) else len(payload)
        message = decode_frame(payload)
        header = (message or {}).get("header") or {}
        self.sent_types.append(str(header.get("msg_type", "")))
        if header.get("msg_type") == "execute_request":
            self.execute_requests.append((header.get("msg_id", ""), _execute_code(payload)))


def _execute_code(payload: str | bytes) -> str:
    """Return ``content.code`` of an ``execute_request`` frame (v1 binary or JSON)."""
    with contextlib.suppress(ValueError, IndexError, UnicodeDecodeError, KeyError, TypeError):
        if isinstance(payload, str):
            return str(json.loads(payload)["content"]["code"])
        parts = v1_parts(payload)
        if parts is not None:
            return str(json.loads(parts[4])["code"])
    return ""


# ----------------------------------------------------------------------------------------------------
# The page


@dataclass
class ConsoleEntry:
    """A console message or page error."""

    kind: str
    text: str
    location: str = ""

    def __str__(self) -> str:
        where = f" ({self.location})" if self.location else ""
        return f"{self.kind}: {self.text}{where}"


@dataclass
class PageLog:
    """What a page did on the side: requests off 127.0.0.1, console messages, kernel websockets.

    Attributes
    ----------
    blocked : list of str
        URLs of requests not to 127.0.0.1, aborted (and websockets to another host, seen).
    console : list of ConsoleEntry
        Console errors and warnings, and uncaught page errors (kind ``"pageerror"``).
    kernel_sockets : list of KernelSocket
        Every kernel websocket the page opened, in order.
    other_sockets : list of str
        URLs of the other websockets (e.g. the server's event stream).

    """

    blocked: list[str] = field(default_factory=list)
    console: list[ConsoleEntry] = field(default_factory=list)
    kernel_sockets: list[KernelSocket] = field(default_factory=list)
    other_sockets: list[str] = field(default_factory=list)

    def errors(self, allowed: Iterable[tuple[str, str]] = ()) -> list[ConsoleEntry]:
        """Return the console errors and page errors not matched by ``allowed``.

        Parameters
        ----------
        allowed : iterable of (str, str)
            ``(substring, reason)`` pairs: an error whose text or location (a page error's stack) contains the
            substring is benign.

        Returns
        -------
        list of ConsoleEntry
            The remaining errors.

        """
        allowed = list(allowed)
        return [
            entry
            for entry in self.console
            if entry.kind in {"error", "pageerror"}
            and not any(text in entry.text or text in entry.location for text, _ in allowed)
        ]

    def warnings(self) -> list[ConsoleEntry]:
        """Return the console warnings."""
        return [entry for entry in self.console if entry.kind == "warning"]

    def interleaved_iopub_frames(self) -> list[list[bytes]]:
        """Return the malformed frames of the kernel websockets that are IOPub messages the kernel mixed."""
        return [parts for sock in self.kernel_sockets for parts in sock.malformed if interleaved_iopub(parts)]

    def open_kernel_sockets(self) -> list[KernelSocket]:
        """Return the kernel websockets not closed."""
        return [sock for sock in self.kernel_sockets if not sock.closed]


def _is_local(url: str) -> bool:
    scheme = url.split(":", 1)[0]
    if scheme in {"data", "blob", "about"}:
        return True
    return urlparse(url).hostname == "127.0.0.1"


def watch_page(page: Any) -> PageLog:
    """Attach the request guard, console collector and websocket meter to a Playwright page.

    Parameters
    ----------
    page : playwright.sync_api.Page
        A new page, before it navigates.

    Returns
    -------
    PageLog
        Filled in as the page runs.

    """
    log = PageLog()

    def route(route_request: Any) -> None:
        url = route_request.request.url
        if _is_local(url):
            route_request.continue_()
        else:
            log.blocked.append(url)
            route_request.abort()

    def on_console(message: Any) -> None:
        if message.type in {"error", "warning"}:
            location = message.location or {}
            where = f"{location.get('url', '')}:{location.get('lineNumber', '')}" if location else ""
            log.console.append(ConsoleEntry(message.type, message.text, where))

    def on_websocket(websocket: Any) -> None:
        url = websocket.url
        if not _is_local(url):
            log.blocked.append(url)
        if "/api/kernels/" in url and "/channels" in url:
            sock = KernelSocket(url)
            log.kernel_sockets.append(sock)
            websocket.on("framereceived", sock.on_received)
            websocket.on("framesent", sock.on_sent)
            websocket.on("close", lambda _ws: setattr(sock, "closed", True))
        else:
            log.other_sockets.append(url)

    page.route("**/*", route)
    page.on("console", on_console)

    def on_page_error(error: Any) -> None:
        stack = (getattr(error, "stack", "") or "").splitlines()
        # The first three frames: the first alone is often a built-in (``Object.keys``).
        where = " < ".join([line.strip() for line in stack if line.strip().startswith("at ")][:3])
        log.console.append(ConsoleEntry("pageerror", str(error), where))

    page.on("pageerror", on_page_error)
    page.on("websocket", on_websocket)
    return log


# ----------------------------------------------------------------------------------------------------
# Finding the live figures: the one place that knows their DOM

#: The live figure's root, per the figures' DOM contract (the same element as on the site).
FIGURE_SELECTOR = "figure.rope-viz-demo"

#: The ipywidgets front end that the live figures replaced (commit 0add054: a VBox of ``.widget-slider``
#: controls, a Plotly ``FigureWidget`` and an HTML readout). Only ``benchmarks/bench_live.py --legacy``
#: looks for it, to measure that commit against the current one; the tests never accept it.
LEGACY_FIGURE_SELECTOR = ".widget-vbox:has(> .widget-slider):has(.js-plotly-plot)"


@dataclass(frozen=True)
class FigureDom:
    """Where the parts of one kind of live figure are, as CSS selectors.

    Attributes
    ----------
    kind : {"contract", "legacy"}
        ``"contract"``: ``figure.rope-viz-demo`` (the figures' DOM contract); ``"legacy"``: the ipywidgets
        sliders of the front end before it (benchmarks only).
    root : str
        The figure's root element.
    ready : str
        Matches a root once the figure is interactive.
    plot : str
        The Plotly div, inside the root.
    slider : str
        Each slider's focusable element (gets the keyboard and the ``input`` events), inside the root.
    track : str
        The element whose box is the slider's track, relative to ``slider`` (``""``: the slider itself;
        ``"parent:SELECTOR"``: the slider's closest ancestor matching SELECTOR).
    value_text : str
        The element showing the slider's value text, relative to the slider's control (see ``control``).
    control : str
        The slider's control (label, slider and value text), as a closest-ancestor selector of the slider.
    input_events : tuple of str
        The DOM events on the slider that mark one step of the reader's input.

    """

    kind: str
    root: str
    ready: str
    plot: str
    slider: str
    track: str
    value_text: str
    control: str
    input_events: tuple[str, ...]


CONTRACT_DOM = FigureDom(
    kind="contract",
    root=FIGURE_SELECTOR,
    ready=f"{FIGURE_SELECTOR}[data-ready=true]",
    plot=".rope-viz-plot",
    slider=".rope-viz-controls .rope-viz-control input[type=range]",
    track="",
    value_text="output",
    control=".rope-viz-control",
    input_events=("input",),
)

#: The earlier front end (see :data:`LEGACY_FIGURE_SELECTOR`): ipywidgets 8 sliders are noUiSlider divs; the
#: handle takes focus and arrow keys, and no ``input`` event fires, so a step is the pointer or key event.
LEGACY_DOM = FigureDom(
    kind="legacy",
    root=LEGACY_FIGURE_SELECTOR,
    ready=f"{LEGACY_FIGURE_SELECTOR}:has(.js-plotly-plot svg.main-svg)",
    plot=".js-plotly-plot",
    slider=".widget-slider .noUi-handle",
    track="parent:.noUi-target",
    value_text=".widget-readout",
    control=".widget-slider",
    input_events=("pointerdown", "pointermove", "keydown"),
)


def ready_selector(allow_legacy: bool = False) -> str:
    """Return the selector of a live figure that is interactive (the contract's, or also the legacy one).

    Parameters
    ----------
    allow_legacy : bool
        Also match the temporary ipywidgets fallback.

    Returns
    -------
    str
        A CSS selector.

    """
    return f"{CONTRACT_DOM.ready}, {LEGACY_DOM.ready}" if allow_legacy else CONTRACT_DOM.ready


def figure_dom(page: Any, allow_legacy: bool = False) -> FigureDom:
    """Return the DOM description of the live figures on ``page``: the contract's, or the legacy fallback.

    The contract wins whenever a ``figure.rope-viz-demo`` is on the page. The legacy front end (benchmarks
    only) applies only if ``allow_legacy`` and the page shows ipywidgets sliders and no contract figure.

    Parameters
    ----------
    page : playwright.sync_api.Page
        The notebook page.
    allow_legacy : bool
        Accept the temporary ipywidgets fallback.

    Returns
    -------
    FigureDom
        The description to use.

    """
    if page.locator(CONTRACT_DOM.root).count() or not allow_legacy:
        return CONTRACT_DOM
    if page.locator(LEGACY_DOM.root).count():
        return LEGACY_DOM
    return CONTRACT_DOM


@dataclass
class LiveSlider:
    """One slider of a live figure, addressable from page scripts by ``selector``."""

    figure: LiveFigure
    index: int
    selector: str
    label: str


@dataclass
class LiveFigure:
    """One live figure on the page, addressable from page scripts by ``selector``.

    Attributes
    ----------
    dom : FigureDom
        Where its parts are.
    index : int
        Its position among the page's live figures.
    selector : str
        A selector matching exactly its root (its ``data-live-test`` attribute, set by
        :func:`find_live_figures`).
    cell_index : int
        Index of the notebook cell whose output holds it (-1 if not found).
    sliders : list of LiveSlider
        Its sliders, in order.

    """

    dom: FigureDom
    index: int
    selector: str
    cell_index: int
    sliders: list[LiveSlider] = field(default_factory=list)


_TAG_FIGURES_SCRIPT = """
([dom, generation]) => {
  const cells = [...document.querySelectorAll('.jp-Notebook .jp-Cell')];
  return [...document.querySelectorAll(dom.root)].map((root, index) => {
    const id = `g${generation}-f${index}`;
    root.setAttribute('data-live-test', id);
    const sliders = [...root.querySelectorAll(dom.slider)].map((slider, k) => {
      slider.setAttribute('data-live-test-slider', `${id}-s${k}`);
      const control = slider.closest(dom.control);
      const label = control ? (control.querySelector('label')?.textContent ?? '') : '';
      return {selector: `[data-live-test-slider="${id}-s${k}"]`, label: label.trim()};
    });
    const cell = root.closest('.jp-Cell');
    return {selector: `[data-live-test="${id}"]`, cellIndex: cells.indexOf(cell), sliders};
  });
}
"""


def find_live_figures(page: Any, allow_legacy: bool = False) -> list[LiveFigure]:
    """Find every live figure on the page and its sliders (see the figures' DOM contract).

    A live figure is a ``figure.rope-viz-demo`` in a cell's output; its sliders are the
    ``input[type=range]`` of its ``.rope-viz-control`` elements, each with a ``<label>`` and an
    ``<output>`` showing the value; ``.rope-viz-plot`` holds the Plotly drawing (``svg.main-svg``). Until the
    new live front end lands, ``allow_legacy`` also accepts the ipywidgets sliders (benchmarks only, see
    :data:`LEGACY_DOM`).

    Each root and slider gets a ``data-live-test`` attribute so page scripts can address it.

    Parameters
    ----------
    page : playwright.sync_api.Page
        The notebook page, after Run All.
    allow_legacy : bool
        Accept the temporary ipywidgets fallback.

    Returns
    -------
    list of LiveFigure
        The figures in document order.

    """
    dom = figure_dom(page, allow_legacy)
    generation = page.evaluate("() => (window.__ropeLiveGeneration = (window.__ropeLiveGeneration || 0) + 1)")
    found = page.evaluate(_TAG_FIGURES_SCRIPT, [_dom_json(dom), generation])
    figures = []
    for index, item in enumerate(found):
        figure = LiveFigure(dom=dom, index=index, selector=item["selector"], cell_index=item["cellIndex"])
        figure.sliders = [
            LiveSlider(figure=figure, index=k, selector=slider["selector"], label=slider["label"])
            for k, slider in enumerate(item["sliders"])
        ]
        figures.append(figure)
    return figures


def _dom_json(dom: FigureDom) -> dict[str, Any]:
    return {
        "kind": dom.kind,
        "root": dom.root,
        "ready": dom.ready,
        "plot": dom.plot,
        "slider": dom.slider,
        "track": dom.track,
        "valueText": dom.value_text,
        "control": dom.control,
        "inputEvents": list(dom.input_events),
    }


# ----------------------------------------------------------------------------------------------------
# Page scripts

#: Shared helpers, installed once per page: the app's notebook panel, the figure fingerprint, the frame wait.
_HELPERS_SCRIPT = """
() => {
  if (window.__ropeLive) return;
  // A message task runs right after the frame; timers would not do: chromium defers them during a drag.
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()();
  const afterFrame = callback => requestAnimationFrame(() => {
    waiting.push(callback);
    channel.port2.postMessage(null);
  });
  const panel = () => {
    const app = window.jupyterapp;
    if (!app) return null;
    const isNotebook = w => w && w.content && w.content.widgets && w.sessionContext;
    if (isNotebook(app.shell.currentWidget)) return app.shell.currentWidget;
    for (const w of app.shell.widgets('main')) if (isNotebook(w)) return w;
    return null;
  };
  const fingerprint = (rootSelector, plotSelector) => {
    const root = document.querySelector(rootSelector);
    if (!root) return null;
    const svgs = root.querySelectorAll(`${plotSelector} svg.main-svg`);
    let hash = 2166136261;
    // The figure script paints heatmap cells and marker clouds on canvas layers
    // inside the SVG: their pixels are part of what the figure shows.
    const canvases = [...root.querySelectorAll(`${plotSelector} canvas`)].map(canvas => {
      try { return canvas.toDataURL(); } catch (error) { return ''; }
    });
    for (const text of [...[...svgs].map(svg => svg.innerHTML), ...canvases]) {
      for (let i = 0; i < text.length; i++) { hash ^= text.charCodeAt(i); hash = Math.imul(hash, 16777619); }
    }
    return `${(hash >>> 0).toString(16)}:${svgs.length}`;
  };
  window.__ropeLive = {afterFrame, panel, fingerprint, ready: [], recorder: null};
}
"""

_NOTEBOOK_STATE_SCRIPT = """
() => {
  const panel = window.__ropeLive.panel();
  if (!panel) return null;
  const kernel = panel.sessionContext.session ? panel.sessionContext.session.kernel : null;
  const cells = panel.content.widgets;
  return {
    path: panel.context.path,
    kernelId: kernel ? kernel.id : null,
    status: kernel ? kernel.status : null,
    connection: kernel ? kernel.connectionStatus : null,
    cells: cells.map((cell, index) => {
      const model = cell.model;
      if (model.type !== 'code') return {index, type: model.type};
      const outputs = model.outputs.toJSON();
      const timing = (model.getMetadata ? model.getMetadata('execution') : null) || {};
      return {
        index, type: 'code', count: model.executionCount,
        prompt: cell.promptNode ? cell.promptNode.textContent : '',
        source: model.sharedModel.getSource(),
        errors: outputs.filter(o => o.output_type === 'error').map(o => `${o.ename}: ${o.evalue}`),
        timing,
      };
    }),
  };
}
"""

#: Record when each live figure becomes interactive (wall clock, to compare with the kernel's timestamps).
_READY_WATCH_SCRIPT = """
readySelector => {
  const live = window.__ropeLive;
  if (live.readyObserver) live.readyObserver.disconnect();
  live.ready = [];
  const seen = new WeakSet();
  const cells = () => [...document.querySelectorAll('.jp-Notebook .jp-Cell')];
  const check = () => {
    const found = document.querySelectorAll(readySelector);
    if (!found.length) return;
    const now = Date.now();
    let all = null;
    for (const root of found) {
      if (seen.has(root)) continue;
      seen.add(root);
      all = all || cells();
      live.ready.push({at: now, cellIndex: all.indexOf(root.closest('.jp-Cell'))});
    }
  };
  live.readyObserver = new MutationObserver(check);
  live.readyObserver.observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready', 'class'],
  });
}
"""

#: Run a command of the app's registry; resolves with its result, or {timeout: true}.
_RUN_COMMAND_SCRIPT = """
async ([command, timeoutMs]) => {
  const app = window.jupyterapp;
  const run = app.commands.execute(command).then(result => ({result: result === undefined ? null : result}));
  const timer = new Promise(resolve => setTimeout(() => resolve({timeout: true}), timeoutMs));
  try { return await Promise.race([run, timer]); } catch (error) { return {error: String(error)}; }
}
"""

#: Before a slider moves: record each input event's timestamp, the first plot mutation after it and the
#: frame painted after that mutation; and the last mutation and the frame after it (to know when the figure
#: has settled).
_RECORDER_SCRIPT = """
([rootSelector, plotSelector, sliderSelector, events]) => {
  const live = window.__ropeLive;
  if (live.recorder) live.recorder.stop();
  const root = document.querySelector(rootSelector);
  const plot = root.querySelector(plotSelector);
  const slider = document.querySelector(sliderSelector);
  const record = {steps: [], mutations: 0, lastMutation: 0, lastPaint: 0, lastInput: 0, renders: 0};
  const pending = [];
  const onInput = event => {
    if (event.type === 'pointermove' && !(event.buttons & 1)) return;
    const step = {
      start: event.timeStamp, type: event.type, trusted: event.isTrusted, mutated: null, painted: null,
    };
    record.steps.push(step);
    pending.push(step);
    record.lastInput = event.timeStamp;
  };
  const changed = () => {
    const now = performance.now();
    record.mutations += 1;
    record.lastMutation = now;
    const batch = pending.splice(0);
    for (const step of batch) step.mutated = now;
    live.afterFrame(() => {
      const painted = performance.now();
      for (const step of batch) step.painted = painted;
      record.lastPaint = painted;
    });
  };
  // A step drawn on the canvas layers changes no element: the figure script's event after each drawing
  // counts as the figure's change too.
  const onRendered = () => { record.renders += 1; changed(); };
  for (const type of events) slider.addEventListener(type, onInput, true);
  root.addEventListener('rope-viz:rendered', onRendered);
  const observer = new MutationObserver(changed);
  observer.observe(plot, {subtree: true, attributes: true, childList: true, characterData: true});
  live.recorder = {
    record,
    stop: () => {
      observer.disconnect();
      for (const type of events) slider.removeEventListener(type, onInput, true);
      root.removeEventListener('rope-viz:rendered', onRendered);
    },
  };
}
"""

#: Wait until the figure has been quiet for ``quietMs`` after the last input (or ``timeoutMs`` passed); return
#: the recorder's record since the previous call and clear it.
_SETTLE_SCRIPT = """
async ([quietMs, timeoutMs]) => {
  const live = window.__ropeLive;
  const record = live.recorder.record;
  const start = performance.now();
  const frame = () => new Promise(resolve => live.afterFrame(resolve));
  while (true) {
    await frame();
    const now = performance.now();
    const last = Math.max(record.lastMutation, record.lastInput, record.lastPaint);
    const pending = record.steps.some(step => step.painted === null) && record.mutations > 0 &&
      record.lastPaint < record.lastMutation;
    if (now - last >= quietMs && !pending) break;
    if (now - start >= timeoutMs) { record.timedOut = true; break; }
  }
  const out = JSON.parse(JSON.stringify(record));
  record.steps = []; record.mutations = 0; record.renders = 0; record.timedOut = false;
  return out;
}
"""

_SLIDER_STATE_SCRIPT = """
([rootSelector, sliderSelector, dom]) => {
  const root = document.querySelector(rootSelector);
  const slider = document.querySelector(sliderSelector);
  if (!root || !slider) return null;
  const control = slider.closest(dom.control);
  const text = control ? control.querySelector(dom.valueText) : null;
  let track = slider;
  if (dom.track.startsWith('parent:')) track = slider.closest(dom.track.slice(7)) || slider;
  const number = (value, fallback) =>
    (value == null || value === '' || isNaN(Number(value)) ? fallback : Number(value));
  const native = slider.tagName === 'INPUT';
  const aria = name => slider.getAttribute(`aria-value${name}`);
  const value = native ? Number(slider.value) : number(aria('now'), 0);
  const min = native ? number(slider.min, 0) : number(aria('min'), 0);
  const max = native ? number(slider.max, 100) : number(aria('max'), 1);
  let step = native ? number(slider.step, 1) : 0;
  if (track.noUiSlider && track.noUiSlider.options) step = number(track.noUiSlider.options.step, 0);
  const box = track.getBoundingClientRect();
  const thumb = slider.getBoundingClientRect();
  return {
    value, min, max, step,
    text: text ? (text.tagName === 'OUTPUT' ? text.value : text.textContent).trim() : '',
    fingerprint: window.__ropeLive.fingerprint(rootSelector, dom.plot),
    renders: number(root.dataset.renders, null),
    track: {x: box.x, y: box.y, width: box.width, height: box.height},
    thumb: {x: thumb.x, y: thumb.y, width: thumb.width, height: thumb.height},
  };
}
"""


# ----------------------------------------------------------------------------------------------------
# Measured gestures


@dataclass
class Step:
    """One input event of a gesture and when its drawing was painted (milliseconds, page clock)."""

    start: float
    kind: str
    trusted: bool
    mutated: float | None
    painted: float | None

    @property
    def latency_ms(self) -> float | None:
        """From the input event to the first frame painted after the plot's next change; None if none."""
        return None if self.painted is None else self.painted - self.start


@dataclass
class Gesture:
    """One slider gesture (a mouse drag or one key press) and what it changed.

    Attributes
    ----------
    method : {"mouse", "keyboard"}
        How the slider moved.
    figure, slider : int
        Figure index on the page and slider index in the figure.
    before, after : dict
        Slider state (value, text, figure fingerprint, render counter) before and after.
    steps : list of Step
        The input events and their paint times.
    settle_ms : float or None
        From the gesture's last input event to the frame painted after the plot's last change.
    mutations : int
        Mutation-observer callbacks on the plot during the gesture.
    renders : int
        ``rope-viz:rendered`` events during the gesture (contract figures only).
    timed_out : bool
        The figure did not settle in time (a stuck figure).

    """

    method: str
    figure: int
    slider: int
    label: str
    before: dict[str, Any]
    after: dict[str, Any]
    steps: list[Step]
    settle_ms: float | None
    mutations: int
    renders: int
    timed_out: bool

    @property
    def value_changed(self) -> bool:
        """The slider's value moved."""
        return self.before["value"] != self.after["value"]

    @property
    def text_changed(self) -> bool:
        """The value text (``<output>``) changed."""
        return self.before["text"] != self.after["text"]

    @property
    def figure_changed(self) -> bool:
        """The plot changed: the markup of its ``svg.main-svg`` or the pixels of its canvas layers."""
        return self.before["fingerprint"] != self.after["fingerprint"]

    @property
    def rendered(self) -> bool:
        """The figure's ``data-renders`` counter moved (always True for figures without the counter)."""
        if self.before.get("renders") is None:
            return True
        return self.after["renders"] > self.before["renders"]

    def latencies(self) -> list[float]:
        """Latency of every trusted step that was painted, milliseconds."""
        return [step.latency_ms for step in self.steps if step.trusted and step.latency_ms is not None]

    def problems(self) -> list[str]:
        """What went wrong: value, text or figure unchanged, no render, or no settle (empty if fine)."""
        name = f"figure {self.figure} slider {self.slider} ({self.label or 'unlabelled'}) by {self.method}"
        found = []
        if not self.value_changed:
            found.append(f"{name}: the slider's value did not move ({self.before['value']})")
        else:
            if not self.text_changed:
                found.append(f"{name}: the value text stayed {self.before['text']!r}")
            if not self.figure_changed:
                found.append(f"{name}: the figure's SVG did not change")
            if not self.rendered:
                found.append(f"{name}: data-renders stayed {self.before['renders']}")
            if not self.latencies():
                found.append(f"{name}: no input step was followed by a redraw")
        if self.timed_out:
            found.append(f"{name}: the figure did not settle")
        return found


@dataclass
class RunResult:
    """The outcome of one Run All (or restart and Run All).

    Attributes
    ----------
    seconds : float
        Wall time from the command to the kernel idle with every cell run.
    stuck : bool
        Not finished within the timeout (cells still queued or running, or the kernel busy).
    code_cells : int
        Non-empty code cells in the notebook.
    executed : int
        Of those, the cells sent to the kernel during the run that got their reply.
    errors : list of str
        Error outputs, ``"cell N: Name: message"``.
    first_slider_s : list of float
        For each live figure that became interactive: seconds from its cell's execution start (kernel
        timestamp ``shell.execute_reply.started``) to the figure's ready state in the browser.
    bytes_by_cell : dict of int to int
        Bytes received over the kernel websocket in reply to each code cell's execution, by cell index.

    """

    seconds: float
    stuck: bool
    code_cells: int
    executed: int
    errors: list[str]
    first_slider_s: list[float] = field(default_factory=list)
    ready_cells: list[int] = field(default_factory=list)
    bytes_by_cell: dict[int, int] = field(default_factory=dict)


def _parse_time(text: str | None) -> float | None:
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


class NotebookPage:
    """A notebook open in JupyterLab or Notebook 7 in a chromium page, with its side log.

    Use :func:`open_notebook` to make one.

    Parameters
    ----------
    server : JupyterServer
        The server.
    name : str
        The notebook's file name.
    context : playwright.sync_api.BrowserContext
        The context the page lives in (closed by :meth:`close`).
    page : playwright.sync_api.Page
        The page.
    log : PageLog
        Its side log.

    """

    def __init__(
        self,
        server: JupyterServer,
        name: str,
        context: Any,
        page: Any,
        log: PageLog,
        allow_legacy: bool = False,
    ) -> None:
        self.server = server
        self.allow_legacy = allow_legacy
        self.name = name
        self.context = context
        self.page = page
        self.log = log

    # -- the notebook and its kernel ----------------------------------------

    def state(self) -> dict[str, Any]:
        """Return the notebook's state from the app: kernel status and every cell's count, prompt, errors."""
        return self.page.evaluate(_NOTEBOOK_STATE_SCRIPT)

    def wait_for_kernel(self, timeout: float = 60) -> None:
        """Wait until the app shows the notebook with a connected, idle kernel.

        Parameters
        ----------
        timeout : float
            Seconds.

        """
        self.page.wait_for_function(
            "() => { const p = window.__ropeLive && window.__ropeLive.panel();"
            " const k = p && p.sessionContext.session && p.sessionContext.session.kernel;"
            " return !!k && k.status === 'idle' && k.connectionStatus === 'connected'; }",
            timeout=timeout * 1000,
            polling=200,
        )

    def command(self, command: str, timeout: float = 600) -> dict[str, Any]:
        """Execute a command of the app's registry (as its menu item does) and wait for it to finish.

        Parameters
        ----------
        command : str
            The command id, e.g. ``"notebook:run-all-cells"``.
        timeout : float
            Seconds.

        Returns
        -------
        dict
            ``{"result": ...}``, ``{"timeout": true}`` or ``{"error": ...}``.

        """
        return self.page.evaluate(_RUN_COMMAND_SCRIPT, [command, timeout * 1000])

    def run_all(self, timeout: float = 300, restart: bool = False) -> RunResult:
        """Run all cells (``notebook:run-all-cells``) or restart the kernel and run all; wait until done.

        Done means: the command resolved, the kernel is idle, no cell is queued or running, and every
        non-empty code cell was sent to the kernel during this run and got its ``execute_reply`` (seen on the
        kernel websocket; execution counts alone would not do, a notebook may be stored with counts). A run
        stops at the first cell with an error, as Run All does.

        Parameters
        ----------
        timeout : float
            Seconds before the run counts as stuck.
        restart : bool
            Restart the kernel first (``notebook:restart-run-all``, accepting its dialog).

        Returns
        -------
        RunResult
            The outcome.

        """
        sent_before = {id(sock): len(sock.execute_requests) for sock in self.log.kernel_sockets}
        self.page.evaluate(_READY_WATCH_SCRIPT, ready_selector(self.allow_legacy))
        start = time.monotonic()
        if restart:
            self.page.evaluate(
                "() => { window.__ropeLive.restartRun = window.jupyterapp.commands"
                ".execute('notebook:restart-run-all'); }"
            )
            accept = self.page.locator(".jp-Dialog .jp-Dialog-button.jp-mod-accept")
            accept.wait_for(state="visible", timeout=15_000)
            accept.click()
            finished = self.page.evaluate(
                "async t => Promise.race([window.__ropeLive.restartRun.then(() => ({})),"
                " new Promise(r => setTimeout(() => r({timeout: true}), t))])",
                timeout * 1000,
            )
        else:
            finished = self.command("notebook:run-all-cells", timeout)
        stuck = bool(finished.get("timeout"))
        deadline = start + timeout
        while True:
            state = self.state()
            code = [c for c in state["cells"] if c["type"] == "code"]
            expected = [c for c in code if c["source"].strip()]
            replied = self._replied_sources(sent_before)
            executed = sum(1 for c in expected if c["source"] in replied)
            settled = state["status"] == "idle" and not any("*" in (c["prompt"] or "") for c in code)
            if stuck or (settled and executed == len(expected)):
                break
            if settled and any(c["errors"] for c in code):
                break  # Run All stops at the first error; the rest never runs
            if time.monotonic() > deadline:
                stuck = True
                break
            self.page.wait_for_timeout(200)
        seconds = time.monotonic() - start
        # Give the figures of the last cells a moment to become interactive before reading the ready times.
        self.wait_for_figures(timeout=15, quiet=True)
        ready = self.page.evaluate("() => window.__ropeLive.ready")
        result = RunResult(
            seconds=seconds,
            stuck=stuck,
            code_cells=len(expected),
            executed=executed,
            errors=[f"cell {c['index']}: {e}" for c in code for e in c["errors"]],
        )
        cells = {c["index"]: c for c in state["cells"]}
        for item in ready:
            cell = cells.get(item["cellIndex"], {})
            timing = cell.get("timing") or {}
            started = _parse_time(
                timing.get("shell.execute_reply.started") or timing.get("iopub.status.busy")
            )
            result.ready_cells.append(item["cellIndex"])
            if started is not None:
                result.first_slider_s.append(item["at"] / 1000 - started)
        result.bytes_by_cell = self._bytes_by_cell(code, sent_before)
        return result

    def _replied_sources(self, sent_before: dict[int, int]) -> set[str]:
        """Code of every execute_request sent since ``sent_before`` that got its reply."""
        return {
            code
            for sock in self.log.kernel_sockets
            for msg_id, code in sock.execute_requests[sent_before.get(id(sock), 0) :]
            if msg_id in sock.replied
        }

    def _bytes_by_cell(self, code: list[dict[str, Any]], sockets_before: dict[int, int]) -> dict[int, int]:
        """Bytes received in reply to each code cell's latest execute_request of this run."""
        out: dict[int, int] = {}
        by_source = {c["source"]: c["index"] for c in code}
        for sock in self.log.kernel_sockets:
            for msg_id, source in sock.execute_requests[sockets_before.get(id(sock), 0) :]:
                index = by_source.get(source)
                if index is not None:
                    out[index] = sock.bytes_by_parent.get(msg_id, 0)
        return out

    def wait_for_figures(self, timeout: float = 30, quiet: bool = False) -> bool:
        """Wait until every live figure on the page is interactive.

        Parameters
        ----------
        timeout : float
            Seconds.
        quiet : bool
            Return False on timeout instead of raising.

        Returns
        -------
        bool
            True if every figure is ready.

        """
        dom = figure_dom(self.page)
        try:
            self.page.wait_for_function(
                "([root, ready]) => document.querySelectorAll(ready).length === "
                "document.querySelectorAll(root).length",
                arg=[dom.root, dom.ready],
                timeout=timeout * 1000,
                polling=200,
            )
        except Exception:
            if quiet:
                return False
            raise
        return True

    def figures(self, allow_legacy: bool = False) -> list[LiveFigure]:
        """Return the live figures on the page (see :func:`find_live_figures`)."""
        return find_live_figures(self.page, allow_legacy)

    # -- sliders ----------------------------------------

    def bring_into_view(self, selector: str, attempts: int = 6, block: str = "center") -> None:
        """Scroll the element into the viewport and wait until it stays there.

        The notebook may scroll on its own right after a run (to its active cell): check, and scroll again.

        Parameters
        ----------
        selector : str
            The element.
        attempts : int
            How many times to scroll before giving up.
        block : {"center", "start"}
            Where in the viewport (``scrollIntoView``'s ``block``); "start" only checks the element's top.

        """
        for _ in range(attempts):
            inside = self.page.evaluate(
                """([selector, block]) => new Promise(resolve => {
                    const element = document.querySelector(selector);
                    element.scrollIntoView({block, inline: 'nearest'});
                    window.__ropeLive.afterFrame(() => setTimeout(() => {
                        const box = element.getBoundingClientRect();
                        const bottom = block === 'start' ? box.top + 1 : box.bottom;
                        resolve(box.top >= 0 && bottom <= window.innerHeight && box.height > 0);
                    }, 150));
                })""",
                [selector, block],
            )
            if inside:
                return

    def slider_state(self, slider: LiveSlider) -> dict[str, Any]:
        """Value, value text, figure fingerprint, render counter and boxes of a slider and its figure."""
        dom = slider.figure.dom
        return self.page.evaluate(
            _SLIDER_STATE_SCRIPT, [slider.figure.selector, slider.selector, _dom_json(dom)]
        )

    def _record(self, slider: LiveSlider) -> None:
        dom = slider.figure.dom
        self.page.evaluate(
            _RECORDER_SCRIPT, [slider.figure.selector, dom.plot, slider.selector, list(dom.input_events)]
        )

    def _settle(self, quiet_ms: float, timeout_ms: float) -> dict[str, Any]:
        return self.page.evaluate(_SETTLE_SCRIPT, [quiet_ms, timeout_ms])

    def _gesture(
        self, method: str, slider: LiveSlider, before: dict[str, Any], record: dict[str, Any]
    ) -> Gesture:
        steps = [
            Step(s["start"], s["type"], s["trusted"], s["mutated"], s["painted"]) for s in record["steps"]
        ]
        last_input = max((s.start for s in steps), default=None)
        settle = None
        if last_input is not None and record["lastPaint"] and record["lastPaint"] >= last_input:
            settle = record["lastPaint"] - last_input
        return Gesture(
            method=method,
            figure=slider.figure.index,
            slider=slider.index,
            label=slider.label,
            before=before,
            after=self.slider_state(slider),
            steps=steps,
            settle_ms=settle,
            mutations=record["mutations"],
            renders=record["renders"],
            timed_out=bool(record.get("timedOut")),
        )

    def drag(
        self,
        slider: LiveSlider,
        fraction: float = 0.35,
        moves: int = 12,
        interval_ms: float = 16,
        quiet_ms: float = 400,
        timeout_ms: float = 10_000,
    ) -> Gesture:
        """Drag the slider's thumb with the mouse across ``fraction`` of its track (trusted input).

        The pointer presses on the thumb, moves in ``moves`` steps about ``interval_ms`` apart (a reader's
        pointer at 60 Hz), and releases; then the figure is given time to settle.

        Parameters
        ----------
        slider : LiveSlider
            The slider.
        fraction : float
            Part of the track to cross, towards the side with more room.
        moves : int
            Pointer moves.
        interval_ms : float
            Pause between moves.
        quiet_ms, timeout_ms : float
            The figure has settled once nothing changed for ``quiet_ms``; give up after ``timeout_ms``.

        Returns
        -------
        Gesture
            What happened.

        """
        page = self.page
        self.bring_into_view(slider.selector)
        before = self.slider_state(slider)
        track, thumb = before["track"], before["thumb"]
        span = max(1e-9, before["max"] - before["min"])
        position = (before["value"] - before["min"]) / span
        if before["step"]:
            # A slider of few positions: cross most of a position's width, so the value surely moves.
            fraction = min(0.9, max(fraction, 0.75 * before["step"] / span))
        if thumb["width"] and thumb["width"] < track["width"] * 0.5:
            x0 = thumb["x"] + thumb["width"] / 2  # a separate handle (noUiSlider): press on it
        else:
            inset = min(8.0, track["width"] / 4)  # a native range: the thumb sits along the inset track
            x0 = track["x"] + inset + position * (track["width"] - 2 * inset)
        direction = 1 if position <= 0.5 else -1
        x1 = x0 + direction * fraction * track["width"]
        y = (thumb["y"] + thumb["height"] / 2) if thumb["height"] else track["y"] + track["height"] / 2
        self._record(slider)
        page.mouse.move(x0, y)
        page.mouse.down()
        for k in range(1, moves + 1):
            page.mouse.move(x0 + (x1 - x0) * k / moves, y)
            page.wait_for_timeout(interval_ms)
        page.mouse.up()
        record = self._settle(quiet_ms, timeout_ms)
        return self._gesture("mouse", slider, before, record)

    def press(
        self, slider: LiveSlider, key: str | None = None, quiet_ms: float = 300, timeout_ms: float = 10_000
    ) -> Gesture:
        """Focus the slider and press one arrow key (trusted input); wait for the figure to settle.

        Parameters
        ----------
        slider : LiveSlider
            The slider.
        key : str, optional
            ``"ArrowRight"`` or ``"ArrowLeft"``; by default the direction with room to move.
        quiet_ms, timeout_ms : float
            As for :meth:`drag`.

        Returns
        -------
        Gesture
            What happened.

        """
        locator = self.page.locator(slider.selector)
        self.bring_into_view(slider.selector)
        before = self.slider_state(slider)
        if key is None:
            key = "ArrowLeft" if before["value"] >= before["max"] else "ArrowRight"
        locator.focus()
        self._record(slider)
        self.page.keyboard.press(key)
        record = self._settle(quiet_ms, timeout_ms)
        return self._gesture("keyboard", slider, before, record)

    def press_series(self, slider: LiveSlider, count: int = 4) -> list[Gesture]:
        """Press arrow keys ``count`` times: right while there is room, then left (one gesture per key)."""
        gestures = []
        direction = "ArrowRight"
        for _ in range(count):
            state = self.slider_state(slider)
            if state["value"] >= state["max"]:
                direction = "ArrowLeft"
            elif state["value"] <= state["min"]:
                direction = "ArrowRight"
            gestures.append(self.press(slider, direction))
        return gestures

    def move_sliders(
        self, figures: list[LiveFigure], presses: int = 3, sliders_per_figure: int | None = None
    ) -> list[Gesture]:
        """Move every slider (or the first ``sliders_per_figure`` of each figure) by mouse, then by keyboard.

        Parameters
        ----------
        figures : list of LiveFigure
            From :meth:`figures`.
        presses : int
            Arrow-key presses per slider (each its own gesture).
        sliders_per_figure : int, optional
            Only the first sliders of each figure.

        Returns
        -------
        list of Gesture
            One mouse gesture and ``presses`` keyboard gestures per slider, in order.

        """
        gestures: list[Gesture] = []
        for figure in figures:
            for slider in figure.sliders[:sliders_per_figure]:
                gestures.append(self.drag(slider))
                gestures.extend(self.press_series(slider, presses))
        return gestures

    def screenshot(self, path: Path, selector: str | None = None) -> None:
        """Save a screenshot of the viewport, scrolled to ``selector`` if given.

        Parameters
        ----------
        path : Path
            PNG file to write (folders created).
        selector : str, optional
            Element to bring into view first.

        """
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        if selector:
            self.bring_into_view(selector, block="start")
        self.page.screenshot(path=str(path))

    def close(self) -> None:
        """Close the page's browser context."""
        with contextlib.suppress(Exception):
            self.context.close()


def open_notebook(
    browser: Any,
    server: JupyterServer,
    name: str,
    *,
    reset: bool = True,
    viewport: tuple[int, int] = (1280, 900),
    timeout: float = 90,
) -> NotebookPage:
    """Open notebook ``name`` of ``server`` in a new context of ``browser`` and wait for its idle kernel.

    Parameters
    ----------
    browser : playwright.sync_api.Browser
        Chromium, launched by Playwright.
    server : JupyterServer
        The server.
    name : str
        The notebook's file name.
    reset : bool
        Copy the notebook from the source folder first (a clean notebook, as committed).
    viewport : tuple of int
        Width and height of the page.
    timeout : float
        Seconds for the app and the kernel to be ready.

    Returns
    -------
    NotebookPage
        The open notebook.

    """
    if reset:
        server.reset_notebook(name)
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    log = watch_page(page)
    page.goto(server.notebook_url(name), wait_until="domcontentloaded", timeout=timeout * 1000)
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.shell", timeout=timeout * 1000, polling=200
    )
    page.evaluate(_HELPERS_SCRIPT)
    notebook = NotebookPage(server, name, context, page, log)
    notebook.wait_for_kernel(timeout)
    return notebook


def percentile(values: Iterable[float], fraction: float) -> float | None:
    """Nearest-rank percentile (None for no values).

    Parameters
    ----------
    values : iterable of float
        The sample.
    fraction : float
        E.g. 0.95.

    Returns
    -------
    float or None
        The percentile.

    """
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def latency_summary(gestures: Iterable[Gesture]) -> dict[str, Any]:
    """Step latency p50 and p95 (milliseconds) by mouse, by keyboard and over all steps, and settle p95.

    Parameters
    ----------
    gestures : iterable of Gesture
        The measured gestures.

    Returns
    -------
    dict
        ``{"mouse": {"n", "p50", "p95", "max"}, "keyboard": {...}, "all": {...}, "settle_p95": ...}``.

    """
    gestures = list(gestures)

    def stats(values: list[float]) -> dict[str, Any]:
        return {
            "n": len(values),
            "p50": percentile(values, 0.5),
            "p95": percentile(values, 0.95),
            "max": max(values) if values else None,
        }

    mouse = [v for g in gestures if g.method == "mouse" for v in g.latencies()]
    keyboard = [v for g in gestures if g.method == "keyboard" for v in g.latencies()]
    settle = [g.settle_ms for g in gestures if g.settle_ms is not None]
    return {
        "mouse": stats(mouse),
        "keyboard": stats(keyboard),
        "all": stats(mouse + keyboard),
        "settle_p95": percentile(settle, 0.95),
    }
