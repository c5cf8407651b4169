"""Bad arguments of the public API (``tests/data/bad_arguments.txt``) raise a
:class:`~trumps.core.errors.TrumpsError` (a ``ValueError``), the same class
with the engines compiled and as Python sources: a compiled function
refuses an argument of another type with a ``TypeError`` unless the public
function takes it as ``object`` and checks it, so the two builds disagreed
(found by a hostile review: ``view(1.5)`` was a ParseError in Python and a
TypeError compiled)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CASES = Path(__file__).resolve().parents[1] / "data" / "bad_arguments.txt"
LINES = [line for line in CASES.read_text().splitlines() if line.strip() and not line.startswith("#")]

PROBE = """
import json, sys
import trumps, trumps.bridge, trumps.coinche, trumps.five_hundred
from trumps.core.errors import TrumpsError

first = trumps.new_game("bridge", seed=1)
first.apply("1C")
r = first.to_json()
out = []
for line in json.loads(sys.argv[1]):
    g, f, c = (trumps.new_game(x, seed=2) for x in ("bridge", "500", "coinche"))
    before = [json.dumps(m.to_json(), sort_keys=True) for m in (g, f, c)]
    try:
        eval(line)
        out.append([line, None, False])
    except Exception as exc:
        after = [json.dumps(m.to_json(), sort_keys=True) for m in (g, f, c)]
        out.append([line, type(exc).__name__, isinstance(exc, TrumpsError) and after == before])
print(json.dumps(out))
"""


def _raised(pure: bool) -> list[list[object]]:
    env = dict(os.environ, TRUMPS_PURE="1" if pure else "0")
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(LINES)], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


@pytest.fixture(scope="module")
def both() -> tuple[list[list[object]], list[list[object]]]:
    return _raised(pure=False), _raised(pure=True)


def test_every_bad_argument_is_a_typed_error_that_changes_nothing(
    both: tuple[list[list[object]], list[list[object]]],
) -> None:
    for results in both:
        wrong = [(line, raised) for line, raised, typed in results if not typed]
        assert not wrong, wrong


def test_the_compiled_and_the_python_engines_raise_the_same_error(
    both: tuple[list[list[object]], list[list[object]]],
) -> None:
    compiled, pure = both
    assert [r[1] for r in compiled] == [r[1] for r in pure], [
        (a[0], a[1], b[1]) for a, b in zip(compiled, pure, strict=True) if a[1] != b[1]
    ]
    assert len(LINES) >= 40
