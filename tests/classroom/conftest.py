"""Both stores for the contract tests: a SQLite file in a temporary folder, and a real
Debian ``redis-server`` on a free loopback port, throwaway (no snapshot, no log of writes)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest

from attnviz.classroom import open_store

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(tmp_path) -> tuple[subprocess.Popen, str]:
    """``redis-server`` on loopback, ready; its URL."""
    port = free_port()
    proc = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("redis-server did not start")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    proc, url = start_redis(tmp_path_factory.mktemp("redis"))
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(params=["sqlite", "redis"])
def store_url(request, tmp_path):
    """The URL of an empty store of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/classes.sqlite3"
    url = request.getfixturevalue("redis_url")
    import redis

    redis.Redis.from_url(url).flushdb()
    return url


@pytest.fixture
def store(store_url):
    return open_store(store_url)
