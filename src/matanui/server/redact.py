"""Database URLs as the server prints them: never with a password. A URL names the database
in the start-up banner and in error lines; whatever it carries as a secret (the password
after the user name, or a password in the query) is written `***`.

The URL is masked as it was written, not as a parser reads it: a password with an `@` left
unencoded (`user:pa@ss@host`) is read by SQLAlchemy as the password `pa` on the host
`ss@host`, and a value without a scheme is no URL at all, yet both hold the whole password.
"""

from __future__ import annotations

import re
from urllib.parse import quote, quote_plus, unquote, unquote_plus

from matanui.engine.untrusted import printable

HIDDEN = "***"
# USER:PASSWORD@ after the scheme (if any), the password running to the authority's last `@`.
CREDENTIALS = re.compile(r"^((?:[^:/?#]*://)?[^/:@?#]*:)([^/?#]*)@")
# A query value whose key names a secret (password, sslpassword, secret, token, ...).
SECRET_QUERY = re.compile(r"([?&][^=&#]*(?:password|secret|token)[^=&#]*=)([^&#]*)", re.IGNORECASE)


def redacted(url: str) -> str:
    """`url` with its password and every secret query value written `***` (control
    characters escaped: a URL comes from the command line or the environment)."""
    masked = CREDENTIALS.sub(rf"\1{HIDDEN}@", url, count=1)
    return printable(SECRET_QUERY.sub(rf"\1{HIDDEN}", masked))


def scrubbed(text: str, url: str) -> str:
    """`text` (a driver's error message), on one line, with every secret of `url` in it
    written `***`, however it is quoted: a driver may quote the connection settings it was
    given, or the host it took from a password's `@`."""
    for secret in sorted(_secrets(url), key=len, reverse=True):
        for form in {secret, quote(secret, safe=""), quote_plus(secret), unquote(secret),
                     unquote_plus(secret)}:
            if form:
                text = text.replace(form, HIDDEN)
    return printable(" ".join(text.split()))  # one line: a driver's message may run over several


def _secrets(url: str) -> list[str]:
    """The secrets `url` holds as written, and each piece of a password an unencoded `@`
    splits (what a parser takes for the password, and the rest it takes for the host)."""
    found = CREDENTIALS.search(url)
    password = found.group(2) if found else ""
    pieces = [piece for piece in password.split("@") if len(piece) >= 3] if "@" in password else []
    secrets = [password, *pieces] if password else []
    return [*secrets, *(value for _, value in SECRET_QUERY.findall(url) if value)]
