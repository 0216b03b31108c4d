"""A small thread-safe circuit breaker, shared by the search layer and the web's Redis guard.

Why: a hung dependency costs every caller its full timeout. After ``failures`` consecutive
failures the breaker opens and callers fail at once; after ``cooldown`` seconds one call
is let through as a probe (half-open): success closes the breaker, failure re-opens it.
One breaker per process (each gunicorn worker has its own), no shared state.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

CLOSED, OPEN, HALF_OPEN = "closed", "open", "half-open"


class CircuitOpen(Exception):
    """Raised by :meth:`CircuitBreaker.guard` while the breaker refuses calls."""

    def __init__(self, name: str, retry_after: float):
        super().__init__(f"{name}: circuit open, retry in {retry_after:.1f}s")
        self.retry_after = retry_after


class CircuitBreaker:
    """Counts consecutive failures of guarded calls; ``is_failure`` says which exceptions count."""

    def __init__(self, name: str, *, failures: int = 3, cooldown: float = 2.0,
                 is_failure: Callable[[BaseException], bool] = lambda exc: True,
                 is_slow: Callable[[BaseException], bool] = lambda exc: False,
                 clock: Callable[[], float] = time.monotonic):
        self.name = name
        self.failures = failures
        self.cooldown = cooldown
        self.is_failure = is_failure
        # A slow failure (a timeout) counts only when nothing succeeded for ``cooldown``: a busy
        # dependency that still answers others is not down (a crowd's timeouts must not turn
        # into 503s for everyone), a hung one answers no one.
        self.is_slow = is_slow
        self._last_success = clock()
        self._clock = clock
        self._lock = threading.Lock()
        self._count = 0
        self._opened_at: float | None = None
        self._probing = False

    @property
    def state(self) -> str:
        with self._lock:
            if self._opened_at is None:
                return CLOSED
            return HALF_OPEN if self._clock() - self._opened_at >= self.cooldown else OPEN

    def _admit(self) -> None:
        """Let a call go ahead, or raise :class:`CircuitOpen`; a half-open breaker admits one probe."""
        with self._lock:
            if self._opened_at is None:
                return
            waited = self._clock() - self._opened_at
            if waited < self.cooldown or self._probing:
                raise CircuitOpen(self.name, max(self.cooldown - waited, 0.0) or self.cooldown)
            self._probing = True

    def record_success(self) -> None:
        with self._lock:
            self._last_success = self._clock()
            self._count = 0
            self._opened_at = None
            self._probing = False

    def record_failure(self) -> None:
        with self._lock:
            self._count += 1
            if self._probing or self._count >= self.failures:
                self._opened_at = self._clock()
            self._probing = False

    @contextmanager
    def guard(self) -> Iterator[None]:
        """Run the block unless the breaker is open (then :class:`CircuitOpen`); record its outcome."""
        self._admit()
        try:
            yield
        except BaseException as exc:
            if self.is_failure(exc):
                if not self.is_slow(exc) or self._clock() - self._last_success >= self.cooldown:
                    self.record_failure()
            else:
                self.record_success()  # the dependency answered, even if with an error
            raise
        else:
            self.record_success()
