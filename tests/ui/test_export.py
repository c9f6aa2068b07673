"""Chart titles for a projector: long ones break where no word is split."""

from ui.export import _halved, _width


def test_a_japanese_title_breaks_only_at_its_punctuation_nearest_the_middle():
    title = "「猫」（位置 3 と 8）の注意の重み：位置符号化なし"
    main, sub = _halved(title).split("<br>")
    assert main == "「猫」（位置 3 と 8）の注意の重み：" and sub == "位置符号化なし"
    assert "<br>" not in _halved("位置どうしの類似度")  # no 、：（: no break
    assert _width("注意 q") == 2 + 2 + 1 + 1  # a kanji takes two columns


def test_an_english_title_breaks_at_the_space_nearest_the_middle():
    assert _halved("P: row i takes the token from column π(i)") == (
        "P: row i takes the<br>token from column π(i)"
    )
    assert _halved("Short") == "Short"
