"""Build of the C double-dummy search (``trumps.solver._dd``).

Everything else about the package lives in pyproject.toml; this file only
declares the extension.  Two choices matter to people who install trumps:

* The extension is optional.  Where there is no C compiler (or it fails),
  the install still succeeds without it and ``trumps.solver`` answers with
  its pure-Python search (``trumps.solver.reference``), slower but exact.
* It is compiled for the generic baseline of the target (no
  ``-march=native``), so a wheel built on one machine runs on any other of
  its architecture.  The BMI2 bit-extract instructions the transposition
  table wants are used through a second copy of the search compiled for them
  and chosen at import by CPU detection (``_dd.c``, ``_dd_search.h``).
"""

from __future__ import annotations

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "trumps.solver._dd",
            sources=["src/trumps/solver/_dd.c"],
            depends=["src/trumps/solver/_dd_search.h"],
            extra_compile_args=["-O3", "-std=c11", "-Wall"],
            optional=True,
        )
    ],
)
