"""Benchmark rope_viz.rotate against x.copy() and against plain implementations.

Every time is reported as a ratio to ``x.copy()`` of the same array, measured in the same process: a
copy reads ``x`` once and writes a new array once, the memory traffic that ``rotate`` cannot avoid, so the
ratio says how close to that floor a path gets. Times are medians over ``--repeat`` runs, with the copy and
the measured function alternating so that both see the same machine load.

The two slow baselines are timed on a subset of the positions and extrapolated linearly to the whole
sequence (their cost is strictly per position); the table says so. BLAS runs on one thread, like everything
else here.

Usage::

    .venv/bin/python benchmarks/bench_rotate.py [--repeat 9] [--heads 32] [--seq 4096] [--dim 128]
"""

from __future__ import annotations

import os

# rotate and x.copy() run on one core; pin BLAS (used by the matrix baseline) to one thread too, so that no
# path gets a second core and BLAS threads do not spin against other processes. Must precede importing numpy.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse  # noqa: E402
import datetime  # noqa: E402
import math  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from functools import partial  # noqa: E402

import numpy as np  # noqa: E402

import rope_viz as rv  # noqa: E402

CONVENTIONS = ("interleaved", "half")


TIMERS = {"wall": time.perf_counter, "cpu": time.process_time}


def median_seconds(
    function: Callable[[], object], repeat: int, reference: Callable[[], object], timer: Callable[[], float]
) -> tuple[float, float]:
    """Median time of ``function`` and of ``reference``, measured alternately after one warm-up each."""
    function()
    reference()
    times, reference_times = [], []
    for _ in range(repeat):
        start = timer()
        reference()
        reference_times.append(timer() - start)
        start = timer()
        function()
        times.append(timer() - start)
    return statistics.median(times), statistics.median(reference_times)


def pair_indices(dim: int, convention: str) -> tuple[np.ndarray, np.ndarray]:
    pairs = np.arange(dim // 2)
    if convention == "interleaved":
        return 2 * pairs, 2 * pairs + 1
    return pairs, pairs + dim // 2


def textbook_numpy(x: np.ndarray, positions: np.ndarray, convention: str) -> np.ndarray:
    """The usual vectorised numpy: cos/sin at (seq, d/2), then four products and two sums with temporaries."""
    dim = x.shape[-1]
    theta = np.outer(positions, rv.inv_freq(dim))
    cos, sin = np.cos(theta).astype(x.dtype), np.sin(theta).astype(x.dtype)
    a, b = (
        (slice(0, None, 2), slice(1, None, 2))
        if convention == "interleaved"
        else (
            slice(0, dim // 2),
            slice(dim // 2, None),
        )
    )
    out = np.empty_like(x)
    out[..., a] = x[..., a] * cos - x[..., b] * sin
    out[..., b] = x[..., a] * sin + x[..., b] * cos
    return out


def matrix_per_position(x: np.ndarray, positions: np.ndarray, convention: str) -> np.ndarray:
    """Build R(m) for every position and multiply: ``out[:, m] = x[:, m] @ R(m).T``."""
    out = np.empty_like(x)
    for index, m in enumerate(positions):
        matrix = rv.rotation_matrix(m, x.shape[-1], convention=convention).astype(x.dtype)
        out[:, index, :] = x[:, index, :] @ matrix.T
    return out


def python_loop(x: np.ndarray, positions: np.ndarray, convention: str) -> np.ndarray:
    """Rotate one pair at a time in Python: for every head, position and pair, two products and a sum each."""
    out = np.empty_like(x)
    a_index, b_index = pair_indices(x.shape[-1], convention)
    theta = rv.inv_freq(x.shape[-1]).tolist()
    rows = x.tolist()
    for head in range(x.shape[0]):
        for index, m in enumerate(positions.tolist()):
            row = rows[head][index]
            for a, b, t in zip(a_index.tolist(), b_index.tolist(), theta, strict=True):
                c, s = math.cos(m * t), math.sin(m * t)
                out[head, index, a] = row[a] * c - row[b] * s
                out[head, index, b] = row[a] * s + row[b] * c
    return out


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}, numpy {np.__version__}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=9, help="timed runs per measurement (median reported)")
    parser.add_argument("--heads", type=int, default=32)
    parser.add_argument("--seq", type=int, default=4096)
    parser.add_argument("--dim", type=int, default=128)
    parser.add_argument(
        "--matrix-subset", type=int, default=64, help="positions timed for the matrix baseline"
    )
    parser.add_argument("--loop-subset", type=int, default=2, help="positions timed for the Python loop")
    parser.add_argument("--no-baselines", action="store_true", help="time rotate and the copy only")
    parser.add_argument(
        "--timer",
        choices=sorted(TIMERS),
        default="wall",
        help="wall clock (default), or CPU time of this process, which leaves out the time other processes "
        "hold the core on a loaded machine",
    )
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    positions = np.arange(args.seq, dtype=np.float64)
    load_before = os.getloadavg()[0]
    rows = []
    for dtype in (np.float32, np.float64):
        x = rng.standard_normal((args.heads, args.seq, args.dim)).astype(dtype)
        tolerance = 1e-4 if dtype == np.float32 else 1e-10
        for convention in CONVENTIONS:
            expected = rv.rotate(x, positions, convention=convention)
            # (name, function, positions timed, note); each baseline is first checked against rotate
            measured = [
                ("`rv.rotate`", partial(rv.rotate, x, positions, convention=convention), args.seq, "")
            ]
            if not args.no_baselines:
                baselines = [
                    ("textbook numpy", textbook_numpy, args.seq),
                    ("matrix per position", matrix_per_position, args.matrix_subset),
                    ("Python per-pair loop", python_loop, args.loop_subset),
                ]
                for name, function, subset in baselines:
                    call = partial(function, x[:, :subset], positions[:subset], convention)
                    np.testing.assert_allclose(call(), expected[:, :subset], atol=tolerance)
                    note = (
                        "whole array"
                        if subset == args.seq
                        else f"timed on {subset} of {args.seq} positions, extrapolated x{args.seq / subset:g}"
                    )
                    measured.append((name, call, subset, note))
            for name, call, subset, note in measured:
                seconds, copy_seconds = median_seconds(call, args.repeat, x.copy, TIMERS[args.timer])
                rows.append((name, dtype, convention, seconds * args.seq / subset, copy_seconds, note))

    shape = f"({args.heads}, {args.seq}, {args.dim})"
    print(f"x: {shape}, positions arange({args.seq}), median of {args.repeat} runs, {args.timer} time")
    print(f"machine: {machine()}; date: {datetime.date.today().isoformat()}")
    print(f"1-minute load average: {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
    print()
    print(
        "| path | dtype | convention | time (ms) | `x.copy()` in the same runs (ms) | ratio to copy | note |"
    )
    print("|---|---|---|---:|---:|---:|---|")
    for name, dtype, convention, seconds, copy_seconds, note in rows:
        cells = [
            name,
            np.dtype(dtype).name,
            convention,
            f"{seconds * 1e3:,.1f}",
            f"{copy_seconds * 1e3:,.1f}",
            f"{seconds / copy_seconds:,.2f}",
            note,
        ]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
