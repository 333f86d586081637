"""Create a virtual environment the way Binder (repo2docker) builds the course's environment.

repo2docker first creates its frozen base environment (JupyterLab, Notebook, ipykernel, ipywidgets, ...)
and then runs ``pip install -r requirements.txt`` from the repository root in that same environment. This
script does the same in a plain venv::

    python tests/live/make_env.py .venv-binder --stack binder
    python tests/live/make_env.py .venv-latest --stack latest
    python tests/live/make_env.py /tmp/venv-try --stack binder --requirements /tmp/requirements-try.txt

``--stack binder`` installs the base packages pinned in ``binder_stack.txt`` (beside this file);
``--stack latest`` installs the newest ``jupyterlab`` and ``notebook`` instead. An existing environment is
reused as long as the hash of its inputs (stack, stack file, requirements file, ``pyproject.toml``, Python
version) is unchanged; the hash is kept in a stamp file inside the environment, as ``dev.sh`` does.

The course package is installed from the requirements file (``.[figures]``), not editable, exactly as on
Binder. When only ``rope_viz/`` changed since, the package alone is installed again (``--no-deps``), so the
tests always drive the code of the working tree.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
STACK_FILE = HERE / "binder_stack.txt"
STAMP_NAME = ".make_env.sha256"
PACKAGE_STAMP_NAME = ".make_env.package.sha256"
#: What ``--stack latest`` installs before the requirements: the newest front end.
LATEST_STACK = ("jupyterlab", "notebook")
STACKS = ("binder", "latest")


def inputs_hash(stack: str, requirements: Path, python: str) -> str:
    """Return the hash of everything that decides the environment's contents.

    Parameters
    ----------
    stack : {"binder", "latest"}
        The base stack.
    requirements : Path
        The requirements file installed after the base stack.
    python : str
        The interpreter the venv is created from.

    Returns
    -------
    str
        Hexadecimal SHA-256 digest.

    """
    version = subprocess.run(
        [python, "-c", "import sys; print(sys.version)"], check=True, capture_output=True, text=True
    ).stdout
    digest = hashlib.sha256()
    parts = [
        stack.encode(),
        version.encode(),
        requirements.read_bytes(),
        (ROOT / "pyproject.toml").read_bytes(),
    ]
    if stack == "binder":
        parts.append(STACK_FILE.read_bytes())
    for part in parts:
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def package_hash() -> str:
    """Return the hash of what the package installs: ``rope_viz/`` (no caches), jupyter-config, pyproject."""
    digest = hashlib.sha256()
    files = [*(ROOT / "rope_viz").rglob("*"), *(ROOT / "jupyter-config").rglob("*"), ROOT / "pyproject.toml"]
    for path in sorted(files):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def pip(dest: Path, *arguments: str, check: bool = True) -> int:
    """Run the venv's pip from the repository root (``.[figures]`` in requirements is relative to it).

    Parameters
    ----------
    dest : Path
        The venv.
    *arguments : str
        Arguments after ``pip``.
    check : bool
        Raise if pip fails.

    Returns
    -------
    int
        pip's exit status.

    """
    command = [str(dest / "bin" / "python"), "-m", "pip", *arguments]
    print("+", " ".join(command), flush=True)
    return subprocess.run(command, check=check, cwd=ROOT).returncode


def make_env(dest: Path, stack: str, requirements: Path, python: str, force: bool = False) -> bool:
    """Create or update the environment at ``dest``.

    Parameters
    ----------
    dest : Path
        Where the venv goes.
    stack : {"binder", "latest"}
        ``"binder"``: the pinned repo2docker base (``binder_stack.txt``); ``"latest"``: the newest
        ``jupyterlab`` and ``notebook``.
    requirements : Path
        The requirements file to install after the base, as repo2docker does with ``requirements.txt``.
    python : str
        The interpreter to create the venv from.
    force : bool
        Reinstall even when the stamp matches.

    Returns
    -------
    bool
        True if the environment was (re)installed, False if it was reused.

    """
    if stack not in STACKS:
        raise ValueError(f"stack must be one of {STACKS}, got {stack!r}")
    want = inputs_hash(stack, requirements, python)
    stamp = dest / STAMP_NAME
    package_stamp = dest / PACKAGE_STAMP_NAME
    if not force and stamp.is_file() and stamp.read_text().strip() == want:
        package = package_hash()
        if package_stamp.is_file() and package_stamp.read_text().strip() == package:
            print(f"{dest}: up to date (stack {stack}, {requirements})")
            return False
        pip(dest, "install", "--quiet", "--no-deps", "--force-reinstall", ".")
        package_stamp.write_text(package + "\n")
        return True
    if not (dest / "bin" / "python").exists():
        subprocess.run([python, "-m", "venv", str(dest)], check=True)
    stamp.unlink(missing_ok=True)
    pip(dest, "install", "--quiet", "--upgrade", "pip")
    if stack == "binder":
        pip(dest, "install", "--quiet", "-r", str(STACK_FILE))
    else:
        pip(dest, "install", "--quiet", "--upgrade", *LATEST_STACK)
    # repo2docker's step, unchanged: no constraints, pip's default only-if-needed upgrades.
    pip(dest, "install", "--quiet", "-r", str(requirements))
    # Report broken Python dependencies (repo2docker does not check; neither does this fail on them).
    pip(dest, "check", check=False)
    stamp.write_text(want + "\n")
    package_stamp.write_text(package_hash() + "\n")
    return True


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and build the environment.

    Parameters
    ----------
    argv : list of str, optional
        Arguments without the program name; ``sys.argv[1:]`` by default.

    Returns
    -------
    int
        Exit status.

    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path, help="where to create the venv")
    parser.add_argument("--stack", choices=STACKS, default="binder", help="the base stack (default: binder)")
    parser.add_argument(
        "--requirements",
        type=Path,
        default=ROOT / "requirements.txt",
        help="requirements file installed after the base (default: the repository's requirements.txt)",
    )
    parser.add_argument(
        "--python", default="python3.11", help="interpreter to create the venv from (default: python3.11)"
    )
    parser.add_argument("--force", action="store_true", help="reinstall even if the stamp is current")
    args = parser.parse_args(argv)
    make_env(args.dest.resolve(), args.stack, args.requirements.resolve(), args.python, args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
