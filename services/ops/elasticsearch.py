"""A local Elasticsearch node from Maven Central's integ-test-zip, run as a system user.

Downloaded once into the cache folder, checked against a pinned SHA-512, unpacked,
configured from ``deploy/elasticsearch`` (with the hunspell en_US dictionary) and
started as a non-root user, because Elasticsearch refuses to run as root.
"""

from __future__ import annotations

import hashlib
import os
import pwd
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

import requests

from services.settings import PROJECT_ROOT, Settings

from .processes import Managed, StackError, wait_until
from .urls import redact

ES_VERSION = "8.19.21"
ES_ZIP_SHA512 = (
    "cf6b0a93860d329937ae7f913ec5073b0c726c77639764b93fc83a304aa1dd9d"
    "4defcfa2849948eea3b0b47c2065f994908603939fc2a4774c9c4d868c5ec1dd"
)
ES_ARTIFACT = f"org.elasticsearch.distribution.integ-test-zip:elasticsearch:{ES_VERSION}:zip"
ES_USER = "paperlist-es"
ES_HEAP = ("512m", "1g")
CONFIG_SOURCE = PROJECT_ROOT / "deploy" / "elasticsearch"
JAVA_CANDIDATES = ("/usr/lib/jvm/java-17-openjdk-amd64", "/usr/lib/jvm/temurin-25-jdk-amd64")


def healthy(url: str, timeout: float = 2.0) -> bool:
    """True when the cluster answers health with a usable status."""
    try:
        resp = requests.get(f"{url.rstrip('/')}/_cluster/health", timeout=timeout)
    except requests.RequestException:
        return False
    return resp.ok and resp.json().get("status") in ("green", "yellow")


class LocalElasticsearch:
    """Provisioning and lifecycle of the node behind a local ``ES_URL``."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.url = settings.es_hosts[0]
        parts = urlsplit(self.url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 9200
        self.cache = settings.cache_dir / "elasticsearch"
        self.zip_path = self.cache / f"elasticsearch-{ES_VERSION}.zip"
        self.dist = self.cache / f"elasticsearch-{ES_VERSION}"
        self.state = settings.run_dir / "elasticsearch"
        self.process = Managed("elasticsearch", settings.run_dir)

    @property
    def is_local(self) -> bool:
        return len(self.settings.es_hosts) == 1 and self.host in ("127.0.0.1", "localhost")

    def running(self) -> bool:
        return healthy(self.url)

    def ensure(self, log=print) -> bool:
        """Start the node unless one already answers; True when this call started it."""
        if self.running():
            return False
        if not self.is_local:
            raise StackError(f"Elasticsearch at {redact(self.settings.es_url)} is not reachable "
                             "(only a local 127.0.0.1 node is started by paperlist)")
        if self.process.pid():
            log("Elasticsearch: waiting for the node started earlier")
        else:
            java_home = find_java()
            self.provision(log)
            self._configure()
            log(f"Elasticsearch {ES_VERSION}: starting on {self.host}:{self.port} as {ES_USER}")
            env = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "ES_JAVA_HOME": java_home,
                "ES_PATH_CONF": str(self.state / "config"),
                "ES_TMPDIR": str(self.state / "tmp"),
                "ES_JAVA_OPTS": f"-Xms{ES_HEAP[0]} -Xmx{ES_HEAP[1]}",
                "LANG": "C.UTF-8",
            }
            self.process.start([str(self.dist / "bin" / "elasticsearch")], env=env, user=ES_USER)
        wait_until(self.running, 180, "Elasticsearch", self.process.logfile)
        return True

    def stop(self) -> bool:
        return self.process.stop(timeout=60)

    # -- provisioning -------------------------------------------------------------

    def provision(self, log=print) -> None:
        """Download (once), verify and unpack the distribution into the cache."""
        if (self.dist / "bin" / "elasticsearch").exists():
            return
        self.cache.mkdir(parents=True, exist_ok=True)
        if not self.zip_path.exists() or sha512(self.zip_path) != ES_ZIP_SHA512:
            self._download(log)
        digest = sha512(self.zip_path)
        if digest != ES_ZIP_SHA512:
            self.zip_path.unlink(missing_ok=True)
            raise StackError(f"{self.zip_path.name}: SHA-512 {digest[:16]}… does not match the pinned "
                             f"{ES_ZIP_SHA512[:16]}…; the download was removed, run again")
        log(f"Elasticsearch: unpacking {self.zip_path.name}")
        tmp = self.cache / "unpack.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        with zipfile.ZipFile(self.zip_path) as archive:
            for info in archive.infolist():
                target = archive.extract(info, tmp)
                mode = info.external_attr >> 16  # zip keeps the unix mode; extract() drops it
                if mode & 0o777:
                    os.chmod(target, mode & 0o777)
        (tmp / self.dist.name).rename(self.dist)
        shutil.rmtree(tmp, ignore_errors=True)

    def _download(self, log) -> None:
        if not shutil.which("mvn"):
            raise StackError("Maven (mvn) is needed to fetch Elasticsearch from Maven Central: "
                             "apt-get install -y maven")
        log(f"Elasticsearch: downloading {ES_ARTIFACT} with Maven (once)")
        result = subprocess.run(
            ["mvn", "-q", "-B", "dependency:copy", f"-Dartifact={ES_ARTIFACT}",
             f"-DoutputDirectory={self.cache}"],
            capture_output=True, text=True, cwd=self.cache, check=False,
        )
        if result.returncode != 0 or not self.zip_path.exists():
            tail = (result.stdout + result.stderr).strip().splitlines()[-5:]
            raise StackError("Maven could not download Elasticsearch:\n  " + "\n  ".join(tail))

    def _configure(self) -> None:
        """Fresh config each start (from deploy/), data kept; all owned by the ES user."""
        ensure_system_user(ES_USER)
        config = self.state / "config"
        shutil.rmtree(config, ignore_errors=True)
        shutil.copytree(self.dist / "config", config)
        shutil.copytree(CONFIG_SOURCE / "hunspell", config / "hunspell")
        base = (CONFIG_SOURCE / "elasticsearch.yml").read_text()
        local = (
            f"\nhttp.port: {self.port}\n"
            f"transport.port: {self.port + 100}\n"
            f"path.data: {self.state / 'data'}\n"
            f"path.logs: {self.state / 'logs'}\n"
        )
        (config / "elasticsearch.yml").write_text(base + local)
        for sub in ("data", "logs", "tmp"):
            (self.state / sub).mkdir(parents=True, exist_ok=True)
        user = pwd.getpwnam(ES_USER)
        for path in [self.state, *self.state.rglob("*")]:
            os.chown(path, user.pw_uid, user.pw_gid)
        _check_traversable(self.dist, user)
        _check_traversable(self.state, user)


def sha512(path: Path) -> str:
    digest = hashlib.sha512()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def find_java() -> str:
    """A Java home of version 17 or newer: ``ES_JAVA_HOME``, the usual JDKs, then ``java`` on PATH."""
    candidates = [os.environ.get("ES_JAVA_HOME", ""), *JAVA_CANDIDATES]
    java = shutil.which("java")
    if java:
        candidates.append(str(Path(os.path.realpath(java)).parent.parent))
    for home in filter(None, candidates):
        binary = Path(home) / "bin" / "java"
        if binary.exists() and _java_major(binary) >= 17:
            return home
    raise StackError("Java 17 or newer is needed for Elasticsearch: apt-get install -y openjdk-17-jre-headless "
                     "(or set ES_JAVA_HOME)")


def _java_major(binary: Path) -> int:
    try:
        out = subprocess.run([str(binary), "-version"], capture_output=True, text=True, check=False).stderr
    except OSError:
        return 0
    match = re.search(r'version "(\d+)', out)
    return int(match.group(1)) if match else 0


def ensure_system_user(name: str) -> None:
    try:
        pwd.getpwnam(name)
        return
    except KeyError:
        pass
    if os.geteuid() != 0:
        raise StackError(f"Elasticsearch must run as a non-root user; create '{name}' "
                         f"(useradd --system {name}) or run `paperlist up` as root once")
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
                   check=True, capture_output=True)


def _check_traversable(path: Path, user: pwd.struct_passwd) -> None:
    for parent in [path, *path.parents]:
        mode = parent.stat().st_mode
        if parent.stat().st_uid != user.pw_uid and not mode & 0o001:
            raise StackError(f"{parent} is not reachable by the '{user.pw_name}' user that runs "
                             "Elasticsearch; set PAPERLIST_HOME to a world-traversable folder")
