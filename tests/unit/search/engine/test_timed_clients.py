"""Per-call timeouts reuse their clients: never more time than is left, never a client built per call."""

from __future__ import annotations

from typing import Any

from services.search.engine.client import TimedClients


class Client:
    built = 0

    def __init__(self, request_timeout: float | None = None):
        self.request_timeout = request_timeout

    def options(self, *, request_timeout: float, **_: Any) -> Client:
        Client.built += 1
        return Client(request_timeout)


def test_a_timeout_is_cut_down_to_its_step_and_its_client_kept():
    Client.built = 0
    timed = TimedClients(Client())  # type: ignore[arg-type]
    first = timed(1.4999)
    assert first.request_timeout == 1.49  # never more than was left
    assert timed(1.491) is first and timed(1.5).request_timeout == 1.5 and timed(0.75).request_timeout == 0.75
    assert Client.built == 3  # 1.49, 1.5, 0.75: built once each
    assert timed(0.0001).request_timeout == 0.01  # the least a call gets: one step, never 0 (no timeout at all)
