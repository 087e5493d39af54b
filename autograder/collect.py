"""``zip-collect``: an LMS download becomes submissions, and nothing a student sent is ever lost.

An LMS's "download all submissions" zip names every file after the student in its own way:

    Canvas      smithjohn_1234_5678_broadcasting.ipynb        (``_late_`` after the name when late;
                smithjohn_1234_5679_broadcasting-1.ipynb       a resubmission gets ``-1``, ``-2``)
    Moodle      John Smith_12345_assignsubmission_file_/broadcasting.ipynb   (or without the ``/``)
    Blackboard  Broadcasting_jsmith_attempt_2026-12-01-10-30-00_broadcasting.ipynb  (+ a .txt receipt)
    plain       jsmith_broadcasting.ipynb
    yours       ``--pattern`` with the groups ``student`` and optionally ``file``, ``timestamp``

Each file's student is found in the roster (``roster.py``) by any of their spellings; without a
roster the name in the file is the student's id. The notebook's name is matched whatever its case
and a browser's ``(1)`` or Canvas's ``-1`` suffix (with ``--pattern``, any ``.ipynb`` it captures). Its time is the one in the name (Blackboard) or
the time the zip records for it (the LMS's submission time).

    DIR/downloaded/<assignment>/archives/<sha>-<name>.zip            every archive, kept once
    DIR/downloaded/<assignment>/submissions/<student>/<time>-<sha>.ipynb   every notebook, kept once
    DIR/downloaded/<assignment>/collected.json                       the ledger of both

An archive already collected is never extracted again, and no earlier file is cleared: a student's
newest submission (under ``refuse``, the newest in time, ``deadlines.py``) is copied to nbgrader's
``submitted/<student>/<assignment>/`` with its ``timestamp.txt`` only when it differs from what is
there. Every file that could not be attributed is listed, and makes the command's exit status non-zero.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import zipfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from .course import Course
from .deadlines import Deadline, load_deadlines, parse_time
from .exercise import ExerciseError
from .roster import Roster

__all__ = ["Collection", "collect_archive", "select_submissions", "submission_time"]

TIMESTAMP_FILE = "timestamp.txt"  # nbgrader's name for a submission's time
LMS_PATTERNS = {
    "blackboard": r"(?P<title>.+?)_(?P<student>[^_/]+)_attempt_(?P<timestamp>\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)(?:_(?P<file>.+)|\.txt)",
    "moodle": r"(?P<student>[^/_]+)_(?P<lms_id>\d+)_assignsubmission_[a-z]+_/?(?P<file>.+)",
    "canvas": r"(?P<student>[a-z0-9]+)_(?:late_)?(?P<lms_id>\d+)_\d+_(?P<file>.+)",
}
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]*")
RESUBMISSION = re.compile(r"(?:\s*\((?P<paren>\d+)\)|-(?P<dash>\d+))$")
IGNORED = ("__MACOSX/", ".DS_Store", "Thumbs.db")


@dataclass(frozen=True)
class Found:
    """What a member's name says: who sent it, which file it was, when, and its resubmission number."""

    names: tuple[str, ...]
    file: str | None
    timestamp: datetime | None = None


@dataclass
class Collection:
    """What one zip-collect did, for the summary line and the exit status."""

    assignment: str
    archive: str
    already_collected: bool = False
    kept: list[tuple[str, str]] = field(default_factory=list)        # (student, member) newly kept
    duplicates: list[tuple[str, str]] = field(default_factory=list)  # identical to a file already kept
    receipts: list[str] = field(default_factory=list)                # an LMS's own files (Blackboard .txt)
    skipped: list[tuple[str, str]] = field(default_factory=list)     # (member, why)
    counted: list[str] = field(default_factory=list)                 # students whose counted notebook changed

    def summary(self) -> str:
        if self.already_collected:
            head = f"{self.archive}: already collected for {self.assignment}, nothing new"
        else:
            head = (f"{self.archive}: {len(self.kept)} notebooks kept for {self.assignment}"
                    f" ({len(self.duplicates)} identical to ones already kept, {len(self.receipts)} LMS receipts)")
        lines = [head, f"submissions that count changed for {len(self.counted)} students: {', '.join(self.counted) or '-'}"]
        lines += [f"SKIPPED {member}: {why}" for member, why in self.skipped]
        return "\n".join(lines)


def file_sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def notebook_pattern(notebook: str) -> str:
    """The notebook's name as students' files spell it: any case, ``-``, ``_`` or a space alike, then a
    browser's ``(1)`` or Canvas's ``-1``."""
    words = [re.escape(word) for word in re.split(r"[-_ ]", notebook)]
    return "[-_ ]".join(words) + r"(?:\s*\(\d+\)|-\d+)?\.ipynb"


def is_the_notebook(file: str, notebook: str, pattern: str | None) -> bool:
    """Is ``file`` the assignment's notebook? Its name in any case and with a resubmission suffix; with
    the instructor's own ``--pattern``, any ``.ipynb`` it captures (an LMS that renames uploads)."""
    if pattern is not None:
        return file.lower().endswith(".ipynb")
    return re.fullmatch(notebook_pattern(notebook), file, flags=re.IGNORECASE) is not None


def read_name(member: str, notebook: str, pattern: str | None) -> Found | None:
    """Who sent ``member`` and which file it was, from its path in the zip; None when no pattern fits."""
    path = PurePosixPath(member)
    candidates = [path.name, "/".join(path.parts[-2:])]
    patterns = [pattern] if pattern else [*LMS_PATTERNS.values(), rf"(?P<student>.+?)_(?P<file>{notebook_pattern(notebook)})"]
    for regex in patterns:
        for text in candidates:
            match = re.fullmatch(regex, text, flags=re.IGNORECASE)
            if match:
                groups = match.groupdict()
                names = tuple(name for name in (groups.get("student"), groups.get("lms_id")) if name)
                stamp = groups.get("timestamp")
                return Found(names, groups.get("file") or (path.name if "file" not in groups else None),
                             blackboard_time(stamp) if stamp else None)
    return None


def blackboard_time(text: str) -> datetime:
    """Blackboard's ``2026-12-01-10-30-00`` (or an ISO time from a ``--pattern``), in UTC."""
    if re.fullmatch(r"\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d", text):
        return datetime.strptime(text, "%Y-%m-%d-%H-%M-%S").replace(tzinfo=UTC)
    return parse_time(text)


def resubmission_number(file: str) -> int:
    """``broadcasting (2).ipynb`` → 2, ``broadcasting-1.ipynb`` → 1, ``broadcasting.ipynb`` → 0."""
    match = RESUBMISSION.search(PurePosixPath(file).stem)
    return int(match.group("paren") or match.group("dash")) if match else 0


def attribute(found: Found, roster: Roster | None) -> tuple[str | None, str]:
    """The student's id, or None and why not."""
    if roster is None:
        name = found.names[0]
        return (name, "") if SAFE_ID.fullmatch(name) else (None, f"{name!r} is not a student id: import a roster "
                                                                  "(tensorlab course roster import) to match names")
    matches = roster.find(*found.names)
    if len(matches) == 1:
        return matches[0].id, ""
    if not matches:
        return None, f"no student in the roster is called {' or '.join(map(repr, found.names))}"
    return None, f"{' or '.join(map(repr, found.names))} could be any of {', '.join(s.id for s in matches)}"


class Ledger:
    """collected.json: the archives extracted and every notebook kept, in the order they arrived."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "collected.json"
        data = json.loads(self.path.read_text()) if self.path.exists() else {"archives": {}, "files": []}
        self.archives: dict[str, dict] = data["archives"]
        self.files: list[dict] = data["files"]

    def save(self) -> None:
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps({"archives": self.archives, "files": self.files}, indent=1) + "\n")
        temporary.replace(self.path)


def collect_archive(course: Course, archive: Path, assignment: str, pattern: str | None = None) -> Collection:
    """Keep every notebook of ``archive`` that can be attributed, then update who has what submitted."""
    if assignment not in course.assignments():
        raise ExerciseError(f"{course.root}: no assignment {assignment!r}; the course has {', '.join(course.assignments())}")
    if not archive.is_file():
        raise ExerciseError(f"{archive}: no such file (the zip your LMS's 'download all submissions' gave you)")
    if not zipfile.is_zipfile(archive):
        raise ExerciseError(f"{archive}: not a zip file")
    if pattern is not None:
        try:
            if "student" not in re.compile(pattern).groupindex:
                raise ExerciseError(f"--pattern {pattern!r} needs a group (?P<student>...)")
        except re.error as error:
            raise ExerciseError(f"--pattern {pattern!r} is not a regular expression: {error}") from None
    data = archive.read_bytes()
    sha = file_sha(data)
    folder = course.root / "downloaded" / assignment
    folder.mkdir(parents=True, exist_ok=True)
    ledger = Ledger(folder)
    collection = Collection(assignment, archive.name)
    if sha in ledger.archives:
        collection.already_collected = True
        collection.counted = select_submissions(course, assignment)
        return collection
    (folder / "archives").mkdir(exist_ok=True)
    shutil.copyfile(archive, folder / "archives" / f"{sha[:16]}-{archive.name}")
    notebook = course.exercise(assignment).notebook
    roster = Roster.load(course.root)
    with zipfile.ZipFile(archive) as lms:
        for info in lms.infolist():
            if info.is_dir() or any(part in info.filename for part in IGNORED):
                continue
            keep_member(course, folder, ledger, collection, lms, info, (notebook, pattern, roster, sha))
    ledger.archives[sha] = {"name": archive.name, "collected_at": datetime.now(UTC).isoformat()}
    ledger.save()
    collection.counted = select_submissions(course, assignment)
    return collection


def keep_member(course: Course, folder: Path, ledger: Ledger, collection: Collection, lms: zipfile.ZipFile,
                info: zipfile.ZipInfo, context: tuple[str, str | None, Roster | None, str]) -> None:
    """Attribute one member and keep it under its student, or say why it was skipped."""
    notebook, pattern, roster, archive_sha = context
    found = read_name(info.filename, notebook, pattern)
    if found is None:
        collection.skipped.append((info.filename, f"its name fits no LMS pattern for {notebook}.ipynb"))
        return
    if found.file is None:  # Blackboard's receipt of an attempt
        collection.receipts.append(info.filename)
        return
    if not is_the_notebook(PurePosixPath(found.file).name, notebook, pattern):
        collection.skipped.append((info.filename, f"{PurePosixPath(found.file).name} is not {notebook}.ipynb"))
        return
    student, why = attribute(found, roster)
    if student is None:
        collection.skipped.append((info.filename, why))
        return
    content = lms.read(info)
    content_sha = file_sha(content)
    if any(f["student"] == student and f["sha256"] == content_sha for f in ledger.files):
        collection.duplicates.append((student, info.filename))
        return
    when = found.timestamp or datetime(*info.date_time, tzinfo=UTC)
    kept = folder / "submissions" / student / f"{when:%Y%m%dT%H%M%S}-{content_sha[:12]}.ipynb"
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_bytes(content)
    ledger.files.append({"student": student, "member": info.filename, "archive": archive_sha,
                         "timestamp": when.isoformat(), "resubmission": resubmission_number(found.file),
                         "sha256": content_sha, "kept": str(kept.relative_to(folder))})
    collection.kept.append((student, info.filename))


def counted_file(files: list[dict], deadline: Deadline | None, student: str) -> dict:
    """The submission that counts: the newest (time, then resubmission number, then arrival); under a
    ``refuse`` policy the newest made in time, if there is one."""
    ordered = sorted(enumerate(files), key=lambda pair: (pair[1]["timestamp"], pair[1]["resubmission"], pair[0]))
    newest = [entry for _, entry in ordered]
    if deadline is not None and deadline.policy == "refuse":
        in_time = [entry for entry in newest if deadline.seconds_late(student, parse_time(entry["timestamp"])) == 0]
        if in_time:
            return in_time[-1]
    return newest[-1]


def select_submissions(course: Course, assignment: str) -> list[str]:
    """Copy each collected student's counting notebook into submitted/ where it differs; return those students."""
    folder = course.root / "downloaded" / assignment
    ledger = Ledger(folder)
    deadline = load_deadlines(course.root).get(assignment)
    notebook = course.exercise(assignment).notebook
    changed = []
    for student in sorted({entry["student"] for entry in ledger.files}):
        entry = counted_file([f for f in ledger.files if f["student"] == student], deadline, student)
        content = (folder / entry["kept"]).read_bytes()
        target = course.root / "submitted" / student / assignment / f"{notebook}.ipynb"
        stamp = target.parent / TIMESTAMP_FILE
        if target.exists() and target.read_bytes() == content and stamp.exists() and stamp.read_text().strip() == entry["timestamp"]:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        stamp.write_text(entry["timestamp"] + "\n")
        changed.append(student)
    return changed


def submission_time(course: Course, student: str, assignment: str) -> datetime | None:
    """When the counted submission was made (nbgrader's timestamp.txt), or None when nothing says."""
    stamp = course.root / "submitted" / student / assignment / TIMESTAMP_FILE
    if not stamp.exists():
        return None
    try:
        return parse_time(stamp.read_text())
    except ExerciseError:
        return None
