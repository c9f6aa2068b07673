"""The README, docs/ and bench/README.md stay true to the tree: every command in their code
blocks names files and modules that exist, every path and link they give leads somewhere,
the README's quick start is what CI runs, the README stays short with its picture light,
and bench/README.md describes every benchmark with the commands behind its figures."""

from __future__ import annotations

import importlib.util
import re
import shlex
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FILE = re.compile(r"\.(py|sh|txt|cfg|yaml|toml|md|png|css|js)$")
# what a placeholder looks like: pages/<group>/X.py, test_X.py, wheels/*.whl
PLACEHOLDER = re.compile(r"<|\*|…|(^|[/_])X([._/]|$)")


def name(doc: Path) -> str:
    return str(doc.relative_to(ROOT))


def shell_blocks_of(text: str) -> list[str]:
    """The bodies of the ```bash blocks of ``text``."""
    return re.findall(r"```bash\n(.*?)```", text, flags=re.S)


def commands(block: str) -> list[list[str]]:
    """Each simple command of a shell block as its words, comments and assignments left out."""
    found = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        command: list[str] = []
        for word in [*words, ";"]:
            if word in {"&&", "||", ";", "|", "do", "done", "then", "fi"} or word.endswith(";"):
                if word.endswith(";") and word != ";":
                    command.append(word[:-1])
                while command and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", command[0]):
                    command.pop(0)  # ATTNVIZ_SKIP_DOCKER=1 python3 -m pytest
                if command and command[0] != "for":
                    found.append(command)
                command = []
            else:
                command.append(word)
    return found


def module_exists(module: str) -> bool:
    """A module of this tree by its file, or an installed one (streamlit, pytest, pip)."""
    top = module.split(".")[0]
    if (ROOT / top).is_dir():
        path = ROOT / module.replace(".", "/")
        return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()
    return importlib.util.find_spec(top) is not None


def is_repo_path(word: str) -> bool:
    """A word that names a file or folder of this tree (not a URL, an option, a placeholder)."""
    if word.startswith(("-", "/", "http")) or PLACEHOLDER.search(word) or ":" in word:
        return False
    first = word.split("/")[0]
    return bool(first) and (("/" in word and (ROOT / first).exists()) or bool(FILE.search(word)))


@cache
def tree() -> tuple[str, ...]:
    """Every file and folder of the checkout, relative to its root."""
    found = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")]
    return tuple(p for p in found if not p.startswith(".git/"))


def exists(path: str) -> bool:
    """``path`` from the root, or the tail of a path of the tree (``mosaic.js`` in ui/, say)."""
    path = path.rstrip("/")
    return (ROOT / path).exists() or any(p.endswith("/" + path) for p in tree())


def missing(command: list[str]) -> list[str]:
    """What ``command`` names that this tree lacks: a module run with ``-m``, a script run by
    ``bash`` or ``streamlit run``, a file given to ``-r`` or ``-f``, any path of the tree."""
    gone = []
    if command[0] in {"python", "python3"} and command[1:2] == ["-m"]:
        gone += [] if module_exists(command[2]) else [f"module {command[2]}"]
    if command[:2] == ["docker", "build"] and not (ROOT / "Dockerfile").is_file():
        gone.append("Dockerfile")
    for before, word in zip(["", *command], command, strict=False):
        named = before in {"-r", "-f", "bash"} or (before == "run" and command[0] != "docker")
        if (named or is_repo_path(word)) and not PLACEHOLDER.search(word) and not exists(word):
            gone.append(word)
    return gone


def inline_commands(prose: str) -> list[list[str]]:
    """The commands quoted in the prose, as `python3 -m bench.bench_ui` is."""
    spans = re.findall(r"`((?:python3|bash|pip) [^`]+)`", prose)
    return [c for span in spans for c in commands(span)]


@pytest.mark.parametrize("doc", DOCS, ids=name)
def test_every_command_names_files_and_modules_that_exist(doc):
    text = doc.read_text(encoding="utf-8")
    found = [c for block in shell_blocks_of(text) for c in commands(block)]
    found += inline_commands(re.sub(r"```.*?```", "", text, flags=re.S))
    gone = {" ".join(c): missing(c) for c in found if missing(c)}
    assert not gone, gone


@pytest.mark.parametrize("doc", DOCS, ids=name)
def test_every_path_and_link_in_the_prose_exists(doc):
    text = doc.read_text(encoding="utf-8")
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    paths = [w for w in re.findall(r"`([^`\s]+)`", prose) if is_repo_path(w)]
    links = [t for t in re.findall(r"\]\(([^)#\s]+)\)", prose) if not t.startswith("http")]
    gone = [p for p in paths if not exists(p)]
    gone += [t for t in links if not (doc.parent / t).exists()]
    assert paths and not gone, gone


def test_the_command_reader_catches_what_it_is_for():
    block = (
        "pip install -r requirements-gone.txt && python3 -m bench.bench_gone  # a comment\n"
        "ATTNVIZ_X=1 bash tools/gone.sh; python3 -m streamlit run gone.py\n"
        "python3 -m streamlit run app.py --server.port 8501 && haproxy -f deploy/haproxy.cfg\n"
        "for n in 1 2; do docker run -d -p 127.0.0.1:850$n:8501 attnviz; done\n"
    )
    found = [missing(c) for c in commands(block)]
    gone = [["requirements-gone.txt"], ["module bench.bench_gone"], ["tools/gone.sh"], ["gone.py"]]
    assert found == [*gone, [], [], []]
    assert missing(["python3", "-m", "pytest"]) == [] and missing(["bash", "gone.sh"])
    assert is_repo_path("tests/load/test_school.py") and not is_repo_path("pages/<group>/X.py")
    assert exists("mosaic.js") and not exists("mosaic.jsx")


def quick_start() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1]
    return shell_blocks_of(section)[0].strip().splitlines()


def test_the_quick_start_is_two_commands_and_ci_runs_the_second():
    serve, test = quick_start()
    assert "streamlit run app.py" in serve and "-r requirements.txt" in serve
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci.startswith(test), (ci, test)


def test_the_readme_is_short_and_its_picture_light():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 200
    (picture,) = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme)
    path = ROOT / picture
    assert path.suffix == ".png" and path.stat().st_size < 300_000


BENCHES = sorted(p.name for p in (ROOT / "bench").glob("*.py") if p.name != "__init__.py")


def bench_sections() -> dict[str, str]:
    text = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    parts = re.split(r"^## (\w+)", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_every_benchmark_has_a_section_and_every_helper_is_named():
    sections = bench_sections()
    runnable = {b.removesuffix(".py") for b in BENCHES if b.startswith("bench_")}
    assert set(sections) == runnable
    text = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    assert all(f"bench/{b}" in text for b in BENCHES if not b.startswith("bench_"))


@pytest.mark.parametrize("bench", sorted(bench_sections()))
def test_each_benchmark_says_how_to_run_it_and_each_figure_names_its_command(bench):
    section = bench_sections()[bench]
    assert any(f"bench.{bench}" in b or f"bench/{bench}.py" in b for b in shell_blocks_of(section))
    latest = section.split("**Latest figures.**", 1)[1]
    figures = [f for f in re.split(r"^- ", latest, flags=re.M)[1:] if re.search(r"\d", f)]
    assert figures, bench
    for figure in figures:
        assert re.search(r"20\d\d-\d\d-\d\d", figure), figure  # its day
        assert "core" in figure or "machine" in figure, figure  # its machine
        assert re.search(r"load|quiet|nothing else", figure), figure  # what else ran
        assert re.search(r"`(python3|bash) [^`]+`", figure), figure  # what printed it


def test_no_file_keeps_a_merge_conflict():
    """A merge left half done (``<<<<<<<`` … ``>>>>>>>``) shows both sides to a reader."""
    import subprocess

    files = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    marker = re.compile(r"^(<{7} |>{7} |={7}$)", re.M)
    kept = [
        f
        for f in files
        if Path(ROOT / f).suffix in {".py", ".md", ".toml", ".css", ".js", ".cfg", ".yaml", ".txt"}
        and (ROOT / f).is_file()
        and marker.search((ROOT / f).read_text(errors="replace"))
    ]
    assert not kept, kept
