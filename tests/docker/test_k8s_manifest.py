"""deploy/k8s.yaml parses and holds together: probes on the health route of the port the
container listens on, a Service that selects the pods and pins a client to one of them,
and the non-root user the Dockerfile creates. (No cluster here; this is the static half.)"""

from __future__ import annotations

import re

import yaml

from tests.browser.conftest import ROOT


def test_manifest_is_consistent():
    deploy, service = yaml.safe_load_all((ROOT / "deploy" / "k8s.yaml").read_text())
    assert (deploy["kind"], service["kind"]) == ("Deployment", "Service")
    pod = deploy["spec"]["template"]
    (c,) = pod["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert ports["http"] == 8501
    env = {e["name"]: e.get("value") for e in c.get("env", [])}
    assert env.get("STREAMLIT_SERVER_PORT", "8501") == str(ports["http"])
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        get = c[probe]["httpGet"]
        assert get["path"] == "/_stcore/health" and get["port"] in ("http", 8501), probe
    labels = pod["metadata"]["labels"]
    assert deploy["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert service["spec"]["selector"].items() <= labels.items()
    assert service["spec"]["sessionAffinity"] == "ClientIP"
    assert service["spec"]["ports"][0]["targetPort"] in ("http", 8501)
    uid = re.search(r"useradd .*--uid (\d+)", (ROOT / "Dockerfile").read_text()).group(1)
    sec = pod["spec"]["securityContext"]
    assert sec["runAsNonRoot"] and str(sec["runAsUser"]) == uid
