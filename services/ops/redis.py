"""A local Redis from Debian's ``redis-server`` package, installed when missing."""

from __future__ import annotations

import redis

from services.settings import PROJECT_ROOT, Settings

from .apt import ensure_package
from .processes import Managed, StackError, wait_until
from .urls import redact

REDIS_CONF = PROJECT_ROOT / "deploy" / "redis" / "redis.conf"


def reachable(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2).ping())
    except (redis.RedisError, OSError, ValueError):
        return False


class LocalRedis:
    def __init__(self, settings: Settings):
        self.settings = settings
        pool = redis.connection.parse_url(settings.redis_url)
        self.host = pool.get("host", "127.0.0.1")
        self.port = int(pool.get("port", 6379))
        self.process = Managed("redis", settings.run_dir)

    @property
    def is_local(self) -> bool:
        return self.host in ("127.0.0.1", "localhost")

    def running(self) -> bool:
        return reachable(self.settings.redis_url)

    def ensure(self, log=print) -> bool:
        """Start Redis unless it answers; True when this call started it."""
        if self.running():
            return False
        if not self.is_local:
            raise StackError(f"Redis at {redact(self.settings.redis_url)} is not reachable")
        binary = install_redis(log)
        data = self.settings.run_dir / "redis"
        data.mkdir(parents=True, exist_ok=True)
        log(f"Redis: starting on {self.host}:{self.port}")
        self.process.start([binary, str(REDIS_CONF), "--port", str(self.port), "--dir", str(data),
                            "--daemonize", "no"])
        wait_until(self.running, 30, "Redis", self.process.logfile)
        return True

    def stop(self) -> bool:
        return self.process.stop(timeout=20)


def install_redis(log=print) -> str:
    try:
        return ensure_package("redis-server", "redis-server", log)
    except StackError as exc:
        raise StackError(f"{exc}, or point REDIS_URL at a running Redis") from None
