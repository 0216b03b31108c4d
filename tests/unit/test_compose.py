"""docker-compose.yml and deploy/Dockerfile, checked without a Docker engine.

1. Compose's own loader validates and resolves the file (`config`): the `docker compose`
   plugin or `docker-compose` v2 on PATH when there is one, else .cache/bin/compose-check
   (deploy/compose-check: compose-go, the loader Compose v2.40.3 runs for `config`, made by
   `bash deploy/install-compose-check.sh`). Without any the test is skipped, or fails under
   CI (CI=true, or PAPERLIST_REQUIRE_COMPOSE=1).
2. Always: the deployment rules, read with PyYAML (which resolves the `<<` merges).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from services.ops.elasticsearch import ES_VERSION
from services.ops.nginx import NJS_MODULE, edge_lock
from services.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
LOCK = ROOT / "deploy" / "requirements.lock"
PYPROJECT = ROOT / "pyproject.toml"
HUNSPELL_SOURCE = ROOT / "deploy" / "elasticsearch" / "hunspell" / "en_US"
HUNSPELL_TARGET = "/usr/share/elasticsearch/config/hunspell/en_US"
BACKENDS = ("elasticsearch", "redis")
APP_SERVICES = ("worker", "web", "bootstrap", "scheduler", "mcp")
FRONT = "nginx"
HARDENED = (*APP_SERVICES, FRONT, "redis")  # every capability dropped, read-only root
NGINX_TEMPLATE = ROOT / "deploy" / "nginx" / "paperlist.conf.template"
PASSWORDS = {"ELASTIC_PASSWORD": "es-secret", "REDIS_PASSWORD": "redis-secret"}
INSTALL_HINT = "run `bash deploy/install-compose-check.sh` (builds Compose's loader from source once per machine, ~16 s)"


# -- the real docker compose -----------------------------------------------------------

def _compose_candidates() -> list[list[str]]:
    candidates = []
    if os.environ.get("PAPERLIST_COMPOSE"):
        candidates.append(os.environ["PAPERLIST_COMPOSE"].split())
    if shutil.which("docker"):
        candidates.append(["docker", "compose"])
    on_path = shutil.which("docker-compose")
    if on_path:
        candidates.append([on_path])
    local = ROOT / ".cache" / "bin" / "compose-check"
    if local.is_file():
        candidates.append([str(local)])
    return candidates


def _find_compose() -> tuple[list[str] | None, str]:
    """(command, version) of a Compose v2+ (or of compose-check: compose-go v2), or (None, what was looked at)."""
    seen = []
    for cmd in _compose_candidates():
        try:
            out = subprocess.run([*cmd, "version", "--short"], capture_output=True, text=True,
                                 timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            seen.append(f"{' '.join(cmd)}: {exc}")
            continue
        version = out.stdout.strip().lstrip("v")
        major = version.split(".")[0]
        if out.returncode == 0 and major.isdigit() and int(major) >= 2:
            return cmd, version
        if version:
            why = f"version {version}, but v1 does not know the Compose Specification"
        elif cmd == ["docker", "compose"]:
            why = "the docker CLI has no compose plugin"
        else:
            why = (out.stderr.strip().splitlines() or ["does not run"])[0]
        seen.append(f"{' '.join(cmd)}: {why}")
    return None, "; ".join(seen) or "no docker CLI and no docker-compose binary"


@pytest.fixture(scope="module")
def compose() -> list[str]:
    cmd, detail = _find_compose()
    if cmd is None:
        reason = f"no Docker Compose v2 here ({detail}); {INSTALL_HINT}"
        if os.environ.get("PAPERLIST_REQUIRE_COMPOSE") == "1" or os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return [*cmd, "--project-directory", str(ROOT), "-f", str(COMPOSE_FILE)]


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment without the variables the compose file interpolates (and see `_config`)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PAPERLIST_", "ES_", "COMPOSE_", "FORWARDED_ALLOW_IPS", "ELASTIC_", "REDIS_"))}
    env.update(PASSWORDS)
    env.update(extra)
    return env


def _run(cmd: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, cwd=ROOT, check=False)


def _config(compose: list[str], *args: str, **env: str) -> subprocess.CompletedProcess:
    """`compose config ARGS`, ignoring a developer's .env file beside docker-compose.yml."""
    return _run([*compose, "--env-file", os.devnull, "config", *args], _clean_env(**env))


@pytest.mark.compose
def test_compose_config_is_valid(compose: list[str]) -> None:
    result = _config(compose, "-q")
    assert result.returncode == 0, f"docker compose config failed:\n{result.stderr}{result.stdout}"


@pytest.mark.compose
def test_compose_config_interpolates_the_environment(compose: list[str]) -> None:
    default = _config(compose, "--format", "json")
    assert default.returncode == 0, default.stderr
    services = json.loads(default.stdout)["services"]
    assert [p["published"] for p in services[FRONT]["ports"]] == ["8000"]
    assert not services["web"].get("ports"), "gunicorn must not be published: nginx is the front"
    assert services["web"]["environment"].get("PAPERLIST_ADMIN_TOKEN") is None, \
        "an unset PAPERLIST_ADMIN_TOKEN must stay unset in the container (admin API disabled)"
    assert services["elasticsearch"]["environment"]["ES_JAVA_OPTS"] == "-Xms1g -Xmx1g"
    assert services[FRONT]["environment"]["PAPERLIST_METRICS_ACCESS"] == "deny all;"
    assert "/run:uid=101,gid=101" in services[FRONT]["tmpfs"], "Compose keeps the tmpfs's owner"

    custom = _config(compose, "--format", "json",
                     PAPERLIST_PORT="9100", PAPERLIST_ADMIN_TOKEN="t0ken", ES_HEAP="2g")
    assert custom.returncode == 0, custom.stderr
    services = json.loads(custom.stdout)["services"]
    assert [(p["published"], p["target"]) for p in services[FRONT]["ports"]] == [("9100", 8080)]
    assert services["web"]["environment"]["PAPERLIST_ADMIN_TOKEN"] == "t0ken"
    assert services["web"]["environment"]["PAPERLIST_PORT"] == "8000"  # inside: always 8000
    assert services["elasticsearch"]["environment"]["ES_JAVA_OPTS"] == "-Xms2g -Xmx2g"
    # The credentials reach both the stores and the clients.
    assert services["elasticsearch"]["environment"]["ELASTIC_PASSWORD"] == "es-secret"
    assert services["web"]["environment"]["ES_URL"] == "http://elastic:es-secret@elasticsearch:9200"
    assert services["worker"]["environment"]["REDIS_URL"] == "redis://:redis-secret@redis:6379/0"
    assert services["redis"]["environment"]["REDIS_PASSWORD"] == "redis-secret"


@pytest.mark.compose
def test_compose_config_requires_the_passwords(compose: list[str]) -> None:
    result = _run([*compose, "--env-file", os.devnull, "config", "-q"], _clean_env(ELASTIC_PASSWORD=""))
    assert result.returncode != 0 and "ELASTIC_PASSWORD" in result.stderr


# -- the deployment rules, from the YAML -------------------------------------------------

@pytest.fixture(scope="module")
def spec() -> dict:
    return yaml.safe_load(COMPOSE_FILE.read_text())


@pytest.fixture(scope="module")
def services(spec: dict) -> dict:
    return spec["services"]


def _env(service: dict) -> dict[str, str | None]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        return dict((item.split("=", 1) + [None])[:2] for item in env)  # type: ignore[misc]
    return {k: (None if v is None else str(v)) for k, v in env.items()}


def _mounts(service: dict) -> list[dict]:
    """Volumes in long form, whatever syntax the file uses."""
    mounts = []
    for item in service.get("volumes") or []:
        if isinstance(item, dict):
            mounts.append(item)
            continue
        parts = item.split(":")
        source, target = (parts[0], parts[1]) if len(parts) > 1 else (None, parts[0])
        kind = "bind" if source and source.startswith((".", "/", "~", "$")) else "volume"
        mounts.append({"type": kind, "source": source, "target": target,
                       "read_only": len(parts) > 2 and "ro" in parts[2].split(",")})
    return mounts


def _tmpfs(service: dict) -> dict[str, dict[str, str]]:
    """tmpfs entries as {path: {option: value}}: "/run:uid=101,gid=101" -> {"/run": {"uid": "101", ...}}."""
    mounts = {}
    for item in service.get("tmpfs") or []:
        path, _, options = str(item).partition(":")
        mounts[path] = dict((opt.split("=", 1) + [""])[:2] for opt in options.split(",") if opt)
    return mounts


def _seconds(duration: str | int) -> float:
    if isinstance(duration, int):
        return float(duration)
    units = {"h": 3600, "m": 60, "s": 1, "ms": 0.001, "us": 1e-6}
    parts = re.findall(r"(\d+(?:\.\d+)?)(h|ms|us|m|s)", duration)
    assert parts and "".join(n + u for n, u in parts) == duration, f"bad duration {duration!r}"
    return sum(float(n) * units[u] for n, u in parts)


def test_all_services_are_defined(services: dict) -> None:
    assert set(services) == {*BACKENDS, *APP_SERVICES, FRONT}


def test_only_nginx_publishes_a_port(services: dict) -> None:
    published = sorted(name for name, svc in services.items() if svc.get("ports"))
    assert published == [FRONT]
    for name, svc in services.items():
        assert svc.get("network_mode") != "host", f"{name} on the host network publishes every port"
    (port,) = services[FRONT]["ports"]
    target = port["target"] if isinstance(port, dict) else str(port).rsplit(":", 1)[-1]
    assert str(target) == _env(services[FRONT])["PAPERLIST_LISTEN"] == "8080"
    if isinstance(port, str):
        assert "${PAPERLIST_PORT:-8000}" in port


def test_nginx_fronts_gunicorn_from_the_shared_template(services: dict) -> None:
    nginx = services[FRONT]
    env = _env(nginx)
    assert env["PAPERLIST_UPSTREAM"] == "web:8000"
    mounts = {m["target"]: m for m in _mounts(nginx)}
    template = mounts["/etc/nginx/templates/paperlist.conf.template"]
    assert (ROOT / template["source"]).resolve() == NGINX_TEMPLATE and template["read_only"] is True
    static = mounts[env["PAPERLIST_STATIC"]]
    assert (ROOT / static["source"]).resolve() == ROOT / "services" / "web" / "static" and static["read_only"] is True
    # Every placeholder of the template is given by the service (envsubst leaves unknown ones).
    placeholders = set(re.findall(r"\$\{(PAPERLIST_\w+)\}", NGINX_TEMPLATE.read_text()))
    assert placeholders and placeholders <= set(env), placeholders - set(env)
    # Nobody waits at the edge's cache lock past the app's search budget (its default here too).
    budget = Settings.model_fields["search_budget"].default
    assert env["PAPERLIST_EDGE_LOCK"] == f"${{PAPERLIST_EDGE_LOCK:-{edge_lock(budget)}}}"
    # Its own main file loads njs (the image ships it) for the edge's key script, mounted where the template says.
    main = mounts["/etc/nginx/nginx.conf"]
    assert (ROOT / main["source"]).resolve() == NGINX_TEMPLATE.parent / "nginx.docker.conf" and main["read_only"] is True
    assert f"load_module {NJS_MODULE};" in (NGINX_TEMPLATE.parent / "nginx.docker.conf").read_text()
    script = mounts[f"{env['PAPERLIST_NJS_DIR']}/edge_key.js"]
    assert (ROOT / script["source"]).resolve() == NGINX_TEMPLATE.parent / "edge_key.js"
    assert nginx["depends_on"]["web"]["condition"] == "service_healthy"
    assert "/etc/nginx/conf.d" in _tmpfs(nginx), "the rendered template needs a writable conf.d"
    assert str(nginx["user"]).split(":")[0] not in ("0", "root")


def test_nginx_fronts_the_mcp_server_which_any_replica_answers(services: dict) -> None:
    """/mcp (issue 48): nginx proxies it to the mcp service, uvicorn serving the MCP server's HTTP app from the app
    image, and waits for it to be healthy; the app is stateless, so replicas need nothing shared."""
    mcp, nginx = services["mcp"], services[FRONT]
    assert _env(nginx)["PAPERLIST_MCP_UPSTREAM"] == "mcp:8000"
    assert nginx["depends_on"]["mcp"]["condition"] == "service_healthy"
    assert mcp["command"][:3] == ["uvicorn", "--factory", "services.mcp_server.server:http_app"]
    assert mcp["command"][mcp["command"].index("--port") + 1] == "8000" and mcp["expose"] == ["8000"]
    assert not mcp.get("ports") and mcp["restart"] == "unless-stopped"
    check = mcp["healthcheck"]["test"]
    assert check[:2] == ["CMD", "python"] and "'/mcp'" in check[-1]
    template = NGINX_TEMPLATE.read_text()
    assert "server ${PAPERLIST_MCP_UPSTREAM}" in template and "location = /mcp {" in template


def test_nginx_can_write_its_scratch_mounts(services: dict) -> None:
    """Docker mounts a tmpfs root's and 0755: nginx's user must own every one it writes, or the
    entrypoint cannot render conf.d and nginx cannot write its pid file (a restart loop). A mode
    (1777) does not do: runc puts the image directory's mode back."""
    nginx = services[FRONT]
    uid, _, gid = str(nginx["user"]).partition(":")
    main = (NGINX_TEMPLATE.parent / "nginx.docker.conf").read_text()
    pid_dir = str(Path(re.search(r"^pid\s+(\S+);", main, re.M).group(1)).parent).replace("/var/run", "/run")
    written = {"/etc/nginx/conf.d", pid_dir, _env(nginx)["PAPERLIST_EDGE_CACHE_DIR"].rsplit("/", 1)[0]}
    assert written == {"/etc/nginx/conf.d", "/run", "/var/cache/nginx"}
    mounts = _tmpfs(nginx)
    for path in sorted(written):
        assert path in mounts, f"{path}: nginx writes it, so it needs a tmpfs (read-only root)"
        options = mounts[path]
        assert (options.get("uid"), options.get("gid")) == (uid, gid or uid), \
            f"{path}: a tmpfs owned by root; nginx runs as {nginx['user']} (add :uid={uid},gid={gid or uid})"


def _run_healthcheck(test: list[str], monkeypatch, replies: dict | None, host: str = "abc123") -> int:
    """Exit status of the worker's healthcheck (`python -c CODE`), Celery's answer given."""
    assert test[:3] == ["CMD", "python", "-c"], test
    asked = {}

    class Inspect:
        def __init__(self, destination=None, timeout=None):
            asked.update(destination=destination, timeout=timeout)

        def active_queues(self):
            return replies

    class App:
        control = type("Control", (), {"inspect": staticmethod(Inspect)})

    import socket

    import services.indexer.celery_app as celery_app
    monkeypatch.setattr(celery_app, "create_celery", lambda settings: App())
    monkeypatch.setattr(socket, "gethostname", lambda: host)
    try:
        exec(compile(test[3], "<healthcheck>", "exec"), {"__name__": "__main__"})
    except SystemExit as done:
        assert asked["destination"] == [f"celery@{host}"], "the check must ask this container's worker only"
        assert asked["timeout"] and asked["timeout"] < 10
        return int(done.code or 0)
    raise AssertionError("the healthcheck did not exit with a status")


def test_bootstrap_waits_for_a_worker_that_answers(services: dict, monkeypatch) -> None:
    """On a first `up` the bootstrap pinged once, before the worker was ready, and exited 2 with an
    empty index: it must wait for a worker whose healthcheck says it consumes the queue."""
    worker, bootstrap = services["worker"], services["bootstrap"]
    assert bootstrap["depends_on"]["worker"]["condition"] == "service_healthy"
    check = worker.get("healthcheck") or {}
    assert check.get("test") and not check.get("disable"), "the worker has no healthcheck"
    queue = Settings.model_fields["queue"].default
    own = {"celery@abc123": [{"name": queue}]}
    assert _run_healthcheck(check["test"], monkeypatch, own) == 0
    assert _run_healthcheck(check["test"], monkeypatch, None) == 1                                  # no answer
    assert _run_healthcheck(check["test"], monkeypatch, {"celery@abc123": [{"name": "other"}]}) == 1
    # The check's own wait fits its timeout, and the worker has a start period to get ready in.
    assert _seconds(check["timeout"]) > 5 and _seconds(check.get("start_period", "0s")) >= 30
    assert _seconds(check["interval"]) <= 30, "the bootstrap waits at least one interval"


def test_metrics_stay_on_the_compose_network(services: dict) -> None:
    """Host clients reach nginx from the bridge's gateway, a private address the app answers
    /metrics to: the published port refuses it; web:8000 answers it on the compose network."""
    env = _env(services[FRONT])
    assert env["PAPERLIST_METRICS_ACCESS"] == "${PAPERLIST_METRICS_ACCESS:-deny all;}"
    location = NGINX_TEMPLATE.read_text().split("location = /metrics {", 1)[1].split("\n    }", 1)[0]
    assert "${PAPERLIST_METRICS_ACCESS}" in location and "proxy_pass" in location
    assert services["web"].get("expose") == ["8000"] and not services["web"].get("ports")


def test_images_are_pinned(services: dict) -> None:
    for name, svc in services.items():
        image = svc["image"]
        tag = image.rsplit(":", 1)[-1] if ":" in image.rsplit("/", 1)[-1] else ""
        if name in APP_SERVICES:
            assert "${PAPERLIST_IMAGE_TAG:-" in image and "latest" not in image, f"{name}: {image}"
            continue
        assert re.match(r"\d+\.\d+\.\d+(-[a-z0-9.]+)?$", tag), f"{name}: {image} is not an exact version"
    assert re.search(r"python:3\.11\.\d+-slim", DOCKERFILE.read_text()), "the Dockerfile's base must be pinned"


def test_containers_are_hardened(services: dict) -> None:
    for name in HARDENED:
        svc = services[name]
        assert svc.get("cap_drop") == ["ALL"], f"{name}: cap_drop"
        assert not svc.get("cap_add"), f"{name}: cap_add"
        assert "no-new-privileges:true" in svc.get("security_opt", []), f"{name}: no-new-privileges"
        assert svc.get("read_only") is True, f"{name}: read-only root filesystem"
        assert "/tmp" in svc.get("tmpfs", []), f"{name}: no writable /tmp"
    assert "no-new-privileges:true" in services["elasticsearch"]["security_opt"]


def test_stores_require_credentials(services: dict) -> None:
    es_env = _env(services["elasticsearch"])
    assert es_env["xpack.security.enabled"] == "true"
    assert es_env["ELASTIC_PASSWORD"].startswith("${ELASTIC_PASSWORD:?")
    assert "$${ELASTIC_PASSWORD}" in " ".join(services["elasticsearch"]["healthcheck"]["test"])
    assert "--requirepass" in " ".join(services["redis"]["command"])
    assert _env(services["redis"])["REDIS_PASSWORD"].startswith("${REDIS_PASSWORD:?")


def test_dependencies_on_backends_wait_for_health(services: dict) -> None:
    for name, svc in services.items():
        depends = svc.get("depends_on") or {}
        if isinstance(depends, list):
            assert not set(depends) & set(BACKENDS), \
                f"{name}: the short depends_on form cannot wait for health"
            continue
        for backend in BACKENDS:
            if backend in depends:
                assert depends[backend].get("condition") == "service_healthy", f"{name} -> {backend}"
    for name in APP_SERVICES:
        assert set(BACKENDS) <= set(services[name].get("depends_on") or {}), name
    assert services["bootstrap"]["depends_on"]["worker"]["condition"] == "service_healthy"


def test_backends_have_healthchecks_and_named_volumes(spec: dict, services: dict) -> None:
    named = set(spec.get("volumes") or {})
    expected_data = {"elasticsearch": "/usr/share/elasticsearch/data", "redis": "/data"}
    for name in BACKENDS:
        check = services[name].get("healthcheck") or {}
        assert check.get("test") and not check.get("disable"), f"{name} has no healthcheck"
        volumes = [m for m in _mounts(services[name]) if m["type"] == "volume"]
        assert any(m["source"] in named and m["target"] == expected_data[name] for m in volumes), \
            f"{name}: no named volume at {expected_data[name]}"
    es_test = " ".join(services["elasticsearch"]["healthcheck"]["test"])
    assert "_cluster/health" in es_test and "wait_for_status=yellow" in es_test
    redis_test = services["redis"]["healthcheck"]["test"]
    assert redis_test[0] == "CMD-SHELL" and "REDISCLI_AUTH" in redis_test[1] and "redis-cli ping" in redis_test[1]


def test_elasticsearch_image_and_settings(services: dict) -> None:
    es = services["elasticsearch"]
    assert es["image"] == f"docker.elastic.co/elasticsearch/elasticsearch:{ES_VERSION}"
    env = _env(es)
    assert env["discovery.type"] == "single-node"
    assert re.search(r"-Xms\S+", env["ES_JAVA_OPTS"]) and re.search(r"-Xmx\S+", env["ES_JAVA_OPTS"])
    assert es["ulimits"]["memlock"] == {"soft": -1, "hard": -1}
    assert es["ulimits"]["nofile"]["soft"] >= 65535


def test_hunspell_dictionary_is_mounted_read_only(services: dict) -> None:
    mounts = [m for m in _mounts(services["elasticsearch"]) if m["target"] == HUNSPELL_TARGET]
    assert len(mounts) == 1, f"no mount at {HUNSPELL_TARGET}"
    (mount,) = mounts
    assert mount["type"] == "bind" and mount.get("read_only") is True
    assert (ROOT / mount["source"]).resolve() == HUNSPELL_SOURCE
    for name in ("en_US.aff", "en_US.dic"):
        assert (HUNSPELL_SOURCE / name).is_file(), f"{HUNSPELL_SOURCE / name} is missing"


def test_app_services_share_the_image_and_environment(services: dict) -> None:
    images = set()
    for name in APP_SERVICES:
        svc = services[name]
        build = svc["build"]
        assert (ROOT / build["context"]).resolve() == ROOT, name
        assert build["dockerfile"] == "deploy/Dockerfile", name
        images.add(svc["image"])
        env = _env(svc)
        assert env["ES_URL"] == "http://elastic:${ELASTIC_PASSWORD:?set ELASTIC_PASSWORD}@elasticsearch:9200", name
        assert env["REDIS_URL"] == "redis://:${REDIS_PASSWORD:?set REDIS_PASSWORD}@redis:6379/0", name
        assert env["PAPERLIST_HOST"] == "0.0.0.0" and env["PAPERLIST_PORT"] == "8000", name
    assert len(images) == 1, f"worker, web and bootstrap should share one image, not {images}"


def test_app_services_commands_and_lifecycle(services: dict) -> None:
    worker, web, bootstrap, scheduler = (services[n] for n in ("worker", "web", "bootstrap", "scheduler"))
    # The followed sources' scheduler: beat with the Redis lock that lets one run however many are started.
    assert scheduler["command"][:5] == ["celery", "-A", "services.indexer.worker", "beat", "-S"]
    assert scheduler["command"][5] == "redbeat.RedBeatScheduler" and scheduler["restart"] == "unless-stopped"
    assert worker["command"] == ["celery", "-A", "services.indexer.worker", "worker", "-Q", "paperlist",
                                 "--loglevel", "INFO"]
    assert bootstrap["command"] == ["paperlist", "ingest", "--if-empty", "data/sample"]
    assert (ROOT / "data" / "sample").is_dir()
    assert web["command"][:3] == ["gunicorn", "-c", "deploy/gunicorn.conf.py"]
    assert (ROOT / "deploy" / "gunicorn.conf.py").is_file()

    assert worker["restart"] == "unless-stopped" and web["restart"] == "unless-stopped"
    assert bootstrap["restart"] == "no"  # a quoted "no": YAML's bare no is false
    assert _seconds(worker["stop_grace_period"]) >= 60, "a running batch needs time to finish"

    web_check = web["healthcheck"]["test"]
    assert web_check[:2] == ["CMD", "python"] and "/healthz" in web_check[-1], \
        "python-slim has no curl: the web healthcheck must use python"
    # Passed through from the host, never a default: an empty token must not enable the admin API.
    assert "PAPERLIST_ADMIN_TOKEN" in _env(web) and _env(web)["PAPERLIST_ADMIN_TOKEN"] is None
    assert "PAPERLIST_ADMIN_TOKEN" not in _env(worker)


# -- the Dockerfile -----------------------------------------------------------------------

def _instructions(path: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    logical, current = [], ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        if current and line.startswith("#"):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        current += line
        logical.append(current)
        current = ""
    if current:
        logical.append(current)
    out = []
    for text in logical:
        keyword, _, args = text.partition(" ")
        out.append((keyword.upper(), args.strip()))
    return out


@pytest.fixture(scope="module")
def dockerfile() -> list[tuple[str, str]]:
    return _instructions(DOCKERFILE)


def _final_stage(instructions: list[tuple[str, str]]) -> list[tuple[str, str]]:
    starts = [i for i, (kw, _) in enumerate(instructions) if kw == "FROM"]
    return instructions[starts[-1]:]


def test_dockerfile_base_image_is_pinned(dockerfile: list[tuple[str, str]]) -> None:
    text = DOCKERFILE.read_text()
    assert re.search(r"\bpython:3\.11\.\d+-slim", text)
    assert not re.search(r"\bpython:(latest|3-slim|slim|3\.11-slim)\b", text)
    assert any(kw == "FROM" for kw, _ in dockerfile)


def test_dockerfile_runs_as_non_root(dockerfile: list[tuple[str, str]]) -> None:
    users = [args for kw, args in _final_stage(dockerfile) if kw == "USER"]
    assert users, "the final stage has no USER"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0", ""), f"USER {users[-1]}"


def test_dockerfile_installs_dependencies_before_the_source(dockerfile: list[tuple[str, str]]) -> None:
    copies = [(i, args) for i, (kw, args) in enumerate(dockerfile) if kw == "COPY"]

    def first(source: str) -> int:
        hits = [i for i, args in copies
                if "--from" not in args and source in args.split()[:-1]]
        assert hits, f"no COPY of {source}"
        return hits[0]

    assert first("pyproject.toml") < first("services")
    install = [i for i, (kw, args) in enumerate(dockerfile) if kw == "RUN" and "install" in args]
    assert install and first("pyproject.toml") < install[0] < first("services"), \
        "the dependency install must sit between COPY pyproject.toml and COPY services"


def test_dockerfile_runtime_shape(dockerfile: list[tuple[str, str]]) -> None:
    keywords = [kw for kw, _ in dockerfile]
    assert "HEALTHCHECK" not in keywords, "compose defines the healthchecks"
    final = _final_stage(dockerfile)
    assert ("EXPOSE", "8000") in final
    env = " ".join(args for kw, args in dockerfile if kw == "ENV")  # the stages share `base`
    for var in ("PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1", "PAPERLIST_HOST=0.0.0.0"):
        assert var in env, var
    (cmd,) = [args for kw, args in final if kw == "CMD"]
    assert json.loads(cmd)[:3] == ["gunicorn", "-c", "deploy/gunicorn.conf.py"]
    # no compilers in the runtime stage
    final_runs = " ".join(args for kw, args in final if kw == "RUN")
    assert not re.search(r"\b(gcc|g\+\+|build-essential|make)\b", final_runs)


def test_dockerfile_sources_exist_and_are_not_ignored(dockerfile: list[tuple[str, str]]) -> None:
    ignored = {line.strip().rstrip("/") for line in DOCKERIGNORE.read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    for kw, args in dockerfile:
        if kw != "COPY" or "--from" in args:
            continue
        for source in [a for a in args.split() if not a.startswith("--")][:-1]:
            assert (ROOT / source).exists(), f"COPY {source}: not in the repository"
            assert source.rstrip("/") not in ignored, f"COPY {source}: excluded by .dockerignore"
    for pattern in (".git", ".cache", "run", "bench/results", "**/__pycache__", ".pytest_cache", ".env"):
        assert pattern in ignored, f".dockerignore should keep {pattern} out"


# -- the image's lock ----------------------------------------------------------------------

def _lock_entries() -> dict[str, dict]:
    """deploy/requirements.lock as {name: {"version", "hashes", "via"}} (uv's / pip-compile's layout)."""
    entries: dict[str, dict] = {}
    current = None
    via_block = False
    for raw in LOCK.read_text().splitlines():
        line = raw.strip()
        pin = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^]]*\])?==(\S+)", raw)
        if pin:
            current = entries.setdefault(canonicalize_name(pin.group(1)),
                                         {"version": pin.group(3), "hashes": [], "via": set()})
            via_block = False
        elif current is not None and line.startswith("--hash="):
            current["hashes"].append(line.split("=", 1)[1].rstrip(" \\"))
        elif current is not None and line.startswith("# via"):
            rest = line[len("# via"):].strip()
            via_block = not rest
            if rest:
                current["via"].add(rest)
        elif current is not None and via_block and line.startswith("#   "):
            current["via"].add(line[4:].strip())
    return entries


def _dependencies() -> dict[str, Requirement]:
    deps = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    return {canonicalize_name(r.name): r for r in map(Requirement, deps)}


def test_the_lock_matches_pyprojects_dependencies() -> None:
    """The lock is pyproject's dependencies resolved: regenerate it (its header's command) whenever
    they change. Each direct dependency pinned within its range; nothing direct that pyproject lost."""
    entries, deps = _lock_entries(), _dependencies()
    header = LOCK.read_text().split("\n", 2)[1]
    assert "compile pyproject.toml" in header and "--generate-hashes" in header, header
    missing = sorted(set(deps) - set(entries))
    assert not missing, f"in pyproject.toml but not in the lock: {missing}; regenerate deploy/requirements.lock"
    for name, req in deps.items():
        version = entries[name]["version"]
        assert req.specifier.contains(version, prereleases=True), \
            f"{name}=={version} in the lock is outside pyproject's {req}; regenerate deploy/requirements.lock"
        assert "paperlist (pyproject.toml)" in entries[name]["via"], f"{name}: not pinned as a dependency of pyproject"
    direct = {name for name, entry in entries.items() if "paperlist (pyproject.toml)" in entry["via"]}
    assert direct == set(deps), f"the lock's direct dependencies differ from pyproject's: {sorted(direct ^ set(deps))}"
    for name, entry in entries.items():
        assert entry["hashes"] and all(h.startswith("sha256:") for h in entry["hashes"]), f"{name}: no hash"
        assert entry["via"], f"{name}: pulled in by nothing"


def test_the_image_installs_exactly_the_lock(dockerfile: list[tuple[str, str]]) -> None:
    runs = " ".join(args for kw, args in dockerfile if kw == "RUN")
    assert "install --require-hashes --no-deps -r requirements.lock" in runs
    assert "install --no-deps --editable ." in runs, "the project itself must add no unlocked dependency"
    assert re.search(r"pip --python \S+ check", runs)
    copies = [args.split() for kw, args in dockerfile if kw == "COPY" and "--from" not in args]
    assert any("deploy/requirements.lock" in c[:-1] for c in copies)
    # The tests run the same versions: deploy/test installs with the lock's pins as constraints.
    script = (ROOT / "deploy" / "test").read_text()
    assert "deploy/requirements.lock >run/constraints.txt" in script and "-c run/constraints.txt" in script


def test_the_smokes_ca_override_reaches_every_service_built_from_the_app_image(services: dict) -> None:
    """deploy/compose-smoke gives each service built from deploy/Dockerfile a base image that trusts the machine's
    CA where PyPI is reached through one; it finds them with one awk line over this file (the scheduler, added
    later, was missed when they were named by hand, and its build failed on such a machine)."""
    line = next(ln for ln in (ROOT / "deploy" / "compose-smoke").read_text().splitlines() if "awk '" in ln and "*app" in ln)
    program = re.search(r"awk '([^']+)'", line).group(1)
    found = subprocess.run(["awk", program, str(COMPOSE_FILE)], capture_output=True, text=True, check=True).stdout.split()
    built = sorted(name for name, svc in services.items() if (svc.get("build") or {}).get("dockerfile") == "deploy/Dockerfile")
    assert sorted(found) == built and set(APP_SERVICES) <= set(built)
