"""Credentials in ES_URL / REDIS_URL (as docker-compose passes them) reach the clients, never messages."""

from __future__ import annotations

import redis

from services.ops.urls import redact
from services.search.engine.client import make_client
from services.settings import load_settings


def test_es_url_userinfo_becomes_basic_auth_on_every_node():
    settings = load_settings(ES_URL="http://elastic:s3cret@es1:9200,http://elastic:s3cret@es2:9200")
    client = make_client(settings)
    nodes = client.transport.node_pool.all()
    assert sorted(node.config.host for node in nodes) == ["es1", "es2"]
    for node in nodes:
        assert node.config.headers["authorization"] == "Basic ZWxhc3RpYzpzM2NyZXQ="  # elastic:s3cret


def test_es_url_without_userinfo_sends_no_credentials():
    client = make_client(load_settings(ES_URL="http://127.0.0.1:9200"))
    (node,) = client.transport.node_pool.all()
    assert "authorization" not in node.config.headers


def test_redis_url_password_reaches_the_connection():
    pool = redis.Redis.from_url("redis://:p%40ss@redis:6379/0").connection_pool
    assert pool.connection_kwargs["password"] == "p@ss"


def test_redact_hides_passwords_only():
    assert redact("http://elastic:s3cret@es:9200,http://es2:9200") == "http://elastic:***@es:9200,http://es2:9200"
    assert redact("redis://:pw@redis:6379/0") == "redis://:***@redis:6379/0"
    assert redact("http://127.0.0.1:9200") == "http://127.0.0.1:9200"
