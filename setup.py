"""Build of the compiled parts: the C double-dummy search
(``trumps.solver._dd``) and the engines compiled by mypyc.

Everything else about the package lives in pyproject.toml; this file only
declares the extensions.  The choices that matter to people who install
trumps:

* Both are optional.  Where there is no C compiler (or it fails), the
  install still succeeds: ``trumps.solver`` answers with its pure-Python
  search (``trumps.solver.reference``), and the engines run as the plain
  Python they are written in.  ``TRUMPS_PURE_BUILD=1`` skips the compiled
  engines on purpose; ``TRUMPS_PURE=1`` at run time loads the Python
  sources even where the compiled modules are installed (the differential
  test compares the two: ``tests/core/test_compiled.py``).
* The engines are compiled from the same Python sources by mypyc, so the
  pure-Python path is their specification by construction; they are built
  as one group, ``trumps._compiled__mypyc``, inside the package.
* The C search is compiled for the generic baseline of the target (no
  ``-march=native``), so a wheel built on one machine runs on any other of
  its architecture.  The BMI2 bit-extract instructions the transposition
  table wants are used through a second copy of the search compiled for them
  and chosen at import by CPU detection (``_dd.c``, ``_dd_search.h``).
"""

from __future__ import annotations

import os
import sys
import tempfile

from setuptools import Extension, setup

# The modules on the path of every action of every game: the protocol and
# the trick play they share, then each game's deal, auction, card play,
# match and the scoring at the end of each deal.  Everything else (views,
# options, parsing) stays Python.
ENGINE_MODULES = [
    "src/trumps/core/cards.py",
    "src/trumps/core/copying.py",
    "src/trumps/core/protocol.py",
    "src/trumps/core/shuffle.py",
    "src/trumps/core/trick.py",
    "src/trumps/core/view.py",
    "src/trumps/bridge/auction.py",
    "src/trumps/bridge/deal.py",
    "src/trumps/bridge/game.py",
    "src/trumps/bridge/play.py",
    "src/trumps/bridge/scoring.py",
    "src/trumps/bridge/view.py",
    "src/trumps/five_hundred/auction.py",
    "src/trumps/five_hundred/deal.py",
    "src/trumps/five_hundred/game.py",
    "src/trumps/five_hundred/play.py",
    "src/trumps/five_hundred/scoring.py",
    "src/trumps/five_hundred/view.py",
    "src/trumps/coinche/auction.py",
    "src/trumps/coinche/deal.py",
    "src/trumps/coinche/game.py",
    "src/trumps/coinche/play.py",
    "src/trumps/coinche/scoring.py",
    "src/trumps/coinche/view.py",
]

# The reinforcement-learning environments' step below their APIs: the
# observation tracker and the legal actions, indices and mask (the
# PettingZoo and gymnasium classes stay Python: a compiled class cannot
# subclass them).  They import numpy, which is not in the build
# environment: to mypyc it is Any, and these modules are only imported with
# the 'rl' or 'openspiel' extra installed.
ENV_MODULES = [
    "src/trumps/envs/tracking.py",
    "src/trumps/envs/_step.py",
]
COMPILED_MODULES = ENGINE_MODULES + ENV_MODULES


def _compiler_works() -> bool:
    """Whether a C compiler builds a trivial extension here: mypyc's group is
    all or nothing, so it is only attempted where it can succeed."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler, get_python_inc

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "probe.c")
        with open(source, "w") as f:
            f.write("#include <Python.h>\nint probe(void) { return 0; }\n")
        try:
            compiler.compile([source], output_dir=tmp, include_dirs=[get_python_inc()])
        except Exception:
            return False
    return True


def compiled_engines() -> list[Extension]:
    if os.environ.get("TRUMPS_PURE_BUILD"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("trumps: mypyc is not installed; the engines stay pure Python", file=sys.stderr)
        return []
    if not _compiler_works():
        print("trumps: no working C compiler; the engines stay pure Python", file=sys.stderr)
        return []
    try:
        # the optional parts' libraries (endplay, numpy...) are not in the build
        # environment: what the engines import from them is typed Any here
        args = ["--ignore-missing-imports", *COMPILED_MODULES]
        built = list(mypycify(args, opt_level="3", separate=[(COMPILED_MODULES, "trumps._compiled")]))
    except BaseException as exc:  # mypyc exits on a type error (another mypy version): stay pure
        if isinstance(exc, KeyboardInterrupt):
            raise
        print(f"trumps: mypyc failed ({exc!r}); the engines stay pure Python", file=sys.stderr)
        return []
    for ext in built:
        # a compiler error skips the module instead of failing the install; a
        # module whose group did not build is then ignored (trumps/_pure.py)
        ext.optional = True
    return built


setup(
    ext_modules=[
        Extension(
            "trumps.solver._dd",
            sources=["src/trumps/solver/_dd.c"],
            depends=["src/trumps/solver/_dd_search.h"],
            extra_compile_args=["-O3", "-std=c11", "-Wall"],
            optional=True,
        ),
        Extension(
            "trumps.core._seeded",
            sources=["src/trumps/core/_seeded.c"],
            extra_compile_args=["-O3", "-std=c11", "-Wall"],
            optional=True,
        ),
        *compiled_engines(),
    ],
)
