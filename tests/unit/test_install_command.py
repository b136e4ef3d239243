"""How the optional semantic extra is added to this installation, as doctor and `taak archief vectoren` say it."""

from __future__ import annotations

from pathlib import Path


def test_the_command_that_adds_an_extra_names_this_interpreter_and_this_installation() -> None:
    """Doctor said `pip install 'taak-worker[semantic]'`: a name on no index the owner's machine reaches for a
    clone installed with `pip install -e .`, and a bare `pip` that may be another environment's."""
    import shlex
    import sys

    from worker.memory.semantic import install_command

    words = shlex.split(install_command())
    assert words[:4] == [sys.executable, "-m", "pip", "install"]
    if words[4] == "-e":  # this checkout, installed as the README says
        assert (Path(words[5].removesuffix("[semantic]")) / "pyproject.toml").is_file()
        assert words[5].endswith("[semantic]")
    else:
        assert words[4:] == ["taak-worker[semantic]"]
