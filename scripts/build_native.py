"""Compile the statistics' self-play with mypyc, in place: ``python scripts/build_native.py``.

A statistics job plays whole games on :mod:`rules.fastplay`: the deal's shuffle and the random
choice (:mod:`rules.randoms`), the tiles laid (:mod:`rules.laying`), the strategies
(:mod:`rules.strategies`) and the loop of a round (:mod:`rules.playout`). Compiled to C extensions
by mypyc (it ships with mypy), the same code plays the same games in well under half the time.
The extensions are written beside the sources (``rules/fastplay.cpython-311-...so``, and mypyc's
shared library at the top), where Python imports them before the ``.py`` files.

Nothing else depends on it: without a C compiler (or if the build fails) it says so, leaves no
extension behind and exits 0, and the pure-Python modules run (``rules.fastplay.COMPILED`` tells
which). ``make native`` runs it when a source under ``rules/`` changed (``make setup`` does), and
``--clean`` (``make clean``) removes what it built. The digest of every ``rules/*.py`` as built is
kept in ``rules/.native``: extensions built from other sources are stale (:func:`stale`), and the
test suite removes them before it imports the engine (tests/conftest.py).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import sys
import sysconfig
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = ("rules/randoms.py", "rules/laying.py", "rules/fastplay.py", "rules/strategies.py", "rules/playout.py")
"""The sources compiled, as one group (they call each other at C speed)."""
GROUP = "mextrain_native"
"""The name of mypyc's shared library (``mextrain_native__mypyc...so``, at the top of the tree)."""
NAMES = tuple(m.removesuffix(".py").replace("/", ".") for m in MODULES)
"""The compiled modules' names (``rules.fastplay`` ...)."""


def digest(root: Path = ROOT) -> str:
    """One digest of every source of the engine (compiled code assumes the types of what it imports)."""
    h = hashlib.sha256()
    for path in sorted((root / "rules").glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _stamp(root: Path) -> Path:
    return root / "rules" / ".native"


def extensions(root: Path = ROOT) -> list[Path]:
    """The extension files of the build in the source tree."""
    return sorted(root.glob(f"{GROUP}__mypyc*")) + sorted((root / "rules").glob("*.so"))


def stale(root: Path = ROOT) -> bool:
    """Extensions are there, but not built from today's sources."""
    if not extensions(root):
        return False
    stamp = _stamp(root)
    return not stamp.exists() or stamp.read_text(encoding="utf-8").strip() != digest(root)


def clean(root: Path = ROOT) -> None:
    for path in extensions(root):
        path.unlink()
    _stamp(root).unlink(missing_ok=True)
    shutil.rmtree(root / "build" / "native", ignore_errors=True)


def compiler() -> str | None:
    """The C compiler Python's own build used, if it is on this machine."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    return shutil.which(cc[0]) if cc else None


def build(root: Path = ROOT) -> bool:
    """Compile :data:`MODULES` of the tree at ``root`` in place; False (and no extension left) if
    it could not."""
    clean(root)
    if compiler() is None:
        print("native build skipped: no C compiler; the pure-Python modules are used", file=sys.stderr)
        return False
    source = digest(root)
    work = root / "build" / "native"
    here = os.getcwd()
    os.chdir(root)  # mypyc names the modules by their paths from here
    try:
        from mypyc.build import mypycify
        from setuptools import setup

        warnings.filterwarnings("ignore", message=r"Support for `\[tool.setuptools\]`")  # the project's own table

        compiled = mypycify(list(MODULES), opt_level="3", group_name=GROUP, target_dir=str(work / "c"))
        setup(name=GROUP, ext_modules=compiled, script_args=[
            "-q", "build_ext", "--inplace", "--build-temp", str(work / "temp"), "--build-lib", str(work / "lib")])
    except (Exception, SystemExit) as error:  # no headers, a failed compile, a type error: fall back
        clean(root)
        print(f"native build failed, the pure-Python modules are used: {error}", file=sys.stderr)
        return False
    finally:
        os.chdir(here)
    _stamp(root).write_text(source + "\n", encoding="utf-8")
    return True


def main() -> None:
    parser = argparse.ArgumentParser(prog="python scripts/build_native.py",
                                     description="Compile the statistics' self-play with mypyc, in place.")
    parser.add_argument("--clean", action="store_true", help="remove the extensions and the build directory")
    args = parser.parse_args()
    if args.clean:
        clean()
    elif build():
        print("compiled with mypyc: " + ", ".join(MODULES))


if __name__ == "__main__":
    main()
