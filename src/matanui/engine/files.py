"""Files: writing them so that a crash, a killed process or a power cut leaves either the
old file or the new one whole, never half of one; and reading files from outside (records,
data packs) so that whatever a file holds, the reader gets its text or the library's own
error saying what is wrong."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

from .errors import MatanuiError

# Byte-order marks of encodings a text editor may save in, and their names for a message.
OTHER_ENCODINGS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
                   (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))
UTF8_MARK = b"\xef\xbb\xbf"
SAVE_AS_UTF8 = "save it as UTF-8"


def read_text(path: str | Path, what: str, error: type[MatanuiError], max_bytes: int,
              hint: str = SAVE_AS_UTF8) -> str:
    """The UTF-8 text of the file at `path` (a UTF-8 byte-order mark dropped). `error`,
    naming the file as `what` ("record", "data file"), when it cannot be read, is not a
    plain file (a folder, a pipe, a device), holds more than `max_bytes` bytes, or is not
    UTF-8 (then ending with `hint`, what the file must be)."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise error(f"{what} {path} is a folder, not a file")
        if not stat.S_ISREG(mode):
            raise error(f"{what} {path} is not a plain file")
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise error(f"{what} {path} is larger than {max_bytes:,} bytes, more than any {what} "
                    "needs")
    return decoded(data, f"{what} {path}", error, hint)


def decoded(data: bytes, name: str, error: type[MatanuiError], hint: str = SAVE_AS_UTF8) -> str:
    """`data` as UTF-8 text, or `error` saying where it is not (`name` names the file, `hint`
    ends the message). NUL bytes are refused as well: they are valid UTF-8, but no text file
    matanui reads (JSON, TOML) may hold one, and UTF-16 or UTF-32 saved without a byte-order
    mark is full of them, which would otherwise be read as text and called bad JSON."""
    for mark, encoding in OTHER_ENCODINGS:
        if data.startswith(mark):
            raise error(f"{name} is not UTF-8 text (it starts with a {encoding} byte-order mark); "
                        f"{hint}")
    if b"\x00" in data:
        raise error(f"{name} is not UTF-8 text (it holds NUL bytes, as UTF-16 and UTF-32 text "
                    f"do); {hint}")
    data = data.removeprefix(UTF8_MARK)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        column = len(data[line_start:exc.start].decode("utf-8", errors="replace")) + 1
        raise error(f"{name} is not UTF-8 text: byte 0x{data[exc.start]:02x} at line {line}, "
                    f"column {column}; {hint}") from None


def write_atomically(path: str | Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` by way of a temporary file in the same folder, made
    durable and then renamed over `path`. If anything fails, `path` is left as it was and
    the temporary file is removed."""
    path = Path(path)
    temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    # O_EXCL: never write into someone else's file; mode 0o666 less the umask, as open() gives.
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); where a folder cannot be opened (Windows)
    the rename is as durable as the system makes it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
