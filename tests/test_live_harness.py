"""The live tests' reading of kernel websocket frames (``tests/live/jupyter_client.py``): decoding v1 frames,
and telling IOPub messages the kernel mixed from other errors of the front end."""

from __future__ import annotations

import json

from tests.live import jupyter_client
from tests.live.test_live_notebooks import _kernel_mixed_messages

TOPIC = b"kernel.762a5b1e-8c4f-4d0e-9a51-0c3f2b7d9e11.status"


def v1_frame(parts: list[bytes]) -> bytes:
    """A ``v1.kernel.websocket.jupyter.org`` frame: part count, offsets (uint64, little-endian), parts."""
    offsets = [8 * (len(parts) + 1)]
    for part in parts[:-1]:
        offsets.append(offsets[-1] + len(part))
    head = len(parts).to_bytes(8, "little") + b"".join(offset.to_bytes(8, "little") for offset in offsets)
    return head + b"".join(parts)


def message_parts(msg_type: str, channel: str = "iopub") -> list[bytes]:
    header = json.dumps({"msg_id": "a1", "msg_type": msg_type}).encode()
    return [channel.encode(), header, b"{}", b"{}", b'{"execution_state": "idle"}']


class FakePage:
    def __init__(self, *frames: bytes) -> None:
        self.log = jupyter_client.PageLog()
        sock = jupyter_client.KernelSocket("ws://127.0.0.1/api/kernels/k1/channels")
        for frame in frames:
            sock.on_received(frame)
        self.log.kernel_sockets.append(sock)


def unparsed(quoted: str, whole: bool = False) -> jupyter_client.ConsoleEntry:
    """The front end's error on a part that is not JSON: chromium quotes its start and "...", or all of it."""
    cut = "" if whole else "..."
    text = (
        "Kernel message validation error: "
        f"Unexpected token '{quoted[0]}', \"{quoted}\"{cut} is not valid JSON"
    )
    return jupyter_client.ConsoleEntry("pageerror", text, "at JSON.parse (<anonymous>)")


def test_v1_parts_round_trip_and_decode():
    parts = message_parts("status")
    assert jupyter_client.v1_parts(v1_frame(parts)) == parts
    decoded = jupyter_client.decode_frame(v1_frame(parts))
    header = {"msg_id": "a1", "msg_type": "status"}
    assert decoded == {"channel": "iopub", "header": header, "parent_header": {}}
    assert jupyter_client.v1_parts(json.dumps({"header": {}})) is None
    assert jupyter_client.v1_parts(b"\x00" * 7) is None


def test_a_frame_with_a_topic_for_its_header_is_kept_as_iopub_messages_mixed():
    mixed = [b"iopub", TOPIC, b"<IDS|MSG>", b"{}", b"{}"]
    page = FakePage(v1_frame(message_parts("status")), v1_frame(mixed))
    assert page.log.kernel_sockets[0].malformed == [mixed]
    assert page.log.interleaved_iopub_frames() == [mixed]
    # Not JSON, but no topic in it, or not on IOPub: another fault, not the kernel's mix.
    assert not jupyter_client.interleaved_iopub([b"iopub", b"not json", b"{}", b"{}", b"{}"])
    assert not jupyter_client.interleaved_iopub([b"shell", TOPIC, b"{}", b"{}", b"{}"])


def test_a_stream_topic_in_a_mixed_frame_excuses_the_error_that_quotes_it_whole():
    """Printed output's topic, ``stream.stderr``, is short enough for chromium to quote whole, no "..."."""
    page = FakePage(v1_frame([b"iopub", b"stream.stderr", b"<IDS|MSG>", b"{}", b"{}"]))
    whole = unparsed("stream.stderr", whole=True)
    assert _kernel_mixed_messages([whole], page) == ([whole], [])
    assert _kernel_mixed_messages([whole], FakePage()) == ([], [whole])
    assert not jupyter_client.interleaved_iopub([b"iopub", b"stream", b"{}", b"{}", b"{}"])


def test_only_errors_quoting_a_mixed_frame_are_the_kernels():
    page = FakePage(v1_frame([b"iopub", TOPIC, b"<IDS|MSG>", b"{}", b"{}"]))
    first, second, other = unparsed("kernel.762"), unparsed("kernel.762"), unparsed("kernel.999")
    crash = jupyter_client.ConsoleEntry("pageerror", "TypeError: x is undefined", "")
    kernels, others = _kernel_mixed_messages([first, second, other, crash], page)
    assert kernels == [first]  # one mixed frame excuses one error
    assert others == [second, other, crash]
    assert _kernel_mixed_messages([first], FakePage()) == ([], [first])


def test_a_topic_in_the_metadata_or_content_is_kept_though_the_header_parses():
    """The front end parses all four JSON parts; a topic past the header loses the message all the same.

    The mix seen in the restart test: a message's header and parent header whole, then the next message's
    topic where the metadata belongs.
    """
    header = json.dumps({"msg_id": "a1", "msg_type": "stream"}).encode()
    in_metadata = [b"iopub", header, b"{}", b"stream.stderr", b"<IDS|MSG>"]
    in_content = [b"iopub", header, b"{}", b"{}", TOPIC]
    page = FakePage(v1_frame(in_metadata), v1_frame(in_content), v1_frame(message_parts("status")))
    assert page.log.interleaved_iopub_frames() == [in_metadata, in_content]
    whole = unparsed("stream.stderr", whole=True)
    cut = unparsed("kernel.762")
    assert _kernel_mixed_messages([whole, cut], page) == ([whole, cut], [])
    assert not jupyter_client.front_end_parses(in_metadata)
    assert jupyter_client.front_end_parses(message_parts("status"))
