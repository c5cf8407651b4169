"""Keep trumps' translation catalogues up to date (docs/translating.md).

    python scripts/i18n.py extract   # the template src/trumps/locale/trumps.pot from the code
    python scripts/i18n.py update    # each language's .po gets the new messages, loses the gone ones
    python scripts/i18n.py compile   # .po -> .mo (shipped in the wheel)
    python scripts/i18n.py check     # exit 1 when anything is stale, missing or broken
    python scripts/i18n.py all       # extract, update, compile
    python scripts/i18n.py init xx   # start a new language's catalogue
    python scripts/i18n.py todo xx out.json      # the untranslated messages, as JSON for a translator
    python scripts/i18n.py merge xx in.json      # translations from such a JSON file into the .po

The same extraction as ``pybabel extract -F babel.cfg`` (this package's
extractors are Babel entry points), done through Babel's API so the tests
can run it.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

from trumps.i18n import DEFAULT, DOMAIN, LANGUAGES, LOCALE_DIR, placeholders
from trumps.i18n.extract import JS_KEYWORDS, METHOD_MAP

PKG = LOCALE_DIR.parent
POT = LOCALE_DIR / f"{DOMAIN}.pot"


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract() -> Catalog:
    """Every message of the code as a template catalogue."""
    cat = Catalog(
        project="trumps",
        version="",
        msgid_bugs_address="",
        copyright_holder="trumps developers",
        charset="utf-8",
        fuzzy=False,
    )
    keywords = {**DEFAULT_KEYWORDS, **JS_KEYWORDS}
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PKG), METHOD_MAP, {}, keywords=keywords, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
    ):
        cat.add(message, None, [(f"src/trumps/{filename}", lineno)], auto_comments=comments, context=context)
    return cat


def _bytes(cat: Catalog, **kw: object) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, omit_header=False, **kw)  # type: ignore[arg-type]
    return buf.getvalue()


def _stable(data: bytes) -> bytes:
    """A .po/.pot without the lines that change on every run (dates)."""
    return b"\n".join(
        line
        for line in data.splitlines()
        if not line.startswith((b'"POT-Creation-Date', b'"PO-Revision-Date'))
    )


def write_if_changed(path: Path, data: bytes) -> bool:
    if path.exists() and _stable(path.read_bytes()) == _stable(data):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def cmd_extract() -> Catalog:
    cat = extract()
    if write_if_changed(POT, _bytes(cat, sort_by_file=False, no_location=False)):
        print(f"wrote {POT.relative_to(PKG.parent.parent)} ({len(cat)} messages)")
    return cat


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def cmd_update(template: Catalog | None = None) -> None:
    template = template or read(POT)
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        path = po_path(lang)
        cat = read(path, lang) if path.exists() else Catalog(locale=lang, project="trumps", fuzzy=False)
        cat.update(template, no_fuzzy_matching=True)
        cat.obsolete.clear()
        cat.fuzzy = False
        if write_if_changed(path, _bytes(cat)):
            missing = sum(1 for m in cat if m.id and not _done(m))
            print(f"wrote {path.relative_to(PKG.parent.parent)} ({missing} to translate)")


def _done(m: object) -> bool:
    s = m.string  # type: ignore[attr-defined]
    return (all(s) if isinstance(s, (list, tuple)) else bool(s)) and not m.fuzzy  # type: ignore[attr-defined]


def mo_bytes(lang: str) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, read(po_path(lang), lang), use_fuzzy=False)
    return buf.getvalue()


def mo_content(data: bytes) -> tuple[str, list[tuple[str, str, str]]]:
    """What a compiled catalogue says: its plural rule and every message.

    Compared instead of the bytes, which also hold the Babel version that
    wrote them ("Generated-By"): a .mo is stale when its messages are, not
    when another Babel would write its header differently."""
    cat = read_mo(io.BytesIO(data))
    messages = sorted((repr(m.context), repr(m.id), repr(m.string)) for m in cat if m.id and not m.fuzzy)
    return cat.plural_forms, messages


def mo_is_current(path: Path, lang: str) -> bool:
    return path.exists() and mo_content(path.read_bytes()) == mo_content(mo_bytes(lang))


def cmd_compile() -> None:
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        path = po_path(lang).with_suffix(".mo")
        data = mo_bytes(lang)
        if not mo_is_current(path, lang):
            path.write_bytes(data)
            print(f"wrote {path.relative_to(PKG.parent.parent)}")


def problems() -> list[str]:
    """What is wrong with the catalogues: a stale template, untranslated or
    fuzzy messages, placeholders lost in translation, a stale .mo."""
    out: list[str] = []
    template = extract()
    ids = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template if m.id}
    if not POT.exists():
        return [f"{POT} is missing: run python scripts/i18n.py all"]
    stored = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in read(POT) if m.id}
    for msgid, ctx in sorted(ids - stored, key=str):
        out.append(f"trumps.pot lacks {msgid!r} (context {ctx!r}): run python scripts/i18n.py all")
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        Locale.parse(lang)
        path = po_path(lang)
        if not path.exists():
            out.append(f"{path} is missing")
            continue
        cat = read(path, lang)
        have = {(m.id if isinstance(m.id, str) else m.id[0], m.context): m for m in cat if m.id}
        for key in sorted(ids, key=str):
            m = have.get(key)
            if m is None:
                out.append(f"{lang}: {key[0]!r} is not in the catalogue")
            elif not _done(m):
                out.append(f"{lang}: {key[0]!r} is not translated")
            else:
                originals = [m.id] if isinstance(m.id, str) else list(m.id)
                strings = [m.string] if isinstance(m.string, str) else list(m.string)
                want = placeholders(originals[0]) | (
                    placeholders(originals[1]) if len(originals) > 1 else set()
                )
                for s in strings:
                    got = placeholders(s)
                    # a plural form may leave out {n} (German "einen Stich"); nothing else may go or appear
                    if got - want or (want - got) - {"n"}:
                        out.append(
                            f"{lang}: {key[0]!r}: placeholders {sorted(got)} in {s!r}, expected {sorted(want)}"
                        )
        mo = path.with_suffix(".mo")
        if not mo_is_current(mo, lang):
            out.append(f"{mo} is stale: run python scripts/i18n.py compile")
    return out


def main(argv: list[str]) -> int:
    cmd = argv[0] if argv else "check"
    if cmd == "extract":
        cmd_extract()
    elif cmd == "update":
        cmd_update()
    elif cmd == "compile":
        cmd_compile()
    elif cmd == "all":
        cmd_update(cmd_extract())
        cmd_compile()
    elif cmd == "init" and len(argv) == 2:
        lang = argv[1]
        Locale.parse(lang)
        cat = Catalog(locale=lang, project="trumps", fuzzy=False)
        cat.update(read(POT), no_fuzzy_matching=True)
        write_if_changed(po_path(lang), _bytes(cat))
        print(f"wrote {po_path(lang)}: translate it, add {lang!r} to trumps.i18n.LANGUAGES, run all")
    elif cmd == "todo" and len(argv) == 3:
        cat = read(po_path(argv[1]), argv[1])
        todo = []
        for m in cat:
            if m.id and not _done(m):
                entry: dict[str, object] = {"msgid": m.id if isinstance(m.id, str) else m.id[0]}
                if not isinstance(m.id, str):
                    entry["plural"] = m.id[1]
                if m.context:
                    entry["context"] = m.context
                entry["where"] = [f"{f}:{n}" for f, n in m.locations][:3] + list(m.auto_comments)[:1]
                entry["translation"] = "" if isinstance(m.id, str) else ["", ""]
                todo.append(entry)
        Path(argv[2]).write_text(json.dumps(todo, ensure_ascii=False, indent=1))
        print(f"{len(todo)} messages to translate in {argv[2]}")
    elif cmd == "merge" and len(argv) == 3:
        lang = argv[1]
        cat = read(po_path(lang), lang)
        done = 0
        for entry in json.loads(Path(argv[2]).read_text()):
            msgid = entry["msgid"]
            key = (msgid, entry["plural"]) if entry.get("plural") else msgid
            m = cat.get(key if isinstance(key, str) else key[0], context=entry.get("context"))
            text = entry.get("translation")
            if m is None or not text or (isinstance(text, list) and not all(text)):
                continue
            m.string = tuple(text) if isinstance(text, list) else text
            m.flags.discard("fuzzy")
            done += 1
        write_if_changed(po_path(lang), _bytes(cat))
        print(f"merged {done} translations into {po_path(lang)}")
    elif cmd == "check":
        found = problems()
        for p in found[:50]:
            print(p)
        if len(found) > 50:
            print(f"... and {len(found) - 50} more")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
