"""The ``tensorlab`` console command: ``tensorlab course ...`` and ``tensorlab exercise ...`` for
instructors; ``tensorlab check`` and ``tensorlab student-tree`` for students.

A mistake in what the command is given (a missing folder, a malformed exercise, an unknown
assignment) is one line on stderr and exit status 2, never a traceback, and changes nothing."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn

__all__ = ["main"]


class Parser(argparse.ArgumentParser):
    """argparse, with options before or after the positional names (``autograde DIR --jobs 2 04-x``),
    and a usage error as one line naming the subcommand and its own usage (a UsageError)."""

    _intermixing = False

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def] - argparse's signature
        if self._subparsers is not None or self._intermixing:  # a parser of subcommands: argparse's own way
            return super().parse_known_args(args, namespace)
        self._intermixing = True  # parse_known_intermixed_args calls this method again, twice
        try:
            namespace, extras = self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False
        if extras:  # said here, with this subcommand's usage, not by the top-level parser with its own
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras

    def error(self, message: str) -> NoReturn:
        from .exercise import UsageError

        usage = " ".join(self.format_usage().split())
        raise UsageError(f"{self.prog}: error: {message} ({usage}; more: {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="tensorlab", description="tensorlab course tools")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command")

    check = commands.add_parser("check", help="run a saved exercise notebook's public checks")
    check.add_argument("notebook", type=Path)
    check.add_argument("--timeout", type=float, help="seconds per function (default: the exercise's)")
    check.add_argument("--cases", type=Path, help="the public cases (default: tensorlab-cases.json beside the notebook)")

    exercise = commands.add_parser("exercise", help="write and prove your own exercises")
    exercise_steps = exercise.add_subparsers(dest="step", required=True)
    new = exercise_steps.add_parser("new", help="scaffold a working exercise folder to rewrite into yours")
    new.add_argument("directory", type=Path)
    validate = exercise_steps.add_parser("validate", help="prove an exercise: solution full marks, released "
                                         "notebook zero, mutants lose points, alternatives keep them, under 10 seeds")
    validate.add_argument("directory", type=Path)
    validate.add_argument("--seeds", type=int, default=10, help="how many course seeds (default 10)")
    known = exercise_steps.add_parser("misconceptions", help="fingerprint each mutant's outcomes on the public "
                                      "cases, so check() can name a known mistake (writes misconceptions.json)")
    known.add_argument("directory", type=Path)

    tree = commands.add_parser("student-tree", help="build the notebooks a student works in (no solutions)")
    tree.add_argument("directory", type=Path, nargs="?", default=Path("build/student"),
                      help="where (default: build/student)")
    tree.add_argument("--refresh", action="store_true",
                      help="also update the notebooks you have not changed; changed ones are kept")

    course = commands.add_parser("course", help="instructor commands (nbgrader underneath)")
    steps = course.add_subparsers(dest="step", required=True)

    def step(name: str, help_text: str) -> argparse.ArgumentParser:
        sub = steps.add_parser(name, help=help_text)
        sub.add_argument("directory", type=Path, help="the course directory")
        sub.add_argument("--db", help="gradebook SQLAlchemy URL (default: the course's own DIR/gradebook.db; a relative "
                         "SQLite path is relative to DIR)")
        return sub

    init = step("init", "create a course directory from exercises/")
    init.add_argument("--exercises", type=Path, help="folder of exercises (default: the repository's exercises/)")
    init.add_argument("--course-id", help="nbgrader's course id (default: tensorlab, or the one the course has)")
    init.add_argument("--force", action="store_true", help="on an existing course, change its --db or --course-id")
    step("release", "generate the student versions (nbgrader generate_assignment)").add_argument("assignments", nargs="*")
    collect = step("zip-collect", "keep every notebook of an LMS download (Canvas, Moodle, Blackboard or "
                   "<student>_<notebook>.ipynb) and put each student's submission that counts in submitted/")
    collect.add_argument("archive", type=Path)
    collect.add_argument("--assignment", required=True)
    collect.add_argument("--pattern", help="your LMS's file names, as a regular expression with the group "
                         "(?P<student>...) and optionally (?P<file>...) and (?P<timestamp>...)")
    roster = steps.add_parser("roster", help="the class list: who the students are, and how an LMS names them")
    roster_steps = roster.add_subparsers(dest="action", required=True)
    roster_import = roster_steps.add_parser("import", help="replace the roster with a CSV's students (an id column, "
                                            "name, email; other columns are LMS ids)")
    roster_import.add_argument("directory", type=Path, help="the course directory")
    roster_import.add_argument("csv", type=Path)
    roster_import.add_argument("--db", help="gradebook SQLAlchemy URL (default: the course's own)")
    deadline = step("deadline", "set an assignment's due date and late policy")
    deadline.add_argument("assignment")
    deadline.add_argument("--due", required=True, help="ISO 8601 time, UTC unless a zone is given: 2026-12-01T23:59")
    deadline.add_argument("--late", choices=("none", "penalty", "refuse"), default="none",
                          help="none: late counts, flagged (default); penalty: --penalty-per-day of the points per "
                          "day late; refuse: the newest submission in time counts, only-late scores 0")
    deadline.add_argument("--penalty-per-day", type=float, default=0.0, help="share of the points per day late (0.1)")
    extend = step("extend", "give a student more time for an assignment")
    extend.add_argument("assignment")
    extend.add_argument("student")
    extend.add_argument("--until", required=True, help="ISO 8601 time, UTC unless a zone is given")
    grade = step("autograde", "grade submissions out of kernel, in parallel, into the gradebook")
    grade.add_argument("assignments", nargs="*")
    grade.add_argument("--jobs", type=int, default=1, help="worker processes (submissions graded at once)")
    grade.add_argument("--timeout", type=float, help="seconds per graded function (default: the spec's)")
    grade.add_argument("--force", action="store_true", help="regrade submissions that already have results")
    grade.add_argument("--isolation", choices=("namespaces", "process"), default="namespaces",
                       help="namespaces (default): learner code in its own OS namespaces (bubblewrap), refused "
                       "where unavailable; process: the Python-level guards only, for machines without them")
    grade.add_argument("--shard", metavar="I/N", help="grade only shard I (0 to N-1) of N: run N of these, on "
                       "N machines or a Kubernetes Indexed Job, into one shared gradebook")
    publish = step("publish", "make what students get: the student tree, the public cases, the pinned environment "
                   "and its two commands, without any solution")
    publish.add_argument("--to", type=Path, help="output folder (default: DIR/student-distribution)")
    publish.add_argument("--zip", action="store_true", help="also write the folder as a .zip beside it")
    solutions = step("publish-solutions", "after its deadline, add an assignment's solution to what students get "
                     "(mytorch uses it where a student's own piece is missing)")
    solutions.add_argument("assignment")
    solutions.add_argument("--force", action="store_true", help="publish even before the deadline (or without one)")
    solutions.add_argument("--to", type=Path, help="the distribution to add it to (default: DIR/student-distribution)")
    step("feedback", "write an HTML feedback page per student")
    export = step("export", "write the grades as CSV (nbgrader's columns)")
    export.add_argument("--to", type=Path, help="output file (default: DIR/grades.csv)")
    step("report", "score histogram and per-function failure table, in DIR/reports/")
    hub = step("hub-config", "write nbgrader's settings for a JupyterHub: the global one and this course's")
    hub.add_argument("--exchange", default="/srv/nbgrader/exchange", help="the exchange folder shared by all "
                     "users (default: /srv/nbgrader/exchange)")
    hub.add_argument("--course-root", help="where the course folder lies on the hub (default: DIR, resolved)")
    hub.add_argument("--out", type=Path, help="output folder (default: DIR/hub)")
    return parser


def run_course_step(args: argparse.Namespace) -> int:
    from .course import Course, init_course, release
    from .exercise import ExerciseError

    if args.step == "init":
        options = {"exercises": args.exercises} if args.exercises else {}
        course = init_course(args.directory, db_url=args.db, course_id=args.course_id, force=args.force, **options)
        print(f"course {args.directory} with {', '.join(course.assignments())}")
        return 0
    course = Course(args.directory, args.db)
    # every mistake that can be seen before a step starts is refused here, so the step changes nothing
    shard = None
    if args.step == "autograde" and args.shard:
        from .autograde import parse_shard

        shard = parse_shard(args.shard)
    named = {"release": "assignments", "autograde": "assignments", "zip-collect": "assignment", "deadline": "assignment",
             "extend": "assignment", "publish-solutions": "assignment"}.get(args.step)
    chosen = getattr(args, named) if named else []
    course.require([chosen] if isinstance(chosen, str) else chosen)
    if args.step == "zip-collect" and not args.archive.is_file():
        raise ExerciseError(f"{args.archive}: no such archive: give the .zip the LMS downloaded")
    if args.step == "release":
        release(course, args.assignments)
        print(f"released to {args.directory / 'release'}")
    elif args.step == "publish":
        from .distribution import publish

        written = publish(course, args.to or args.directory / "student-distribution", args.zip)
        print(f"student distribution in {written} (no solutions, no tasks: check it with `ls -R`)")
    elif args.step == "publish-solutions":
        from .solutions import publish_solutions

        added = publish_solutions(course, args.assignment, args.force, args.to)
        where = f"added to {added}" if added else "every `tensorlab course publish` from now on carries it"
        print(f"{args.assignment}: solution published ({where}); students' mytorch uses it where their own piece "
              "is missing")
    elif args.step in ("zip-collect", "roster", "deadline", "extend"):
        from .semester import run_semester_step

        return run_semester_step(course, args)
    elif args.step == "autograde":
        from .autograde import autograde

        summary = autograde(course, args.assignments, args.jobs, args.timeout, args.force, shard=shard,
                            isolation=args.isolation)
        print(f"graded {summary.graded} submissions ({summary.skipped} already graded) in {summary.seconds:.1f} s, "
              f"learner code isolated by {summary.isolation}")
    elif args.step == "feedback":
        from .feedback import write_feedback

        print(f"{len(write_feedback(course))} feedback pages under {args.directory / 'feedback'}")
    elif args.step == "export":
        from .export import export_csv

        print(f"grades written to {export_csv(course, args.to)}")
    elif args.step == "report":
        from .outputs import write_report

        print(write_report(course))
    elif args.step == "hub-config":
        from .hub_config import write_hub_config

        written = write_hub_config(course, args.exchange, args.out or args.directory / "hub", args.course_root)
        print("\n".join(str(path) for path in written))
    return 0


def run_exercise_step(args: argparse.Namespace) -> int:
    if args.step == "new":
        from .scaffold import new_exercise

        files = new_exercise(args.directory)
        print("\n".join(str(file) for file in files))
        print(f"next: tensorlab exercise validate {args.directory}")
        return 0
    if args.step == "misconceptions":
        from .exercise import load_folder
        from .misconceptions import write_misconceptions

        print(write_misconceptions(load_folder(args.directory)))
        return 0
    from .validate import DEFAULT_SEEDS, validate

    seeds = tuple(DEFAULT_SEEDS[0] + 7919 * k for k in range(max(1, args.seeds)))
    return 0 if validate(args.directory, seeds) else 1


def main(argv: list[str] | None = None) -> int:
    """Run the command; a user's mistake is one line on stderr and exit status 2, never a traceback."""
    from tensorlab.grading.isolation import IsolationUnavailableError
    from tensorlab.grading.public_cases import PublicCasesError

    from .exercise import ExerciseError, UsageError

    try:
        return run(argv)
    except UsageError as error:  # already names the subcommand
        print(error, file=sys.stderr)
        return 2
    # ExerciseError is tensorlab's own; the grading package's two, and the file errors the scaffold and
    # the distribution raise for a folder in the way, say the same kind of thing
    except (ExerciseError, PublicCasesError, IsolationUnavailableError, FileNotFoundError, FileExistsError) as error:
        print(f"tensorlab: {error}", file=sys.stderr)
        return 2


def run(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        from tensorlab import __version__

        print(__version__)
        return 0
    if args.command == "check":
        from .checknb import check_notebook

        return check_notebook(args.notebook, args.timeout, args.cases)
    if args.command == "exercise":
        return run_exercise_step(args)
    if args.command == "student-tree":
        from .student_tree import build_student_tree

        print(f"{args.directory}: {build_student_tree(args.directory, args.refresh).summary()}")
        return 0
    if args.command == "course":
        return run_course_step(args)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
