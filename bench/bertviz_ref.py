"""BertViz's head_view, the reference for bench_model_view, served offline.

BertViz loads require.js, d3 and jQuery from public CDNs, which this machine cannot reach:
``cdn_files`` fetches them once from npm (``npm pack``, cached in ~/.cache/attnviz-bench)
so the bench can answer those URLs itself.
"""

from __future__ import annotations

import re
import subprocess
import tarfile
import time
from pathlib import Path

import torch

CACHE = Path.home() / ".cache" / "attnviz-bench"
NPM = {  # CDN file name (as BertViz asks for it) → (npm package, file inside the tarball)
    "require.min.js": ("requirejs@2.3.6", "package/require.js"),
    "d3.min.js": ("d3@5.7.0", "package/dist/d3.min.js"),
    "jquery.min.js": ("jquery@2.2.4", "package/dist/jquery.min.js"),
}
# BertViz's HTML minus its require.js tag (already loaded), inserted so its scripts run.
DRAW = """(html) => document.body.appendChild(document.createRange()
  .createContextualFragment(html.replace(/<script src=[^>]*><\\/script>/, "")))"""


def cdn_files() -> dict[str, bytes]:
    CACHE.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, (pkg, member) in NPM.items():
        target = CACHE / name
        if not target.exists():
            packed = subprocess.run(
                ["npm", "pack", pkg, "--silent"],
                cwd=CACHE,
                check=True,
                capture_output=True,
                text=True,
            )
            with tarfile.open(CACHE / packed.stdout.strip().splitlines()[-1]) as tar:
                target.write_bytes(tar.extractfile(member).read())
        out[name] = target.read_bytes()
    return out


def head_view(A: torch.Tensor, tokens: list[str]) -> tuple[float, str]:
    """Seconds to build BertViz's head view of (L, H, N, N) weights, and its HTML."""
    from bertviz import head_view

    t0 = time.perf_counter()
    html = head_view([a[None] for a in A], tokens, html_action="return").data
    return time.perf_counter() - t0, html


def ready(N: int) -> str:
    """True in the page once the first layer's lines are all in the DOM."""
    return f"document.querySelectorAll('#vis line').length >= {N * N}"


def libs_page(html: str) -> str:
    """A page with BertViz's own require.js configuration and modules already loaded."""
    config = re.search(r"require\.config\(\{.*?\}\);", html, re.S).group(0)
    return (
        '<script src="https://cdnjs.cloudflare.com/ajax/libs/require.js/2.3.6/require.min.js">'
        f"</script><script>{config}"
        "requirejs(['jquery', 'd3'], () => { window.libsReady = true; });</script>"
    )
