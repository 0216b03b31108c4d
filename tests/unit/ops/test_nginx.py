"""The front's rendered configuration: the edge cache bounded from settings, the exempt networks
from PAPERLIST_RATE_LIMIT_EXEMPT in nginx's geo block, and purging the edge."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from services.ops.nginx import NJS_MODULE, TEMPLATES, LocalNginx, exempt_geo
from services.settings import load_settings


@pytest.fixture
def tmp_path():
    """A world-traversable home (as root, nginx's workers run as www-data and must reach it)."""
    home = Path(tempfile.mkdtemp(prefix="paperlist-nginx-"))
    home.chmod(0o755)
    yield home
    shutil.rmtree(home, ignore_errors=True)


def _front(home: Path, **overrides: str) -> LocalNginx:
    return LocalNginx(load_settings(PAPERLIST_HOME=str(home), **overrides))


def test_geo_entries_are_the_exempt_networks_only():
    assert exempt_geo(load_settings().rate_limit_exempt_networks) == "127.0.0.1/32 0; ::1/128 0;"
    assert exempt_geo(()) == "# no network is exempt"


def test_the_rendered_front_bounds_the_edge_and_exempts_the_configured_networks(tmp_path):
    front = _front(tmp_path, PAPERLIST_EDGE_CACHE_SIZE="64m", PAPERLIST_RATE_LIMIT_EXEMPT="10.0.0.0/8")
    front.write_config()
    conf = (front.dir / "paperlist.conf").read_text()
    assert f"proxy_cache_path {front.edge_cache} " in conf and "max_size=64m" in conf and "keys_zone=paperlist_edge:10m" in conf
    geo = conf.split("geo $paperlist_limited {", 1)[1].split("}", 1)[0]
    assert "10.0.0.0/8 0;" in geo and "127.0.0.1" not in geo
    cached, *_ = conf.split("location ~ ^/(healthz|readyz)$", 1)
    assert "proxy_cache paperlist_edge;" in cached and "proxy_cache_use_stale updating error timeout" in cached
    assert "proxy_cache_revalidate on;" in cached and "proxy_cache_lock on;" in cached
    assert "${" not in conf


def test_the_edge_keys_by_the_canonical_query_njs_computes(tmp_path):
    front = _front(tmp_path)
    main = front.write_config().read_text()
    conf = (front.dir / "paperlist.conf").read_text()
    assert f"load_module {NJS_MODULE};" in main
    assert f"js_import edge_key from {TEMPLATES}/edge_key.js;" in conf
    assert 'proxy_cache_key "$scheme://$host$paperlist_edge_uri $paperlist_edge_encoding";' in conf
    assert "X-Paperlist-Edge" not in conf  # the app redirects no order any more: nothing to tell it


def test_the_front_proxies_mcp_to_its_socket_under_the_servers_rate_limits(tmp_path):
    front = _front(tmp_path)
    front.write_config()
    conf = (front.dir / "paperlist.conf").read_text()
    assert f"server unix:{tmp_path}/run/mcp.sock max_fails=0;" in conf
    location = conf.split("location = /mcp {", 1)[1].split("}", 1)[0]
    assert "proxy_pass http://paperlist_mcp;" in location and "proxy_cache" not in location
    # The API's limits: the server's zones, inherited (a limit of its own here would replace them).
    assert "limit_req" not in location and "limit_conn" not in location
    server = conf.split("server {", 1)[1].split("location", 1)[0]
    assert "limit_conn paperlist_conn " in server and "limit_req zone=paperlist_req " in server
    assert '"~^[A-Z]+ +/mcp" json;' in conf  # what nginx refuses there (429, 502) is said in JSON


@pytest.mark.skipif(not shutil.which("nginx", path="/usr/sbin:/usr/bin") or not NJS_MODULE.is_file(),
                    reason="Debian's nginx or its njs module is not installed (paperlist up installs both)")
def test_nginx_accepts_the_rendered_front(tmp_path):
    front = _front(tmp_path)
    conf = front.write_config()
    binary = shutil.which("nginx", path="/usr/sbin:/usr/bin")
    check = subprocess.run([binary, "-p", f"{front.dir}/", "-e", str(front.dir / "error.log"), "-c", str(conf),
                            "-t", "-q"], capture_output=True, text=True, timeout=30, check=False)
    assert check.returncode == 0, check.stderr


def test_purge_edge_empties_the_cache_folder(tmp_path):
    front = _front(tmp_path)
    assert front.purge_edge() == 0  # nothing yet
    (front.edge_cache / "a" / "bc").mkdir(parents=True)
    (front.edge_cache / "a" / "bc" / "0123").write_bytes(b"entry")
    (front.edge_cache / "f0").write_bytes(b"entry")
    assert front.purge_edge() == 2
    assert not [p for p in front.edge_cache.rglob("*") if p.is_file()]
