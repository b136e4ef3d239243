"""Folders the program makes: a file in the way is said as no folder, not as a file that exists."""

from __future__ import annotations

from pathlib import Path

import pytest

from worker.core.catalogue import file_error_line
from worker.core.folders import make_folder


def test_a_missing_folder_and_its_parents_are_made_and_an_existing_one_is_left(tmp_path: Path) -> None:
    folder = tmp_path / "a" / "b"
    make_folder(folder)
    make_folder(folder)
    assert folder.is_dir()


@pytest.mark.parametrize(("language", "said"), [("nl", "een deel van het pad is geen map"), ("en", "not a directory")])
def test_a_file_where_the_folder_belongs_is_said_to_be_no_folder(tmp_path: Path, language: str, said: str) -> None:
    (tmp_path / "runs").write_text("")
    for folder in (tmp_path / "runs", tmp_path / "runs" / "today"):  # the folder itself, or a parent of it
        with pytest.raises(NotADirectoryError) as raised:
            make_folder(folder)
        word = "bestand" if language == "nl" else "file"
        assert file_error_line(raised.value, language) == f"{word} {folder}: {said}"
