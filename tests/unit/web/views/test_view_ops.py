"""Health, readiness and metrics, and the admin API's gate."""

from __future__ import annotations

from fake_reads import FakeReads, fake_app


def test_health_and_readiness():
    client = fake_app().test_client()
    assert client.get("/healthz").get_json() == {"status": "ok"}
    assert client.get("/readyz").get_json() == {"status": "ready", "index": "test-fake"}


def test_not_ready_is_a_503_not_a_500():
    class Down(FakeReads):
        def ready(self) -> bool:
            raise RuntimeError("no cluster")

    resp = fake_app(Down()).test_client().get("/readyz")
    assert resp.status_code == 503 and resp.get_json()["status"] == "unavailable"


def test_metrics_for_internal_clients_only():
    client = fake_app().test_client()
    client.get("/api/v1/search", query_string={"q": "graph"})
    inside = client.get("/metrics")
    assert inside.status_code == 200 and b'paperlist_http_requests_total{method="GET",route="/api/v1/search"' in inside.data
    assert b"paperlist_indexer_redis_up 0.0" in inside.data  # Redis unreachable: said, not an error
    outside = client.get("/metrics", environ_base={"REMOTE_ADDR": "8.8.8.8"})
    assert outside.status_code == 403 and outside.get_json()["error"]["code"] == "forbidden"


def test_the_admin_api_needs_its_token_and_redis():
    client = fake_app().test_client()
    refused = client.post("/api/v1/admin/reindex", headers={"Authorization": "Bearer wrong"})
    assert refused.status_code == 401 and refused.headers["WWW-Authenticate"].startswith("Bearer")
    assert refused.get_json()["error"]["code"] == "unauthorized"
    down = client.post("/api/v1/admin/reindex", headers={"Authorization": "Bearer test-token"})
    assert down.status_code == 503 and down.headers["Retry-After"]  # Redis is on a closed port
    disabled = fake_app(PAPERLIST_ADMIN_TOKEN="").test_client()
    assert disabled.get("/api/v1/admin/reindex", headers={"Authorization": "Bearer x"}).status_code == 404
