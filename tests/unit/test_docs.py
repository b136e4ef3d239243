"""The README stays a page, and what it points to exists (mkdocs build --strict checks the pages in docs/)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
RELATIVE_LINK = re.compile(r"\]\((?!https?://|#|mailto:)([^)#\s]+)(?:#[^)]*)?\)")


def test_the_readme_fits_on_a_page() -> None:
    assert len(README.splitlines()) <= 300


def test_every_relative_link_of_the_readme_leads_to_a_file_that_exists() -> None:
    links = RELATIVE_LINK.findall(README)
    assert links, "the README points to the docs"
    assert [link for link in links if not (REPO / link).is_file()] == []
