"""Helpers of the reference tests: the languages, every page, and a tiny DOM (parse a page,
find elements, read their text)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.conf import settings
from django.utils.translation import get_language_info

LANGUAGES = tuple(code for code, _ in settings.LANGUAGES)
RTL = {code for code in LANGUAGES if get_language_info(code)["bidi"]}


def reference_pages() -> list[str]:
    """Every reference page, without the language prefix."""
    from mextrain_site.reference.sources import sources
    from variants.loader import option_ids

    pages = ["variants/", "compare/", "compare/?v=howto&v=masters+mandatory-doubles&diff=1",
             "which/", "which/?key=doubles.follow_up", "sources/", "reasons/"]
    pages += [f"variants/{i}/" for i in option_ids()]
    pages += [f"variants/{i}/sheet/" for i in option_ids()]
    pages += [f"sources/{seed}/" for seed in sources()]
    return pages

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)
    parent: Node | None = None

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    @property
    def elements(self) -> list[Node]:
        """The child elements (not descendants)."""
        return [c for c in self.children if isinstance(c, Node)]

    def iter(self) -> Iterator[Node]:
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        return [
            n for n in self.iter()
            if (tag is None or n.tag == tag)
            and (cls is None or cls in n.classes)
            and all(n.attrs.get(k.rstrip("_")) == v for k, v in attrs.items())
        ]

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Node | None:
        found = self.find_all(tag, cls, **attrs)
        return found[0] if found else None

    def by_id(self, ident: str) -> Node | None:
        return next((n for n in self.iter() if n.attrs.get("id") == ident), None)

    def ancestors(self) -> Iterator[Node]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.current = self.root
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.current)
        if "id" in node.attrs:
            self.ids.append(node.attrs["id"])
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is None or node.parent is None:
            return  # a stray end tag: ignored, as a browser would
        self.current = node.parent  # closes any element left open inside, as a browser would

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(html: bytes | str) -> Node:
    """Parse a page (leniently, like a browser); fails on duplicate ids."""
    builder = _Builder()
    builder.feed(html.decode("utf-8") if isinstance(html, bytes) else html)
    builder.close()
    dupes = {i for i, n in Counter(builder.ids).items() if n > 1}
    assert not dupes, f"duplicate ids: {sorted(dupes)[:5]}"
    return builder.root
