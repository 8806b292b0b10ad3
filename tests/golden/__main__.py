"""``python -m tests.golden`` (``make golden``): write every golden transcript afresh."""

from __future__ import annotations

from . import path, rulesets, transcript


def main() -> None:
    for ident in rulesets():
        text = transcript(ident)
        target = path(ident)
        old = target.read_text(encoding="utf-8") if target.exists() else ""
        target.write_text(text, encoding="utf-8")
        print(f"{target.name}: {text.count(chr(10))} lines{'' if old == text else ' (changed)'}")


if __name__ == "__main__":
    main()
