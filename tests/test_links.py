"""No dead pointers: every link in the notebooks, README and docs leads somewhere, and every unit
they name exists.

The rules, checked on every notebook (walkthroughs and exercises, all cells), README.md and docs/*.md:

- **Markdown links** ``[text](target)`` (and images ``![alt](target)``) with a relative target must
  name an existing file or folder. A notebook's link is resolved where the student opens it, in the
  student tree (``tensorlab student-tree``): walkthroughs at the root (``04-broadcasting.ipynb``),
  released exercises at ``exercises/NN-topic/<notebook>.ipynb``. README and docs links are resolved
  next to the file in the repository. ``http(s):``/``mailto:`` targets and ``#anchors`` are not
  followed; a ``#fragment`` after a path is ignored.
- **Unit pointers**: ``unit NN`` (also ``units NN``, ``Unit: NN``) and a unit's slug ``NN-topic``.
  A unit exists when its walkthrough ``notebooks/NN-*.ipynb`` does; a slug must be spelled exactly
  as a walkthrough (``notebooks/NN-topic.ipynb``) or an exercise (``exercises/NN-topic/``) is.
  A pointer to a unit that does not exist yet passes only when ``(coming)`` follows it in the
  same sentence, e.g. "unit 12 · modules and losses (coming)": the reader is told it is future.
- **Navigation**: every numbered walkthrough links to the previous and the next existing unit,
  and to its released exercise when the unit has one.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

import nbformat
import pytest

from autograder.student_tree import planned_files

REPO_ROOT = Path(__file__).resolve().parent.parent
TREE = {path: source for path, source in planned_files(REPO_ROOT).items() if path.endswith(".ipynb")}  # every notebook a student gets
WALKTHROUGHS = sorted(path for path in TREE if "/" not in path and re.match(r"\d\d-", path))
EXISTING_UNITS = {int(path[:2]) for path in WALKTHROUGHS}
SLUGS = {path.removesuffix(".ipynb") for path in WALKTHROUGHS} | {
    path.name for path in (REPO_ROOT / "exercises").iterdir() if path.is_dir()
}

LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
UNIT_NUMBER = re.compile(r"\bunits?\s*:?\s+(\d{1,2})\b", re.IGNORECASE)
UNIT_SLUG = re.compile(r"(?<![\w/.-])(\d\d)-[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*")
FUTURE = "(coming)"


def documents() -> dict[str, tuple[str, str | None]]:
    """Name -> (text, its path in the student tree, or None when it is read in the repository)."""
    found: dict[str, tuple[str, str | None]] = {}
    for tree_path, source in TREE.items():
        notebook = nbformat.read(str(source), as_version=4)
        found[str(source.relative_to(REPO_ROOT))] = ("\n".join(cell.source for cell in notebook.cells), tree_path)
    for path in [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]:
        found[str(path.relative_to(REPO_ROOT))] = (path.read_text(encoding="utf-8"), None)
    return found


DOCUMENTS = documents()


def link_exists(name: str, tree_path: str | None, target: str) -> bool:
    if tree_path is None:  # README or docs: next to the file in the repository
        return ((REPO_ROOT / name).parent / target).exists()
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(tree_path), target))
    return resolved in TREE or any(path.startswith(resolved + "/") for path in TREE)


def relative_links(text: str) -> list[str]:
    targets = [match.group(1).split("#")[0] for match in LINK.finditer(text)]
    return [target for target in targets if target and not re.match(r"[a-z][a-z0-9+.-]*:", target)]


def rest_of_sentence(text: str, end: int) -> str:
    stops = [position for position in (text.find(". ", end), text.find("\n", end)) if position != -1]
    return text[end:min(stops, default=len(text))]


def dead_unit_pointers(text: str) -> list[str]:
    dead = []
    for match in UNIT_NUMBER.finditer(text):
        if int(match.group(1)) not in EXISTING_UNITS and FUTURE not in rest_of_sentence(text, match.end()):
            dead.append(match.group(0))
    for match in UNIT_SLUG.finditer(text):
        if match.group(0) not in SLUGS and FUTURE not in rest_of_sentence(text, match.end()):
            dead.append(match.group(0))
    return dead


def test_the_rules_see_what_they_are_meant_to_see() -> None:
    """The patterns themselves, on sentences like the ones that were dead, so a pattern that matches nothing fails."""
    assert dead_unit_pointers("Start with `19-no-such-unit`.") == ["19-no-such-unit"]
    assert dead_unit_pointers("The notes (unit 38 goes deeper). Next unit: 39 · beyond.") == ["unit 38", "unit: 39"]
    assert dead_unit_pointers("Hooks come in unit 12 · modules and losses (coming). Then unit 38.") == ["unit 38"]
    assert dead_unit_pointers("See unit 04 and `exercises/08-gather-scatter/`, not 04-broadcast.") == ["04-broadcast"]
    assert relative_links("[a](b.ipynb#top) [c](https://x.org) [d](#e) ![f](img/g.png)") == ["b.ipynb", "img/g.png"]
    assert EXISTING_UNITS and SLUGS >= {"04-broadcasting", "08-gather-scatter"}


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_relative_link_resolves(name: str) -> None:
    text, tree_path = DOCUMENTS[name]
    dead = [target for target in relative_links(text) if not link_exists(name, tree_path, target)]
    where = f"student tree path {tree_path}" if tree_path else "the repository"
    assert not dead, f"{name}: links to missing files (resolved in {where}): {dead}"


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_unit_named_exists_or_is_marked_coming(name: str) -> None:
    dead = dead_unit_pointers(DOCUMENTS[name][0])
    assert not dead, f"{name}: names units that do not exist yet, without '{FUTURE}': {dead}"


@pytest.mark.parametrize("walkthrough", WALKTHROUGHS)
def test_walkthrough_links_its_neighbours_and_its_exercise(walkthrough: str) -> None:
    text = DOCUMENTS[str(TREE[walkthrough].relative_to(REPO_ROOT))][0]
    position = WALKTHROUGHS.index(walkthrough)
    expected = set(WALKTHROUGHS[max(position - 1, 0):position + 2]) - {walkthrough}
    expected |= {path for path in TREE if path.startswith(f"exercises/{walkthrough.removesuffix('.ipynb')}/")}
    missing = expected - set(relative_links(text))
    assert not missing, f"{walkthrough} does not link to {sorted(missing)}"
