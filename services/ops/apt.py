"""Debian packages the local stack needs (redis-server, nginx and its njs module), installed once when missing."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from .processes import StackError


def ensure_package(binary: str, package: str, log=print) -> str:
    """The path of ``binary``, installing Debian's ``package`` (as root) when it is missing.

    Debian's packages start a system service on install; paperlist runs its own
    instance from the run folder instead, so that service is stopped again.
    """
    return _ensure(lambda: _which(binary), binary, package, log)


def ensure_file(path: Path, package: str, log=print) -> str:
    """``path`` (a file a package installs, such as an nginx module), installing ``package`` when it is missing."""
    return _ensure(lambda: str(path) if path.is_file() else None, str(path), package, log)


def _ensure(find: Callable[[], str | None], what: str, package: str, log) -> str:
    found = find()
    if found:
        return found
    if not shutil.which("apt-get") or os.geteuid() != 0:
        raise StackError(f"{what} is missing: install Debian's {package} package "
                         f"(apt-get install -y {package})")
    log(f"installing Debian's {package} (once)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for argv in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", package]):
        result = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
        if result.returncode != 0:
            raise StackError(f"{' '.join(argv)} failed: {result.stderr.strip()[-400:]}")
    subprocess.run(["service", package, "stop"], capture_output=True, check=False)
    found = find()
    if not found:
        raise StackError(f"{what} is still missing after apt-get install {package}")
    return found


def _which(binary: str) -> str | None:
    """PATH first, then /usr/sbin (not on a non-root PATH, where Debian puts nginx)."""
    return shutil.which(binary) or shutil.which(binary, path="/usr/sbin:/sbin")
