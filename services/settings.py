"""All configuration, read from the environment in one place.

Every service builds a :class:`Settings` once (in its factory) and passes it
down, so nothing reads ``os.environ`` at import time or deep inside the code.
"""

from __future__ import annotations

import ipaddress
from functools import cached_property
from pathlib import Path

from pydantic import Field, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """Environment of the contract (``ES_URL``, ``REDIS_URL``, ``PAPERLIST_*``) plus tuning knobs."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore", frozen=True)

    es_url: str = Field("http://127.0.0.1:9200", alias="ES_URL")
    redis_url: str = Field("redis://127.0.0.1:6379/0", alias="REDIS_URL")
    index: str = Field("papers", alias="PAPERLIST_INDEX")
    admin_token: str | None = Field(None, alias="PAPERLIST_ADMIN_TOKEN")
    host: str = Field("127.0.0.1", alias="PAPERLIST_HOST")
    port: int = Field(8000, alias="PAPERLIST_PORT", ge=1, le=65535)
    # Base of every absolute URL in answers; never the request's Host header.
    public_url: str = Field("http://127.0.0.1:8000", alias="PAPERLIST_PUBLIC_URL")
    # Proxies in front of gunicorn whose X-Forwarded-For is trusted (nginx: 1; gunicorn exposed: 0).
    trusted_proxies: int = Field(1, alias="PAPERLIST_TRUSTED_PROXIES", ge=0, le=5)

    # Rate limits per client address: a budget of cost units (a search costs 1), suggestions apart.
    rate_limit_enabled: bool = Field(True, alias="PAPERLIST_RATE_LIMIT_ENABLED")
    rate_limit: str = Field("300/minute", alias="PAPERLIST_RATE_LIMIT")
    rate_limit_deep_cost: int = Field(5, alias="PAPERLIST_RATE_LIMIT_DEEP_COST", ge=1, le=10_000)
    rate_limit_export_cost: int = Field(30, alias="PAPERLIST_RATE_LIMIT_EXPORT_COST", ge=1, le=10_000)
    rate_limit_suggest: str = Field("600/minute", alias="PAPERLIST_RATE_LIMIT_SUGGEST")
    # Client networks never rate-limited, by the app's limiter and by nginx's flood guard
    # (its geo block is rendered from this list): the host's own loopback address only.
    rate_limit_exempt: str = Field("127.0.0.1/32,::1/128", alias="PAPERLIST_RATE_LIMIT_EXEMPT")

    # The edge cache in nginx (issue 17): seconds it may keep an anonymous page or API answer
    # (the app's s-maxage), and the bounded size of its folder and of its keys' memory zone.
    edge_ttl: int = Field(5, alias="PAPERLIST_EDGE_TTL", ge=0, le=5)
    edge_cache_size: str = Field("256m", alias="PAPERLIST_EDGE_CACHE_SIZE", pattern=r"^[1-9][0-9]{0,5}[km]$")
    edge_keys_zone: str = Field("10m", alias="PAPERLIST_EDGE_KEYS_ZONE", pattern=r"^[1-9][0-9]{0,4}[km]$")

    # Cluster shape of newly created indices (a reindex applies changes).
    shards: int = Field(1, alias="PAPERLIST_SHARDS", ge=1, le=64)
    replicas: int = Field(0, alias="PAPERLIST_REPLICAS", ge=0, le=8)
    es_timeout: float = Field(10.0, alias="PAPERLIST_ES_TIMEOUT", gt=0)
    # Web time budgets (seconds): a search answers, or fails with 503, within search_budget;
    # /readyz within ready_budget. Elasticsearch calls from the web get deadlines inside them.
    search_budget: float = Field(2.0, alias="PAPERLIST_SEARCH_BUDGET", gt=0, le=60)
    ready_budget: float = Field(1.0, alias="PAPERLIST_READY_BUDGET", gt=0, le=60)
    # A request of many reads (the BibTeX upgrade: up to MAX_BIBTEX_ENTRIES works, VENUE_MATCH_BATCH a call).
    batch_budget: float = Field(10.0, alias="PAPERLIST_BATCH_BUDGET", gt=0, le=60)
    # Of a search's budget, what its facet counts may take (Elasticsearch's server-side timeout of
    # a search with aggregations): past it the hits are sent without them, never a 503 (issue 17).
    facets_budget: float = Field(0.5, alias="PAPERLIST_FACETS_BUDGET", gt=0, le=60)
    # A search's budget starts at the front (nginx's X-Request-Start): a request that waited longer
    # than this for a gunicorn thread gets no Elasticsearch time, only the caches or a fast 503.
    queue_budget: float = Field(0.5, alias="PAPERLIST_QUEUE_BUDGET", ge=0, le=60)
    # Circuit breakers (Elasticsearch and Redis from the web): open after this many
    # consecutive failures, probe again after the cool-down.
    breaker_failures: int = Field(3, alias="PAPERLIST_BREAKER_FAILURES", ge=1, le=1000)
    breaker_cooldown: float = Field(2.0, alias="PAPERLIST_BREAKER_COOLDOWN", gt=0, le=600)

    # Ingest batching and the Celery queue the tasks travel on.
    batch_size: int = Field(1000, alias="PAPERLIST_BATCH_SIZE", ge=1, le=10000)
    queue: str = Field("paperlist", alias="PAPERLIST_QUEUE")

    # Where local state lives: downloads (cache) and pid/log files (run).
    home: Path = Field(PROJECT_ROOT, alias="PAPERLIST_HOME")
    sample_dir: Path = Field(PROJECT_ROOT / "data" / "sample", alias="PAPERLIST_SAMPLE")
    corpus_dir: Path = Field(PROJECT_ROOT.parent / "shared" / "data" / "paperlists", alias="PAPERLIST_CORPUS")
    # Followed sources (issue 47): the scheduler `paperlist up` starts, the list an empty registry is seeded
    # from (empty: none) and the base URL its files are read at (empty: the list's own, upstream).
    follow: bool = Field(True, alias="PAPERLIST_FOLLOW")
    follow_seed: Path | None = Field(PROJECT_ROOT / "data" / "followed" / "paperlists.toml", alias="PAPERLIST_FOLLOW_SEED")
    follow_base: str = Field("", alias="PAPERLIST_FOLLOW_BASE")
    follow_interval: int = Field(6 * 3600, alias="PAPERLIST_FOLLOW_INTERVAL", ge=10, le=30 * 24 * 3600)
    follow_tick: float = Field(30.0, alias="PAPERLIST_FOLLOW_TICK", ge=1, le=3600)  # how often due sources are looked for
    # Result cache in Redis in front of Elasticsearch (see services/web/cache/).
    cache_enabled: bool = Field(True, alias="PAPERLIST_CACHE")
    cache_ttl: int = Field(600, alias="PAPERLIST_CACHE_TTL", ge=1, le=7 * 24 * 3600)
    cache_stale_ttl: int = Field(24 * 3600, alias="PAPERLIST_CACHE_STALE_TTL", ge=0, le=30 * 24 * 3600)
    cache_timeout_ms: int = Field(100, alias="PAPERLIST_CACHE_TIMEOUT_MS", ge=5, le=5000)
    # Seconds after a write during which a miss is answered with the previous generation's answer while
    # the new one is computed (services/web/cache/results.py); 0 (the default: no gain measured, see
    # docs/capacity.md "A write under a crowd"): never. At most the bump's mark (120 s).
    cache_refresh_window: float = Field(0.0, alias="PAPERLIST_CACHE_REFRESH_WINDOW", ge=0, le=120)
    web_workers: int = Field(2, alias="PAPERLIST_WEB_WORKERS", ge=1, le=64)
    web_threads: int = Field(8, alias="PAPERLIST_WEB_THREADS", ge=1, le=256)
    # Where gunicorn listens when not on host:port: `paperlist up` puts it on a unix
    # socket behind nginx (unix:/path/web.sock).
    web_bind: str | None = Field(None, alias="PAPERLIST_WEB_BIND")
    worker_concurrency: int = Field(2, alias="PAPERLIST_WORKER_CONCURRENCY", ge=1, le=64)
    # uvicorn's processes serving the MCP server's HTTP transport (/mcp); stateless, so any number behind nginx.
    mcp_workers: int = Field(1, alias="PAPERLIST_MCP_WORKERS", ge=1, le=64)
    # The embedding model (.npz from `paperlist embeddings train`); unset: the one shipped in
    # services/search/records/models/, trained on the sample. Web and workers must name the same one.
    embedding_model: Path | None = Field(None, alias="PAPERLIST_EMBEDDING_MODEL")
    # Maps of venue-years (issue 32): the fewest listed papers a venue-year needs for a map (the
    # bundled sample's have ~60: its tests lower it), and the index the maps live in (unset: <alias>-maps).
    map_min_papers: int = Field(200, alias="PAPERLIST_MAP_MIN_PAPERS", ge=2, le=1_000_000)
    maps_index: str | None = Field(None, alias="PAPERLIST_MAPS_INDEX")
    # How long a rebuild's lock outlives its worker: a killed rebuild blocks the next one this many
    # seconds (its heartbeat renews the lock every sixth of it).
    reindex_lock_ttl: int = Field(60, alias="PAPERLIST_REINDEX_LOCK_TTL", ge=10, le=3600)

    @field_validator("index", "maps_index")
    @classmethod
    def _index_name(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and info.field_name == "maps_index":
            return value
        if not value or value != value.lower() or any(c in value for c in ' "*\\<|,>/?#:'):
            raise ValueError(f"{cls.model_fields[info.field_name].alias} must be a lowercase Elasticsearch name")
        return value

    def maps_index_of(self, alias: str) -> str:
        """Where the maps of ``alias`` live (``services.search.engine.map_store``): ``<alias>-maps``, or
        ``PAPERLIST_MAPS_INDEX`` for the configured alias."""
        return self.maps_index if self.maps_index and alias == self.index else f"{alias}-maps"

    @staticmethod
    def people_index_of(alias: str) -> str:
        """Where the people of ``alias`` live (``services.search.engine.people_store``): ``<alias>-people``."""
        return f"{alias}-people"

    @field_validator("follow_seed", mode="before")
    @classmethod
    def _seed_file(cls, value: object) -> object:
        return None if value in ("", None) else value

    @field_validator("embedding_model")
    @classmethod
    def _model_file(cls, value: Path | None) -> Path | None:
        if value is not None and not value.is_file():
            raise ValueError(f"PAPERLIST_EMBEDDING_MODEL {value} is not a file")
        return value

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")) or "?" in value or "#" in value:
            raise ValueError("PAPERLIST_PUBLIC_URL must be an http(s) base URL such as https://papers.example.org")
        return value.rstrip("/")

    @field_validator("rate_limit", "rate_limit_suggest")
    @classmethod
    def _rate(cls, value: str) -> str:
        from limits import parse_many

        try:
            parse_many(value)
        except ValueError:
            raise ValueError(f"'{value}' is not a rate such as 300/minute or 10/second;1000/hour") from None
        return value

    @field_validator("rate_limit_exempt")
    @classmethod
    def _networks(cls, value: str) -> str:
        try:
            networks = [ipaddress.ip_network(part.strip()) for part in value.split(",") if part.strip()]
        except ValueError as exc:
            raise ValueError(f"PAPERLIST_RATE_LIMIT_EXEMPT: {exc} (a comma-separated list of networks "
                             "such as 127.0.0.1/32,::1/128)") from None
        return ",".join(str(n) for n in networks)

    @cached_property
    def rate_limit_exempt_networks(self) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
        """``PAPERLIST_RATE_LIMIT_EXEMPT`` parsed; empty exempts nobody."""
        return tuple(ipaddress.ip_network(n) for n in self.rate_limit_exempt.split(",") if n)

    @cached_property
    def es_hosts(self) -> list[str]:
        """``ES_URL`` may list several nodes of a cluster, comma-separated."""
        return [h.strip() for h in self.es_url.split(",") if h.strip()]

    @property
    def cache_dir(self) -> Path:
        return self.home / ".cache"

    @property
    def run_dir(self) -> Path:
        return self.home / "run"


def load_settings(**overrides: object) -> Settings:
    """Read the environment; keyword overrides (by env name) win, used by tests."""
    return Settings(**overrides)  # type: ignore[arg-type]
