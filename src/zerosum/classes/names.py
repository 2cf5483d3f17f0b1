"""How a class tournament's players are named: each student's program is a course player
whose folder is DB.builds/KEY, and is shown by KEY (imported by the web page too, which
must not import the builders and markers)."""

from __future__ import annotations

from pathlib import Path

BUILDS = ".builds"  # DB.builds/: the submissions built, one folder each


def builds_folder(db: str) -> Path:
    return Path(db).resolve().parent / (Path(db).name + BUILDS)


def entrant_label(spec: str) -> str:
    """How an agent of a class tournament is shown: a student by the key of their folder,
    a reference player by its spec."""
    kind, comma, rest = spec.partition(",")
    settings = rest.partition(":")[0].split(",")
    folders = [s[len("dir="):] for s in settings if s.startswith("dir=")]
    if comma and kind.startswith("course:") and folders \
            and Path(folders[0]).parent.name.endswith(BUILDS):
        return Path(folders[0]).name
    return spec


def labelled(text: str, specs: tuple[str, ...] | list[str]) -> str:
    """`text` (a game's reason, a report) with each agent's spec in it as its label."""
    for spec in sorted(specs, key=len, reverse=True):  # a spec inside a longer one: last
        text = text.replace(spec, entrant_label(spec))
    return text
