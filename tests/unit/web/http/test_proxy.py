"""Who counts as internal (may scrape /metrics) and who is exempt from rate limits (configured networks)."""

from __future__ import annotations

from services.settings import load_settings
from services.web.http.proxy import in_networks, is_internal


def test_metrics_only_for_internal_clients():
    allowed = is_internal
    assert allowed("127.0.0.1") and allowed("10.0.0.7") and allowed("192.168.1.2") and allowed("::1")
    assert not allowed("8.8.8.8") and not allowed("2001:4860::8888") and not allowed("") and not allowed(None)


def test_by_default_only_the_hosts_own_address_is_exempt_not_all_of_loopback():
    exempt = load_settings().rate_limit_exempt_networks
    assert in_networks("127.0.0.1", exempt) and in_networks("::1", exempt)
    assert not in_networks("127.0.0.3", exempt) and not in_networks("10.0.0.7", exempt)
    assert not in_networks("", exempt) and not in_networks(None, exempt) and not in_networks("junk", exempt)


def test_exempt_networks_are_configured():
    exempt = load_settings(PAPERLIST_RATE_LIMIT_EXEMPT="10.0.0.0/8, 127.0.0.0/8").rate_limit_exempt_networks
    assert in_networks("10.1.2.3", exempt) and in_networks("127.0.0.3", exempt)
    assert not in_networks("::1", exempt)
    assert load_settings(PAPERLIST_RATE_LIMIT_EXEMPT="").rate_limit_exempt_networks == ()
