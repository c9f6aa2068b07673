"""The real image: built by tools/docker-test.sh (local bookworm base, local torch wheel),
run as a container, checked from outside. Marked ``docker``; runs in .ci/run.

Set ATTNVIZ_SKIP_DOCKER=1 to skip it on a machine where Docker cannot run (it fails
otherwise: a Dockerfile nobody builds is a promise, not a feature).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.request

import pytest

from tests.browser.conftest import ROOT, assert_clean, open_app
from tests.load.classroom import app_pages

pytestmark = [
    pytest.mark.docker,
    pytest.mark.timeout(1500),
    pytest.mark.skipif(
        os.environ.get("ATTNVIZ_SKIP_DOCKER") == "1", reason="ATTNVIZ_SKIP_DOCKER=1"
    ),
]
TAG = "attnviz:test"
PORT_IN = 8080  # not the default 8501: proves STREAMLIT_SERVER_PORT moves the server


def sh(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, check=check, timeout=1200)


def host_port() -> int:
    for port in [*range(8620, 8640), 0]:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise RuntimeError("no free port")


@pytest.fixture(scope="module")
def image():
    proc = subprocess.run(
        ["bash", str(ROOT / "tools" / "docker-test.sh"), TAG],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    print("\n" + proc.stdout.strip().splitlines()[-1])  # build time and image size
    return json.loads(sh("docker", "image", "inspect", TAG).stdout)[0]


@pytest.fixture(scope="module")
def container(image):
    port = host_port()
    name = f"attnviz-test-{port}"
    sh("docker", "rm", "-f", name, check=False)
    sh(
        "docker",
        "run",
        "-d",
        "--name",
        name,
        "-e",
        f"STREAMLIT_SERVER_PORT={PORT_IN}",
        "-p",
        f"127.0.0.1:{port}:{PORT_IN}",
        "--health-interval=2s",
        TAG,
    )
    deadline, status = time.monotonic() + 180, ""
    while time.monotonic() < deadline:
        status = sh("docker", "inspect", "-f", "{{.State.Health.Status}}", name).stdout.strip()
        if status in ("healthy", "unhealthy"):
            break
        time.sleep(1)
    yield name, f"http://127.0.0.1:{port}", status
    logs = sh("docker", "logs", "--tail", "40", name, check=False)
    print(logs.stdout[-2000:], logs.stderr[-2000:])
    sh("docker", "rm", "-f", name, check=False)


def test_image_metadata(image):
    cfg = image["Config"]
    assert "8501/tcp" in cfg["ExposedPorts"]
    assert cfg["User"] not in ("", "root", "0")
    assert cfg["WorkingDir"] == "/app"
    probe = " ".join(cfg["Healthcheck"]["Test"])
    assert "_stcore/health" in probe and "curl" not in probe and "python" in probe


def test_healthy_non_root_read_only_code(container):
    name, url, status = container
    assert status == "healthy"
    assert sh("docker", "exec", name, "id", "-u").stdout.strip() != "0"
    assert sh("docker", "exec", name, "touch", "/app/x", check=False).returncode != 0
    ls = sh("docker", "exec", name, "ls", "-a", "/app").stdout.split()
    assert ".streamlit" in ls and "app.py" in ls
    assert not {"tests", "wheels", ".git", "Dockerfile"} & set(ls)
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as r:
        assert r.status == 200


def test_cors_not_open_to_every_origin(container):
    _, url, _ = container
    req = urllib.request.Request(
        f"{url}/_stcore/health", headers={"Origin": "http://elsewhere.example"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        assert r.headers.get("Access-Control-Allow-Origin") != "*"


def test_no_origin_may_drive_the_app_from_a_parent_frame(container):
    """Streamlit lets a listed origin stop, rerun or steer the app by postMessage from a
    parent frame; its default list is Community Cloud's. attnviz's list is empty."""
    _, url, _ = container
    with urllib.request.urlopen(f"{url}/_stcore/host-config", timeout=10) as r:
        assert json.load(r)["allowedOrigins"] == []


def test_model_inside_the_image_offline(image):
    """The real model loads with no network at all: nothing is downloaded at run time."""
    out = sh(
        "docker",
        "run",
        "--rm",
        "--network",
        "none",
        TAG,
        "python",
        "-c",
        "from attnviz.pretrained import load_pretrained; m = load_pretrained(); "
        "print(type(m).__name__)",
    )
    assert out.stdout.strip() == "PretrainedModel", out.stderr[-2000:]


def test_japanese_segmented_inside_the_image(image):
    """MeCab and its dictionary are in the image: Japanese without spaces splits into words."""
    out = sh(
        "docker",
        "run",
        "--rm",
        "--network",
        "none",
        TAG,
        "python",
        "-c",
        "import json; from attnviz.text import tokenize; "
        "print(json.dumps(tokenize('猫がマットの上に座った。')))",
    )
    assert json.loads(out.stdout) == ["猫", "が", "マット", "の", "上", "に", "座っ", "た", "。"]


@pytest.mark.parametrize("path", app_pages())
def test_page_runs_in_chromium(container, page, path):
    _, url, _ = container
    open_app(page, f"{url}/{path}")
    assert page.locator("[data-testid=stApp]").count() == 1
    assert_clean(page)
