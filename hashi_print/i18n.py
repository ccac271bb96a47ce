"""The language things are printed in: gettext catalogs shipped in the package, chosen per product.

The English text is the message id, so English needs no catalog. Other languages read the compiled
catalog `locale/<lang>/LC_MESSAGES/hashi_print.mo` (built from the `.po` beside it with Babel) through
importlib.resources, so a plain `pip install .` carries them. `language(lang)` sets the language for a
block; `_` and `ngettext` translate in the language of the block they run in.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable

from hashi_print.errors import LayoutError

LANGUAGES = ("en", "de", "fr", "it", "ko", "ja")
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "it": "Italiano", "ko": "한국어",
                  "ja": "日本語"}
DOMAIN = "hashi_print"
_current: ContextVar[str] = ContextVar("hashi_print_language", default="en")


def check_language(lang: str) -> str:
    """Return the language code in lower case, or raise LayoutError naming the languages there are."""
    code = lang.strip().lower()
    if code not in LANGUAGES:
        raise LayoutError(f"unknown language {lang!r}; use one of {', '.join(LANGUAGES)}")
    return code


def catalog_path(lang: str) -> Traversable:
    """The compiled catalog of a language inside the package (an importlib.resources Traversable)."""
    return files("hashi_print") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The translations of a language: English returns every message unchanged."""
    code = check_language(lang)
    if code == "en":
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(catalog_path(code).read_bytes()))


def current_language() -> str:
    """The language of the block being run (English outside any `language` block)."""
    return _current.get()


@contextmanager
def language(lang: str) -> Iterator[str]:
    """Print in `lang` inside the block; the previous language comes back after it."""
    token = _current.set(check_language(lang))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """Translate a message into the current language."""
    lang = _current.get()
    # English is the message id: the rules engine and the deducer build messages in hot loops.
    return message if lang == "en" else translations(lang).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message whose form depends on the number n."""
    return translations(_current.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Translate a message whose meaning depends on where it is used (the context names the place)."""
    return translations(_current.get()).pgettext(context, message)


# Counts that reach every plural form of the product's languages (French and Italian: 0, 1, 2, 1000000).
_COUNTS = (0, 1, 2, 3, 5, 11, 21, 101, 1_000_000)


def plural_rule(found: gettext.NullTranslations) -> Callable[[int], int]:
    """The catalog's Plural-Forms rule: count -> index of the form.

    gettext documents no reader for it; GNUTranslations keeps it compiled as `plural` (English, with no
    catalog, has the rule 1 -> 0, else 1). tests/test_i18n_plural.py fails if that changes.
    """
    rule = getattr(found, "plural", None)
    return rule if callable(rule) else (lambda n: int(n != 1))


def plural_forms(lang: str, singular: str) -> list[str]:
    """A plural message's translations in the catalog's order of forms; [] when it is not translated."""
    found = translations(lang)
    declared = re.search(r"nplurals\s*=\s*(\d+)", found.info().get("plural-forms", ""))
    count = int(declared.group(1)) if declared else 2
    rule = plural_rule(found)
    by_index: dict[int, str] = {}
    for n in _COUNTS:
        # The lookup is by the singular and the form's index; the second message id is only the fallback.
        by_index.setdefault(rule(n), found.ngettext(singular, singular, n))
    forms = [by_index[i] for i in range(count) if i in by_index]
    return [] if all(form == singular for form in forms) else forms


def N_(message: str) -> str:
    """Mark a message for the catalog where it is defined; it is translated later with `_`."""
    return message
