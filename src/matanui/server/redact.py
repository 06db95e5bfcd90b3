"""Database URLs as the server prints them: never with a password. A URL names the database
in the start-up banner and in error lines; whatever it carries as a secret (the password
after the user name, or a password in the query) is written `***`."""

from __future__ import annotations

import re
from urllib.parse import quote, quote_plus

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from matanui.engine.untrusted import printable

HIDDEN = "***"
SECRET_WORDS = ("password", "secret", "token")  # a query key holding one of these is a secret
# The credentials of a URL SQLAlchemy cannot read: scheme://USER:PASSWORD@...
CREDENTIALS = re.compile(r"(://[^/:@]*:)[^/@]*@")


def redacted(url: str) -> str:
    """`url` with its password and any secret query value written `***` (control characters
    escaped: a URL comes from the command line or the environment)."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):  # not a URL SQLAlchemy reads (ValueError: a bad port)
        return printable(CREDENTIALS.sub(rf"\1{HIDDEN}@", url))
    shown = parsed.set(query={}).render_as_string(hide_password=True)
    pairs = [(key, value) for key, values in parsed.query.items()
             for value in ((values,) if isinstance(values, str) else values)]
    if pairs:
        shown += "?" + "&".join(f"{quote_plus(key)}={HIDDEN if _secret(key) else quote_plus(value)}"
                                for key, value in pairs)
    return printable(shown)


def scrubbed(text: str, url: str) -> str:
    """`text` (a driver's error message), on one line, with every secret of `url` in it
    written `***`: a driver may quote the connection settings it was given."""
    for secret in _secrets(url):
        for form in {secret, quote(secret, safe=""), quote_plus(secret)}:
            text = text.replace(form, HIDDEN)
    return printable(" ".join(text.split()))  # one line: a driver's message may run over several


def _secret(key: str) -> bool:
    return any(word in key.lower() for word in SECRET_WORDS)


def _secrets(url: str) -> list[str]:
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        found = CREDENTIALS.search(url)
        return [found.group(0)[len(found.group(1)):-1]] if found else []
    values = [v for key, value in parsed.query.items() if _secret(key)
              for v in ((value,) if isinstance(value, str) else value)]
    return [secret for secret in [parsed.password, *values] if secret]
