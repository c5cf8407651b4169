"""The lexical layer of PBN 2.1: tag pairs, section data, ``{}`` and ``;``
comments, ``%`` escape lines and record boundaries.

Kept apart from :mod:`.pbn` (which gives the tags their meaning) because
real files break the syntax in ways a reader must survive and report: tags
run into ``%`` lines, unclosed comments, malformed tag pairs.  Each raw
record keeps its tags in order, the data lines after each tag, the
comments, and the lexical defects found in it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["RawRecord", "lex"]

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_TAG_IN_ESCAPE = re.compile(r'\[\s*[A-Za-z0-9_]+\s*"')


@dataclass
class RawRecord:
    """One record as written: ``tags`` in order (a name may repeat, e.g.
    ``Note``), ``data[i]`` the section lines following ``tags[i]``."""

    number: int
    line: int
    tags: list[tuple[str, str]] = field(default_factory=list)
    data: list[list[str]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    defects: list[str] = field(default_factory=list)

    def first(self, name: str) -> str | None:
        for k, v in self.tags:
            if k == name:
                return v
        return None

    def section(self, name: str) -> list[str]:
        for (k, _), lines in zip(self.tags, self.data, strict=True):
            if k == name:
                return lines
        return []


def _unescape(value: str) -> str:
    return value.replace('\\"', '"').replace("\\\\", "\\")


def lex(text: str) -> tuple[list[RawRecord], list[str]]:
    """Split ``text`` into raw records; also return file-level ``%`` lines."""
    records: list[RawRecord] = []
    header: list[str] = []
    current: RawRecord | None = None
    in_comment: list[str] | None = None
    comment_line = 0
    pending = ""  # the start of a tag pair continued on the next line (import format)
    pending_line = 0

    def record(lineno: int) -> RawRecord:
        nonlocal current
        if current is None:
            current = RawRecord(len(records) + 1, lineno)
            records.append(current)
        return current

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r\n")
        joined_from = 0
        if pending:
            if not line.strip() or line.lstrip().startswith("["):
                record(pending_line).defects.append(
                    f"line {pending_line}: malformed tag pair {pending.strip()!r}"
                )
                pending = ""
            else:
                line, joined_from, pending = pending + " " + line, pending_line, ""
        if in_comment is not None:
            end = line.find("}")
            if end < 0:
                in_comment.append(line)
                continue
            in_comment.append(line[:end])
            (current.comments if current is not None else header).append("\n".join(in_comment))
            in_comment = None
            line = line[end + 1 :]
            if not line.strip():
                continue
        elif not line.strip():
            current = None  # an empty line ends the record
            continue
        if line.startswith("%"):
            m = _TAG_IN_ESCAPE.search(line)
            if m is None:
                if current is None:
                    header.append(line)
                continue
            record(lineno).defects.append(f"line {lineno}: a tag runs into a '%' escape line")
            line = line[m.start() :]
        data: list[str] = []
        i = 0
        n = len(line)
        while i < n:
            ch = line[i]
            if ch == "{":
                end = line.find("}", i + 1)
                if end < 0:
                    in_comment = [line[i + 1 :]]
                    comment_line = lineno
                    break
                record(lineno).comments.append(line[i + 1 : end])
                i = end + 1
            elif ch == ";":
                record(lineno).comments.append(line[i + 1 :])
                break
            elif ch == '"':  # a string in section data (table rows): ';' and '{' inside are text
                m = _STRING.match(line, i)
                end = m.end() if m else n
                data.append(line[i:end])
                i = end
            elif ch == "[":
                m = _TAG.match(line, i)
                if m is None:
                    if "]" not in line[i:] and len(line) - i < 1024:
                        # PBN 3.3: in import format a tag pair may span lines
                        pending, pending_line = line[i:], joined_from or lineno
                        break
                    record(lineno).defects.append(f"line {lineno}: malformed tag pair {line[i:].strip()!r}")
                    break
                rec = record(lineno)
                rec.tags.append((m.group(1), _unescape(m.group(2))))
                rec.data.append([])
                i = m.end()
            else:
                data.append(ch)
                i += 1
        chunk = "".join(data).strip()
        if chunk:
            rec = record(lineno)
            if not rec.tags:
                rec.defects.append(f"line {lineno}: data before any tag: {chunk[:40]!r}")
            else:
                rec.data[-1].append(chunk)
    if pending:
        record(pending_line).defects.append(f"line {pending_line}: malformed tag pair {pending.strip()!r}")
    if in_comment is not None:
        target = current if current is not None else (records[-1] if records else None)
        if target is not None:
            target.defects.append(f"line {comment_line}: comment '{{' is never closed")
    return records, header
