"""Background processes tracked by pid files, so ``down`` stops exactly what ``up`` started."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


class StackError(RuntimeError):
    """A prerequisite is missing or a service would not start; the message says which."""


@dataclass(frozen=True)
class Managed:
    """A service of the local stack: its pid file and log file live in the run folder."""

    name: str
    run_dir: Path

    @property
    def pidfile(self) -> Path:
        return self.run_dir / f"{self.name}.pid"

    @property
    def logfile(self) -> Path:
        return self.run_dir / f"{self.name}.log"

    def pid(self) -> int | None:
        """The pid from our pid file when that process is still alive."""
        try:
            pid = int(self.pidfile.read_text().strip())
        except (OSError, ValueError):
            return None
        return pid if alive(pid) else None

    def start(self, argv: Sequence[str], env: Mapping[str, str] | None = None,
              cwd: Path | None = None, user: str | None = None) -> int:
        """Start ``argv`` detached in its own session, logging to our log file."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        if user:
            argv = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *argv]
        with open(self.logfile, "ab") as log:
            proc = subprocess.Popen(  # noqa: S603 - argv is built by us, never from input
                list(argv), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env=dict(env) if env is not None else None, cwd=cwd, start_new_session=True,
            )
        self.pidfile.write_text(f"{proc.pid}\n")
        return proc.pid

    def stop(self, timeout: float = 30.0) -> bool:
        """SIGTERM the process group, SIGKILL after ``timeout``; True when something was stopped."""
        pid = self.pid()
        self.pidfile.unlink(missing_ok=True)
        if pid is None:
            return False
        _signal_group(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not alive(pid):
                return True
            time.sleep(0.2)
        _signal_group(pid, signal.SIGKILL)
        return True


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie child of ours still "exists"; reap it if so.
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        return done == 0
    except ChildProcessError:
        return _not_zombie(pid)


def _not_zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def _signal_group(pid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(os.getpgid(pid), sig)
    except (ProcessLookupError, PermissionError):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def wait_until(check, timeout: float, what: str, logfile: Path | None = None) -> None:
    """Poll ``check()`` until true or raise a StackError naming the log to read."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.5)
    hint = f"; see {logfile}" if logfile else ""
    raise StackError(f"{what} did not become ready within {timeout:.0f}s{hint}")
