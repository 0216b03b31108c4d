"""The local front: Debian's nginx on PAPERLIST_HOST:PAPERLIST_PORT, gunicorn behind it on a socket (and the MCP
server's HTTP app, uvicorn, on another: ``/mcp``).

nginx absorbs slow and idle clients (header/body timeouts, limits) that would otherwise
hold gunicorn's few threads, and keeps whole anonymous answers for a few seconds (the edge
cache, in ``run/nginx/edge-cache``, bounded by PAPERLIST_EDGE_CACHE_SIZE). Its configuration is rendered from ``deploy/nginx`` into
the run folder on every start; pid, logs and temp files live there too. The edge keys
its entries by a canonical form of the query that njs computes (``deploy/nginx/edge_key.js``),
so Debian's njs module is installed beside nginx.
"""

from __future__ import annotations

import grp
import os
import pwd
import socket
import subprocess
from pathlib import Path
from string import Template

from services.settings import PROJECT_ROOT, Settings

from .apt import ensure_file, ensure_package
from .processes import Managed, StackError, wait_until

TEMPLATES = PROJECT_ROOT / "deploy" / "nginx"
STATIC_DIR = PROJECT_ROOT / "services" / "web" / "static"
WORKER_USERS = ("www-data", "nobody")  # who nginx's workers run as when started by root
NJS_MODULE = Path("/usr/lib/nginx/modules/ngx_http_js_module.so")  # Debian's (and the official image's) path
NJS_PACKAGE = "libnginx-mod-http-js"


def render(template: Path, values: dict[str, str]) -> str:
    """Fill ``${PAPERLIST_*}`` placeholders; nginx's own ``$variables`` stay as they are."""
    text = Template(template.read_text()).safe_substitute(values)
    if "${PAPERLIST_" in text:
        missing = text.split("${PAPERLIST_", 1)[1].split("}", 1)[0]
        raise StackError(f"{template.name}: no value for PAPERLIST_{missing}")
    return text


class LocalNginx:
    """Lifecycle of the front; ``upstream`` is where the web service must listen."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.dir = settings.run_dir / "nginx"
        self.socket = settings.run_dir / "web.sock"
        self.mcp_socket = settings.run_dir / "mcp.sock"  # the MCP server's HTTP transport (services/mcp_server)
        self.process = Managed("nginx", settings.run_dir)

    @property
    def edge_cache(self) -> Path:
        """The edge cache's folder (bounded by PAPERLIST_EDGE_CACHE_SIZE)."""
        return self.dir / "edge-cache"

    def purge_edge(self) -> int:
        """Empty the edge cache; the number of entries removed. nginx finds them gone and asks again."""
        removed = 0
        if self.edge_cache.is_dir():
            for entry in self.edge_cache.rglob("*"):
                if entry.is_file():
                    entry.unlink(missing_ok=True)
                    removed += 1
        return removed

    @property
    def upstream(self) -> str:
        return f"unix:{self.socket}"

    @property
    def mcp_upstream(self) -> str:
        return f"unix:{self.mcp_socket}"

    @property
    def listen(self) -> str:
        host = self.settings.host
        return f"[{host}]:{self.settings.port}" if ":" in host else f"{host}:{self.settings.port}"

    def answers(self) -> bool:
        """True when something accepts connections on our address."""
        try:
            with socket.create_connection((self.settings.host, self.settings.port), timeout=1):
                return True
        except OSError:
            return False

    def ensure(self, log=print) -> bool:
        """Start nginx unless ours runs; True when this call started it."""
        if self.process.pid():
            return False
        if self.answers():
            raise StackError(f"{self.listen} is taken by another program; stop it or set PAPERLIST_PORT")
        binary = ensure_package("nginx", "nginx", log)
        ensure_file(NJS_MODULE, NJS_PACKAGE, log)
        self.purge_edge()  # a fresh front starts with an empty edge: old entries may be another index's or release's
        conf = self.write_config()
        argv = [binary, "-p", f"{self.dir}/", "-e", str(self.dir / "error.log"), "-c", str(conf)]
        check = subprocess.run([*argv, "-t", "-q"], capture_output=True, text=True, check=False)
        if check.returncode != 0:
            raise StackError(f"nginx rejected {conf}: {check.stderr.strip()[-400:]}")
        log(f"nginx: starting on {self.listen} in front of {self.upstream}")
        self.process.start(argv, cwd=self.dir)
        wait_until(lambda: self.answers() or not self.process.pid(), 30, "nginx", self.process.logfile)
        if not self.process.pid():
            raise StackError(f"nginx exited at start; see {self.process.logfile} and {self.dir / 'error.log'}")
        return True

    def stop(self) -> bool:
        return self.process.stop(timeout=20)

    def write_config(self) -> Path:
        (self.dir / "tmp").mkdir(parents=True, exist_ok=True)
        values = {
            "PAPERLIST_LISTEN": self.listen,
            "PAPERLIST_UPSTREAM": self.upstream,
            "PAPERLIST_MCP_UPSTREAM": self.mcp_upstream,
            "PAPERLIST_STATIC": str(STATIC_DIR),
            "PAPERLIST_NGINX_DIR": str(self.dir),
            "PAPERLIST_NGINX_USER_LINE": self._user_line(),
            "PAPERLIST_NJS_MODULE": str(NJS_MODULE),
            "PAPERLIST_NJS_DIR": str(TEMPLATES),
            "PAPERLIST_EDGE_CACHE_DIR": str(self.edge_cache),
            "PAPERLIST_EDGE_KEYS_ZONE": self.settings.edge_keys_zone,
            "PAPERLIST_EDGE_CACHE_SIZE": self.settings.edge_cache_size,
            "PAPERLIST_EDGE_LOCK": edge_lock(self.settings.search_budget),
            "PAPERLIST_RATE_LIMIT_EXEMPT_GEO": exempt_geo(self.settings.rate_limit_exempt_networks),
            # Clients keep their own addresses here: the app decides who may read /metrics.
            "PAPERLIST_METRICS_ACCESS": "allow all;",
        }
        (self.dir / "paperlist.conf").write_text(render(TEMPLATES / "paperlist.conf.template", values))
        conf = self.dir / "nginx.conf"
        conf.write_text(render(TEMPLATES / "nginx.local.conf.template", values))
        return conf

    def _user_line(self) -> str:
        """As root, workers run unprivileged; they must reach the static files and the socket."""
        if os.geteuid() != 0:
            return "# not root: the workers run as the user who started nginx"
        for name in WORKER_USERS:
            try:
                user = pwd.getpwnam(name)
            except KeyError:
                continue
            for path in (STATIC_DIR, self.settings.run_dir):
                _require_traversable(path, name)
            return f"user {name} {_group_name(user.pw_gid)};"
        raise StackError(f"none of the users {', '.join(WORKER_USERS)} exists to run nginx's workers")


def edge_lock(search_budget: float) -> str:
    """nginx's cache-lock wait (``2000ms``): the app's search budget, so that nobody waits longer at the edge."""
    return f"{max(1, round(search_budget * 1000))}ms"


def exempt_geo(networks) -> str:
    """nginx geo entries for the networks exempt from rate limits (``0``: not counted)."""
    return " ".join(f"{net} 0;" for net in networks) or "# no network is exempt"


def _group_name(gid: int) -> str:
    return grp.getgrgid(gid).gr_name


def _require_traversable(path: Path, user: str) -> None:
    for parent in [path, *path.parents]:
        if not parent.stat().st_mode & 0o001:
            raise StackError(f"{parent} is not reachable by '{user}', who runs nginx's workers; "
                             "set PAPERLIST_HOME to a world-traversable folder")
