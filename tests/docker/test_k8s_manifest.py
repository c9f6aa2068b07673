"""deploy/k8s.yaml is valid Kubernetes and says what tests/load/test_school.py proves with
HAProxy (deploy/haproxy.cfg): probes on the health route HAProxy checks, on the port the
container listens on; stickiness by cookie (the Ingress) and client IP (the Service);
websockets open as long as HAProxy's tunnel timeout; and the non-root user the
Dockerfile creates; the class votes' Redis, which every pod's ATTNVIZ_STORE names. (No
cluster here: this is the static half.)

The schemas are those that the pinned ``kubernetes-validate`` ships (no network).
"""

from __future__ import annotations

import copy
import re

import kubernetes_validate
import pytest
import yaml
from kubernetes_validate.utils import all_versions

from tests.browser.conftest import ROOT

MANIFEST = ROOT / "deploy" / "k8s.yaml"
HAPROXY = (ROOT / "deploy" / "haproxy.cfg").read_text()
VERSIONS = sorted({all_versions()[0], all_versions()[-1]})  # the oldest and newest bundled


def resources() -> dict[str, dict]:
    """The app's resources by kind; the store's as "<kind>/redis"."""
    docs = {}
    for doc in yaml.safe_load_all(MANIFEST.read_text()):
        store = doc["metadata"]["name"].endswith("-redis")
        docs[f"{doc['kind']}/redis" if store else doc["kind"]] = doc
    return docs


def seconds(value: str) -> float:
    """An HAProxy time ("1h", "30s", "500ms"; a bare number is milliseconds) in seconds."""
    n, unit = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", value).groups()
    return int(n) * {None: 0.001, "ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}[unit]


@pytest.mark.parametrize("version", VERSIONS)
def test_manifest_matches_the_kubernetes_schema(version):
    docs = resources()
    assert set(docs) == {"Deployment", "Service", "Ingress", "Deployment/redis", "Service/redis"}
    for doc in docs.values():
        kubernetes_validate.validate(doc, version, strict=True)


def test_the_schema_check_can_fail():
    deploy = copy.deepcopy(resources()["Deployment"])
    (c,) = deploy["spec"]["template"]["spec"]["containers"]
    c["readinessProbe"]["httpGet"]["pathh"] = c["readinessProbe"]["httpGet"].pop("path")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deploy, VERSIONS[-1], strict=True)


def test_manifest_is_consistent_with_the_image_and_the_balancer():
    docs = resources()
    deploy, service, ingress = docs["Deployment"], docs["Service"], docs["Ingress"]
    pod = deploy["spec"]["template"]
    (c,) = pod["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert ports["http"] == 8501
    env = {e["name"]: e.get("value") for e in c.get("env", [])}
    assert env.get("STREAMLIT_SERVER_PORT", "8501") == str(ports["http"])
    # Probes on the route HAProxy checks.
    health = re.search(r"option httpchk GET (\S+)", HAPROXY).group(1)
    assert health == "/_stcore/health"
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        get = c[probe]["httpGet"]
        assert get["path"] == health and get["port"] in ("http", 8501), probe
    # As patient with a busy pod as HAProxy is with a busy replica; restarts more patient.
    ready, alive = c["readinessProbe"], c["livenessProbe"]
    check = seconds(re.search(r"timeout check (\S+)", HAPROXY).group(1))
    fall = int(re.search(r"default-server .*\bfall (\d+)", HAPROXY).group(1))
    assert ready["timeoutSeconds"] >= check and ready["failureThreshold"] >= fall
    assert alive["timeoutSeconds"] >= check
    assert alive["periodSeconds"] * alive["failureThreshold"] >= 60
    labels = pod["metadata"]["labels"]
    assert deploy["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert deploy["spec"]["replicas"] >= 2
    # The Service: selects the pods, pins a client IP to one for a lesson.
    assert service["spec"]["selector"].items() <= labels.items()
    assert service["spec"]["sessionAffinity"] == "ClientIP"
    assert service["spec"]["sessionAffinityConfig"]["clientIP"]["timeoutSeconds"] >= 3 * 3600
    (sport,) = service["spec"]["ports"]
    assert sport["targetPort"] in ("http", 8501)
    # The Ingress: sticky by cookie, as HAProxy; websockets kept open as long.
    notes = ingress["metadata"]["annotations"]
    nginx = "nginx.ingress.kubernetes.io/"
    assert notes[nginx + "affinity"] == "cookie"
    cookie = re.search(r"^\s*cookie (\S+) insert", HAPROXY, re.M).group(1)
    assert notes[nginx + "session-cookie-name"] == cookie
    tunnel = seconds(re.search(r"timeout tunnel (\S+)", HAPROXY).group(1))
    assert int(notes[nginx + "proxy-read-timeout"]) >= tunnel
    assert int(notes[nginx + "proxy-send-timeout"]) >= tunnel
    (rule,) = ingress["spec"]["rules"]
    (path,) = rule["http"]["paths"]
    backend = path["backend"]["service"]
    assert backend["name"] == service["metadata"]["name"]
    assert backend["port"] in ({"name": sport["name"]}, {"number": sport["port"]})
    # The user the image runs as.
    uid = re.search(r"useradd .*--uid (\d+)", (ROOT / "Dockerfile").read_text()).group(1)
    sec = pod["spec"]["securityContext"]
    assert sec["runAsNonRoot"] and str(sec["runAsUser"]) == uid


def test_every_pod_shares_the_class_store_the_manifest_runs():
    docs = resources()
    (c,) = docs["Deployment"]["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e.get("value") for e in c.get("env", [])}
    store = re.fullmatch(r"redis://([\w-]+):(\d+)/\d+", env["ATTNVIZ_STORE"])
    assert store, env["ATTNVIZ_STORE"]
    service, deploy = docs["Service/redis"], docs["Deployment/redis"]
    assert service["metadata"]["name"] == store.group(1)
    (port,) = service["spec"]["ports"]
    assert port["port"] == int(store.group(2))
    pod = deploy["spec"]["template"]
    assert service["spec"]["selector"].items() <= pod["metadata"]["labels"].items()
    (redis,) = pod["spec"]["containers"]
    assert redis["args"][:4] == ["--save", "", "--appendonly", "no"]  # nothing kept on disk
    assert pod["spec"]["securityContext"]["runAsNonRoot"]
