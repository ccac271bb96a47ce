"""The one undocumented use of gettext (the compiled Plural-Forms rule), checked against the catalogs'
own Plural-Forms lines and against Babel's reading of the catalogs: if gettext changes how it keeps the
rule, this fails."""

from __future__ import annotations

import pytest
from babel.messages.mofile import read_mo

from hashi_print.i18n import LANGUAGES, catalog_path, plural_forms, plural_rule, translations

# The Plural-Forms lines of the .po files, written out here.
RULES = {
    "de": lambda n: int(n != 1),
    "fr": lambda n: 0 if n in (0, 1) else 1 if n % 1_000_000 == 0 else 2,
    "it": lambda n: 0 if n == 1 else 1 if n != 0 and n % 1_000_000 == 0 else 2,
    "ja": lambda n: 0,
    "ko": lambda n: 0,
}


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_plural_forms_are_the_catalogs_own(lang):
    rule = plural_rule(translations(lang))
    assert [rule(n) for n in (0, 1, 2, 5, 21, 1_000_000, 2_000_000)] == [
        RULES[lang](n) for n in (0, 1, 2, 5, 21, 1_000_000, 2_000_000)]
    with catalog_path(lang).open("rb") as fh:
        catalog = read_mo(fh)
    plurals = [m for m in catalog if m.pluralizable and all(m.string)]
    assert plurals
    for message in plurals:
        assert plural_forms(lang, message.id[0]) == list(message.string), message.id


def test_an_untranslated_plural_message_has_no_forms():
    assert plural_forms("de", "{n} thing nobody wrote") == []
