"""Who counts as internal (may scrape /metrics) and as this host (never rate-limited)."""

from __future__ import annotations

from services.web.http.proxy import is_internal, is_loopback


def test_metrics_only_for_internal_clients():
    allowed = is_internal
    assert allowed("127.0.0.1") and allowed("10.0.0.7") and allowed("192.168.1.2") and allowed("::1")
    assert not allowed("8.8.8.8") and not allowed("2001:4860::8888") and not allowed("") and not allowed(None)


def test_only_this_host_is_loopback():
    assert is_loopback("127.0.0.1") and is_loopback("::1")
    assert not is_loopback("10.0.0.7") and not is_loopback("8.8.8.8") and not is_loopback("") and not is_loopback(None)
