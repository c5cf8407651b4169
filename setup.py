"""Build of the C double-dummy search (``trumps.solver._dd``).

Everything else about the package lives in pyproject.toml; this file only
declares the extension, compiled with the machine's C compiler at -O3.
``-march=native`` (for the bit-extract instruction the transposition table
uses) is tried first and dropped if the compiler refuses it.
"""

from __future__ import annotations

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

BASE_FLAGS = ["-O3", "-std=c11", "-Wall"]


class BuildExt(build_ext):
    """Add -march=native when the compiler accepts it."""

    def build_extensions(self) -> None:
        native = ["-march=native"] if self._accepts("-march=native") else []
        for ext in self.extensions:
            ext.extra_compile_args = BASE_FLAGS + native
        super().build_extensions()

    def _accepts(self, flag: str) -> bool:
        import os
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "probe.c")
            with open(src, "w") as fh:
                fh.write("int main(void) { return 0; }\n")
            try:
                self.compiler.compile([src], output_dir=tmp, extra_postargs=[flag])
            except Exception:
                return False
        return True


setup(
    ext_modules=[Extension("trumps.solver._dd", sources=["src/trumps/solver/_dd.c"])],
    cmdclass={"build_ext": BuildExt},
)
