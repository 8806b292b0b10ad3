"""The statistics' self-play compiled with mypyc (scripts/build_native.py) plays the same games as
its Python source, and runs whenever it is built; without a build the sources run."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import rules
from rules import fastplay, statistics
from rules.ruleset import Ruleset
from rules.strategies import Strategy
from scripts import build_native
from variants.loader import all_rulesets, get_ruleset

ROOT = Path(build_native.ROOT)


def _pure_modules() -> dict[str, ModuleType]:
    """The compiled modules loaded again from their ``.py`` files, calling one another (the rest
    of the engine is shared); the package and sys.modules are left as they were."""
    saved = {name: sys.modules[name] for name in build_native.NAMES}
    pure: dict[str, ModuleType] = {}
    try:
        for name in ("rules.randoms", "rules.laying", "rules.strategies", "rules.fastplay", "rules.playout"):  # each after its imports
            spec = importlib.util.spec_from_file_location(name, ROOT / (name.replace(".", "/") + ".py"))
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            setattr(rules, name.split(".")[1], module)  # "from . import fastplay" reads the package
            spec.loader.exec_module(module)
            pure[name] = module
    finally:
        for name, module in saved.items():
            sys.modules[name] = module
            setattr(rules, name.split(".")[1], module)
    return pure


@pytest.fixture(scope="module")
def pure() -> dict[str, ModuleType]:
    return _pure_modules()


@pytest.fixture
def played_pure(pure: dict[str, ModuleType], monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """statistics.play_chunk playing every round on the pure modules (its seats named by value)."""
    play_round, strategy = pure["rules.playout"].play_round, pure["rules.strategies"].Strategy

    def on_source(ruleset: Ruleset, names: tuple[str, ...], round_no: int, rng: object, set_max: int,
                  seats: tuple[Strategy, ...]) -> object:
        return play_round(ruleset, names, round_no, rng, set_max, tuple(strategy(s.value) for s in seats))

    monkeypatch.setattr(statistics, "play_round", on_source)
    yield


def test_the_pure_modules_are_their_sources(pure: dict[str, ModuleType]) -> None:
    for name, module in pure.items():
        assert module.__file__ == str(ROOT / (name.replace(".", "/") + ".py")) and module is not sys.modules[name]
    assert not pure["rules.fastplay"].COMPILED
    assert pure["rules.playout"].fastplay is pure["rules.fastplay"]
    assert pure["rules.fastplay"].lay_tiles is pure["rules.laying"].lay_tiles


def test_the_compiled_modules_run_when_built() -> None:
    """A build present (make native) is the code that runs; none, the sources run."""
    built = bool(build_native.extensions())
    assert not build_native.stale()  # tests/conftest.py removed stale ones
    assert fastplay.COMPILED is built
    for name in build_native.NAMES:
        path = sys.modules[name].__file__
        assert path is not None and path.endswith(".py") is not built, (name, path)


@pytest.mark.parametrize("ruleset", [rs.id for rs in all_rulesets()])
def test_the_compiled_modules_play_the_same_games_as_their_sources(ruleset: str, request: pytest.FixtureRequest) -> None:
    rs = get_ruleset(ruleset)
    players = statistics.allowed_players(rs)[0]
    games = 2 * len(statistics.tables(rs, players))  # every table, the strategic player in two seats
    native = statistics.play_chunk(rs, players, 26, 0, games)
    request.getfixturevalue("played_pure")
    source = statistics.play_chunk(rs, players, 26, 0, games)
    assert source == native and native.rounds >= games


@pytest.mark.slow
def test_a_build_in_a_fresh_tree_compiles_and_is_imported(tmp_path: Path) -> None:
    """scripts/build_native.py on a copy of the engine: the extensions are built and imported, and
    play a chunk of the job as the sources do; no compiler, no extension and the sources run."""
    (tmp_path / "rules").mkdir()
    for source in (ROOT / "rules").glob("*.py"):
        (tmp_path / "rules" / source.name).write_bytes(source.read_bytes())
    assert build_native.build(tmp_path)
    assert build_native.extensions(tmp_path) and not build_native.stale(tmp_path)
    probe = ("import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]; from rules import fastplay, statistics; "
             "from variants.loader import get_ruleset; "
             "print(fastplay.COMPILED, fastplay.__file__.startswith(sys.argv[1]), "
             "statistics.play_chunk(get_ruleset('cardinal'), 4, 26, 0, 4).to_json())")
    compiled = subprocess.run([sys.executable, "-c", probe, str(tmp_path), str(ROOT)], capture_output=True,
                              text=True, check=True).stdout
    assert compiled.startswith("True True ")
    (tmp_path / "rules" / "laying.py").write_bytes((ROOT / "rules" / "laying.py").read_bytes() + b"\n")
    assert build_native.stale(tmp_path)
    build_native.clean(tmp_path)
    assert not build_native.extensions(tmp_path) and not (tmp_path / "build" / "native").exists()
    source = subprocess.run([sys.executable, "-c", probe, str(tmp_path), str(ROOT)], capture_output=True,
                            text=True, check=True).stdout
    assert source.startswith("False True ") and source.split(" ", 2)[2] == compiled.split(" ", 2)[2]


def test_without_a_compiler_the_build_leaves_the_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "fastplay.cpython-311-x86_64-linux-gnu.so").write_bytes(b"an old build")
    monkeypatch.setattr(build_native, "compiler", lambda: None)
    assert not build_native.build(tmp_path)
    assert not build_native.extensions(tmp_path)
