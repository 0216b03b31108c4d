"""The circuit breaker: opens after N consecutive failures, probes once after the cool-down."""

from __future__ import annotations

import pytest

from services.search.engine.breaker import CLOSED, HALF_OPEN, OPEN, CircuitBreaker, CircuitOpen


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Down(Exception):
    pass


def _fail(breaker: CircuitBreaker) -> None:
    with pytest.raises(Down), breaker.guard():
        raise Down


def _succeed(breaker: CircuitBreaker) -> str:
    with breaker.guard():
        return "ok"


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def breaker(clock):
    return CircuitBreaker("dep", failures=3, cooldown=2.0, clock=clock,
                          is_failure=lambda exc: isinstance(exc, Down))


def test_opens_after_consecutive_failures_only(breaker):
    _fail(breaker)
    _fail(breaker)
    _succeed(breaker)  # resets the count
    _fail(breaker)
    _fail(breaker)
    assert breaker.state == CLOSED
    _fail(breaker)
    assert breaker.state == OPEN
    with pytest.raises(CircuitOpen) as refused, breaker.guard():
        pytest.fail("an open breaker must not run the call")
    assert 0 < refused.value.retry_after <= 2.0


def test_other_errors_do_not_count(breaker):
    for _ in range(5):
        with pytest.raises(KeyError), breaker.guard():
            raise KeyError("answered, but with an error")
    assert breaker.state == CLOSED


def test_half_open_probe_closes_on_success(breaker, clock):
    for _ in range(3):
        _fail(breaker)
    clock.now += 2.0
    assert breaker.state == HALF_OPEN
    assert _succeed(breaker) == "ok"
    assert breaker.state == CLOSED


def test_half_open_probe_failure_reopens_and_only_one_probe_runs(breaker, clock):
    for _ in range(3):
        _fail(breaker)
    clock.now += 2.5
    with breaker.guard():
        # While the probe is in flight, other callers are refused.
        with pytest.raises(CircuitOpen), breaker.guard():
            pass
        clock.now += 0.1
    assert breaker.state == CLOSED
    for _ in range(3):
        _fail(breaker)
    clock.now += 2.0
    _fail(breaker)  # the probe fails: open again for a full cool-down
    assert breaker.state == OPEN
    clock.now += 1.9
    assert breaker.state == OPEN


def test_timeouts_open_the_breaker_only_when_nothing_answered_for_the_cooldown():
    """A busy dependency that still answers others is not down; a hung one (no success at all) is."""
    clock = [0.0]
    breaker = CircuitBreaker("es", failures=2, cooldown=2.0, is_slow=lambda exc: isinstance(exc, TimeoutError),
                             clock=lambda: clock[0])
    def timing_out():
        with breaker.guard():
            raise TimeoutError
    for _ in range(5):  # within the cooldown of the last success: not counted
        with pytest.raises(TimeoutError):
            timing_out()
    assert breaker.state == CLOSED
    clock[0] += 2.5  # nothing answered since: now they count
    for _ in range(2):
        with pytest.raises(TimeoutError):
            timing_out()
    assert breaker.state == OPEN
