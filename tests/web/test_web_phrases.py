"""BudouX's phrase breaks put into a page: only in running text, never in markup."""

from __future__ import annotations

from hashi_print.web.phrases import phrase_breaks


def test_phrases_are_marked_in_text_only():
    page = ('<html lang="ja"><head><title>遊び方 · hashi-print</title><script type="application/json">'
            '{"a": "今日は天気です"}</script></head><body><p title="橋をかける">今日は天気です。</p>'
            '<textarea>橋をかける練習</textarea><p>A &amp; B は島です</p></body></html>')
    out = phrase_breaks(page)
    assert "<p title=\"橋をかける\">今日は<wbr>天気です。</p>" in out
    assert '<title>遊び方 · hashi-print</title>' in out and '{"a": "今日は天気です"}' in out
    assert "<textarea>橋をかける練習</textarea>" in out
    assert "A &amp; B は<wbr>島です" in out or "A &amp; Bは" in out.replace(" ", "")
    # removing the marks gives the page back
    assert out.replace("<wbr>", "") == page


def test_latin_text_is_untouched():
    page = "<p>Build the bridges.</p>"
    assert phrase_breaks(page) == page
