"""Reading what the user gave us: a file, `-` or piped stdin. Only the CLI calls this.

Small inputs are read whole. Past SMALL bytes the text is streamed line by line and only the
neighbourhood of lines that look like part of a traceback or an exception is kept, so a 1 GB
log is read in bounded memory; the result says how much was left out.
"""

from __future__ import annotations

import os

from errexplain._startup import TYPE_CHECKING, Record
from errexplain.bounds import INPUT_BYTES, LINE_BYTES, READ_WHOLE_BYTES, TAIL_BYTES
from errexplain.errors import InputError

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import BinaryIO

SMALL = READ_WHOLE_BYTES
KEEP_LIMIT = INPUT_BYTES
BEFORE, AFTER = 60, 400


class InputText(Record):
    text: str
    name: str
    size: int
    skipped_bytes: int = 0
    truncated_at_limit: bool = False
    replaced_bytes: bool = False
    cut_line_bytes: int = 0

    def warnings(self) -> list[str]:
        out = []
        if self.replaced_bytes:
            out.append(
                f"{self.name} is not valid UTF-8: undecodable bytes were replaced with "
                "U+FFFD. If it is UTF-16 or Latin-1, convert it first "
                "(iconv -f UTF-16 -t UTF-8)."
            )
        if self.cut_line_bytes:
            out.append(
                f"lines longer than {LINE_BYTES:,} bytes were cut to that length "
                f"({self.cut_line_bytes:,} bytes left out)."
            )
        if self.skipped_bytes - self.cut_line_bytes > 0:
            out.append(
                f"{self.name} is large ({self.size:,} bytes): "
                f"{self.skipped_bytes - self.cut_line_bytes:,} "
                "bytes of lines far from any traceback were skipped."
            )
        if self.truncated_at_limit:
            out.append(
                f"stopped keeping text after {KEEP_LIMIT - _tail():,} bytes of "
                f"traceback-like lines; of the rest only the last {_tail():,} bytes "
                "of the input were read."
            )
        return out


def _tail() -> int:
    """Bytes of a big input's end always kept (at most half of what is kept at all)."""
    return min(TAIL_BYTES, KEEP_LIMIT // 2)


def _decode(data: bytes) -> tuple[str, bool]:
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), True


def _looks_binary(head: bytes) -> bool:
    return b"\x00" in head[:8192] and not head.startswith((b"\xff\xfe", b"\xfe\xff"))


def read_stream(stream: BinaryIO, name: str) -> InputText:
    head = stream.read(SMALL)
    if _looks_binary(head):
        raise InputError(
            f"{name} looks like a binary file, not text", hint="pass the log or traceback as text"
        )
    if len(head) < SMALL:
        from errexplain.input.window import bound_lines

        kept, cut = bound_lines(head)
        text, replaced = _decode(kept)
        return InputText(text, name, len(head), cut, replaced_bytes=replaced, cut_line_bytes=cut)
    from errexplain.input.window import filter_stream

    win = filter_stream(head, stream, BEFORE, AFTER, KEEP_LIMIT, _tail())
    text, replaced = _decode(win.text())
    return InputText(text, name, win.total, win.skipped, win.cut, replaced, win.line_cut)


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
        raise InputError(
            f"{path}: no such file", hint="check the path, or pipe the text: cmd 2>&1 | errexplain"
        ) from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory", hint="pass a log or traceback file") from None


LINE_LIMIT = 1024 * 1024
"""`read_lines` hands over a longer line in pieces of this many bytes."""


def read_lines(path: str, stdin: BinaryIO) -> Iterator[str]:
    """A file (or stdin for `-`) line by line, line endings kept, in bounded memory; bytes
    that are not UTF-8 become U+FFFD."""
    if path == "-":
        yield from _lines(stdin)
        return
    if os.path.isdir(path):
        raise InputError(f"{path} is a directory", hint="pass a log or traceback file")
    try:
        fh = open(path, "rb")  # noqa: SIM115 (closed below; a generator cannot use `with` here)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file", hint="check the path, or pipe the text") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    with fh:
        yield from _lines(fh)


def _lines(stream: BinaryIO) -> Iterator[str]:
    while line := stream.readline(LINE_LIMIT):
        yield line.decode("utf-8", errors="replace")
