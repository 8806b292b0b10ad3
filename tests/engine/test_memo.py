"""The engine's per-process memos stay bounded and give every caller the entry kept."""

from rules import legality, tiles
from rules.memo import Memo
from rules.tiles import Tile


def test_a_memo_never_holds_more_than_its_limit() -> None:
    memo: Memo[int, str] = Memo(3)
    for n in range(10):
        assert memo.keep(n, str(n)) == str(n)
        assert 1 <= len(memo) <= 3
    assert memo.get(9) == "9"


def test_the_first_entry_kept_wins() -> None:
    memo: Memo[str, list[int]] = Memo(10)
    first = memo.keep("a", [1])
    assert memo.keep("a", [2]) is first


def test_the_engines_tables_stay_within_their_limits() -> None:
    assert isinstance(tiles._PARSED, Memo) and Tile.parse("06-4") is Tile.parse("06-4") == Tile.of(6, 4)
    for n in range(legality.CACHE_LIMIT + 50):
        legality.actions(f"P{n}")
    assert len(legality._ACTIONS) <= legality.CACHE_LIMIT
    assert legality.actions("Ann") is legality.actions("Ann")
