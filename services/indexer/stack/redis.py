"""A local Redis from Debian's ``redis-server`` package, installed when missing."""

from __future__ import annotations

import os
import shutil
import subprocess

import redis

from services.settings import PROJECT_ROOT, Settings

from .processes import Managed, StackError, wait_until

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
            raise StackError(f"Redis at {self.settings.redis_url} is not reachable")
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
    binary = shutil.which("redis-server")
    if binary:
        return binary
    if not shutil.which("apt-get") or os.geteuid() != 0:
        raise StackError("redis-server is missing: install Debian's redis-server package "
                         "(apt-get install -y redis-server) or point REDIS_URL at a running Redis")
    log("Redis: installing Debian's redis-server (once)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for argv in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "redis-server"]):
        result = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
        if result.returncode != 0:
            raise StackError(f"{' '.join(argv)} failed: {result.stderr.strip()[-400:]}")
    # Debian's package starts a system service; paperlist runs its own instance instead.
    subprocess.run(["service", "redis-server", "stop"], capture_output=True, check=False)
    binary = shutil.which("redis-server")
    if not binary:
        raise StackError("redis-server is still missing after apt-get install")
    return binary
