"""Reading what the user gave us: a file, `-` or piped stdin. Only the CLI calls this.

Small inputs are read whole. Past SMALL bytes the text is streamed line by line and only the
neighbourhood of lines that look like part of a traceback or an exception is kept, so a 1 GB
log is read in bounded memory; the result says how much was left out.
"""

from __future__ import annotations

import os

from .errors import InputError
from .models import TYPE_CHECKING, record

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import BinaryIO

SMALL = 8 * 1024 * 1024
KEEP_LIMIT = 32 * 1024 * 1024
BEFORE, AFTER = 60, 400


@record
class InputText:
    text: str
    name: str
    size: int
    skipped_bytes: int = 0
    truncated_at_limit: bool = False
    replaced_bytes: bool = False

    def warnings(self) -> list[str]:
        out = []
        if self.replaced_bytes:
            out.append(f"{self.name} is not valid UTF-8: undecodable bytes were replaced with "
                       "U+FFFD. If it is UTF-16 or Latin-1, convert it first "
                       "(iconv -f UTF-16 -t UTF-8).")
        if self.skipped_bytes:
            out.append(f"{self.name} is large ({self.size:,} bytes): {self.skipped_bytes:,} "
                       "bytes of lines far from any traceback were skipped.")
        if self.truncated_at_limit:
            out.append(f"stopped keeping text after {KEEP_LIMIT:,} bytes of traceback-like "
                       "lines; errors after that point were not read.")
        return out


def _decode(data: bytes) -> tuple[str, bool]:
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), True


def _looks_binary(head: bytes) -> bool:
    return b"\x00" in head[:8192] and not head.startswith((b"\xff\xfe", b"\xfe\xff"))


def _filtered(lines: Iterator[bytes]) -> tuple[list[bytes], int, bool]:
    import re
    from collections import deque

    interesting = re.compile(
        rb"Traceback \(most recent|^\s*File \"|Error\b|Exception\b|Error[:(]|Warning:|"
        rb"^\s*\|?\s*\+|During handling|direct cause")
    before: deque[bytes] = deque(maxlen=BEFORE)
    kept: list[bytes] = []
    kept_size = skipped = after = 0
    for line in lines:
        if interesting.search(line):
            if before:
                kept.extend(before)
                kept_size += sum(map(len, before))
                before.clear()
            after = AFTER
        if after > 0:
            after -= 1
            kept.append(line)
            kept_size += len(line)
            if kept_size > KEEP_LIMIT:
                return kept, skipped, True
        else:
            if len(before) == before.maxlen:
                skipped += len(before[0])
            before.append(line)
    skipped += sum(map(len, before))
    return kept, skipped, False


def read_stream(stream: BinaryIO, name: str) -> InputText:
    head = stream.read(SMALL)
    if _looks_binary(head):
        raise InputError(f"{name} looks like a binary file, not text",
                         hint="pass the log or traceback as text")
    if len(head) < SMALL:
        text, replaced = _decode(head)
        return InputText(text, name, len(head), replaced_bytes=replaced)
    lines = _chain(head, stream)
    kept, skipped, cut = _filtered(lines)
    size = sum(map(len, kept)) + skipped
    text, replaced = _decode(b"".join(kept))
    return InputText(text, name, size, skipped, cut, replaced)


def _chain(head: bytes, rest: BinaryIO) -> Iterator[bytes]:
    parts = head.split(b"\n")
    tail = parts.pop()
    for p in parts:
        yield p + b"\n"
    first = rest.readline()
    yield tail + first
    yield from iter(rest.readline, b"")


def read_path(path: str, stdin: BinaryIO) -> InputText:
    """Read a file path, or stdin for `-`."""
    if path == "-":
        return read_stream(stdin, "stdin")
    if os.path.isdir(path):
        raise InputError(f"{path} is a directory", hint="pass a log or traceback file")
    try:
        with open(path, "rb") as fh:
            return read_stream(fh, path)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file",
                         hint="check the path, or pipe the text: cmd 2>&1 | errexplain") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory", hint="pass a log or traceback file") from None
