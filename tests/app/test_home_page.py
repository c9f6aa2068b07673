"""The home page: one line per page of the navigation and the devices, in both languages."""

import pytest
import torch

from attnviz.i18n import t

from .helpers import PAGES, assert_clean, run_page


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_home_lists_every_page_and_the_device(lang):
    at = run_page("home", lang=lang)
    assert_clean(at)
    lines = "\n".join(m.value for m in at.markdown).splitlines()
    items = [line for line in lines if line.startswith("- **")]
    assert len(items) == len(PAGES) - 1  # every page but home itself
    assert not at.get("plotly_chart") and not at.latex
    assert any("PyTorch" in c.value for c in at.caption)
    assert items[0].startswith("- **" + ("本文を順にたどる" if lang == "ja" else "Tour"))


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_on_a_gpu_host_home_names_the_pages_that_stay_on_the_cpu(lang, monkeypatch):
    monkeypatch.delenv("ATTNVIZ_DEVICE", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda device=None: "Stand-in GPU")
    at = run_page("home", lang=lang)
    assert_clean(at)
    captions = [c.value for c in at.caption]
    version = torch.__version__
    assert t("app.device", lang, device="cuda (Stand-in GPU)", version=version) in captions
    assert t("app.device_small", lang, device="cpu") in captions
    names = {"ja": ("深さと勾配", "学習レース"), "en": ("Gradients by depth", "Training race")}
    assert all(name in t("app.device_small", lang, device="cpu") for name in names[lang])


def test_on_a_cpu_host_home_names_one_device(monkeypatch):
    monkeypatch.setenv("ATTNVIZ_DEVICE", "cpu")
    at = run_page("home", lang="en")
    captions = [c.value for c in at.caption]
    assert t("app.device", "en", device="cpu", version=torch.__version__) in captions
    assert not any("compute on" in c for c in captions)
