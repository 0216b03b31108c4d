"""Known-advisory check of paperlist's runtime dependencies (pip-audit), run by deploy/test.

Audits the installed versions of pyproject's dependencies and everything they pull in
(not the test tools). Runs only where an advisory database answers (OSV, else the PyPI
JSON API) and says so in one line when none does: an unreachable network never fails
the build; a known vulnerability does (exit 1).

    python3 deploy/audit.py
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from importlib import metadata
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
# (pip-audit's service name, a request that proves the database answers)
DATABASES = (
    ("osv", "POST", "https://api.osv.dev/v1/query", {"package": {"name": "requests", "ecosystem": "PyPI"}}),
    ("pypi", "GET", "https://pypi.org/pypi/requests/2.32.4/json", None),  # versioned, as pip-audit asks
)


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;(]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def runtime_closure() -> dict[str, str]:
    """name -> installed version for the project's dependencies, transitively (markers honoured)."""
    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pending = [Requirement(r) for r in project["dependencies"]]
    found: dict[str, str] = {}
    while pending:
        req = pending.pop()
        name = _name(req.name)
        if name in found:
            continue
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            continue
        found[name] = dist.version
        for raw in dist.requires or []:
            sub = Requirement(raw)
            if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in ("", *req.extras)):
                pending.append(sub)
    return found


def reachable_database() -> str | None:
    """The first database that answers with advisory data (a mirror may answer without it)."""
    for service, method, url, body in DATABASES:
        try:
            resp = requests.request(method, url, json=body, timeout=5)
            if resp.ok and ("vulns" in resp.json() or "vulnerabilities" in resp.json()):
                return service
        except (requests.RequestException, ValueError):
            continue
    return None


def main() -> int:
    if not shutil.which("pip-audit"):
        print("pip-audit: not installed (pip install pip-audit); dependency audit skipped")
        return 0
    service = reachable_database()
    if service is None:
        print("pip-audit: no advisory database reachable (api.osv.dev, pypi.org JSON API); "
              "dependency audit skipped")
        return 0
    pins = runtime_closure()
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("".join(f"{name}=={version}\n" for name, version in sorted(pins.items())))
    print(f"pip-audit: {len(pins)} runtime packages against {service}")
    result = subprocess.run(["pip-audit", "--progress-spinner", "off", "--no-deps", "--disable-pip",
                             "-s", service, "-r", handle.name], check=False)
    Path(handle.name).unlink(missing_ok=True)
    return 1 if result.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
