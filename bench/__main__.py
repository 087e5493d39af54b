"""``python -m bench [NAME...] [--fresh]``: print tensorlab's speed relative to torch and NumPy.

``--check`` also compares each ratio with its target and with the README's table, and exits 1 when
one misses its target (``make bench-check``); ``--write-readme`` rewrites that table from the run
(``make bench-readme``). ``--repeat N`` runs the workloads N times and takes each ratio's median.

``python -m bench gpu`` instead times tensorlab's Triton kernels against torch on a CUDA GPU (bench/gpu.py)."""

from __future__ import annotations

import argparse
import importlib
import sys
import time

from . import check, readme
from .environment import describe_environment, describe_machine, limit_threads
from .measure import measure
from .registry import IMPLEMENTATIONS, load_workloads, select
from .report import COLUMNS, Results, Row, combine, notes, ratio_table, row_of, times_table
from .timing import MIN_BATCH_SECONDS


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("names", nargs="*", help="workloads to run (default: all; see --list)")
    parser.add_argument("--list", action="store_true", help="list the workloads and exit")
    parser.add_argument(
        "--fresh", action="store_true",
        help="also time the first call in new processes (workloads with a fresh-process target, or those named)",
    )
    parser.add_argument("--processes", type=int, default=5, help="new processes per implementation with --fresh")
    parser.add_argument("--budget", type=float, default=4.0, help="seconds of warm timing per workload")
    parser.add_argument(
        "--batch-ms", type=float, default=MIN_BATCH_SECONDS * 1e3,
        help="shortest timed batch of back-to-back calls, in ms (0: single calls, each after another library's)",
    )
    parser.add_argument("--threads", type=int, default=1, help="threads for torch and BLAS (0: libraries' defaults)")
    parser.add_argument("--times", action="store_true", help="also print absolute times per call")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="run the workloads N times, one after another; each ratio is the median of the N")
    parser.add_argument("--check", action="store_true",
                        help="compare each ratio with its target and the README's table; exit 1 if a target is missed")
    parser.add_argument("--write-readme", action="store_true",
                        help="rewrite README.md's table (between its bench-table markers) from this run (needs --fresh)")
    parser.add_argument("--machine", help="--write-readme: the machine, in words (default: CPUs and model, from the system)")
    parser.add_argument("--students", type=int, metavar="N",
                        help="course workload only: grade N submissions (default 20) and print its report")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    if args.list:
        for workload in load_workloads().values():
            print(f"{workload.name:14} {workload.title}")
        print(f"{'gpu':14} Triton kernels vs torch on a CUDA GPU (run alone: python -m bench gpu)")
        return 0
    if "gpu" in args.names:  # issue 14: not a tensorlab-vs-torch-vs-NumPy ratio table, its own report
        if args.names != ["gpu"]:
            print("gpu runs alone: python -m bench gpu", file=sys.stderr)
            return 2
        from .gpu import run_gpu_benchmark

        return run_gpu_benchmark()
    if args.students is not None:
        if args.names != ["course"]:
            print("--students goes with the course workload alone: python -m bench course --students N", file=sys.stderr)
            return 2
        from .course import describe, run_course_benchmark

        print(describe(run_course_benchmark(args.students)))
        return 0
    if args.repeat < 1:
        print("--repeat takes a count of 1 or more", file=sys.stderr)
        return 2
    if args.write_readme and (args.names or not args.fresh):
        print("--write-readme rewrites the whole table, fresh columns too: python -m bench --fresh --write-readme",
              file=sys.stderr)
        return 2
    try:
        workloads = select(args.names)
    except KeyError as error:
        print(error.args[0], file=sys.stderr)
        return 2

    started = time.perf_counter()
    for implementation in IMPLEMENTATIONS:  # load every library first, so the thread limit reaches them
        importlib.import_module(implementation)
    limit_threads(args.threads)
    runs: dict[str, list[Row]] = {workload.name: [] for workload in workloads}
    failures = []  # every round's, for the notes (a run that failed once fails the combined row)
    for repetition in range(args.repeat):  # the whole set each time, so a slow spell of the machine hits one round
        measurements = []
        for workload in workloads:
            fresh = args.fresh and (workload.target.fresh or bool(args.names))
            round_note = f" (round {repetition + 1} of {args.repeat})" if args.repeat > 1 else ""
            print(f"measuring {workload.name}{' (and fresh)' if fresh else ''}{round_note} ...", file=sys.stderr, flush=True)
            measurements.append(
                measure(workload, args.budget, args.processes if fresh else 0, args.threads, args.batch_ms / 1e3)
            )
            runs[workload.name].append(row_of(measurements[-1]))
            failures += [measurements[-1]] if measurements[-1].status != "ok" else []
    results: Results = {name: combine(rows) for name, rows in runs.items()}
    with_fresh = any(isinstance(row, dict) and any(row[c.header] is not None for c in COLUMNS if c.fresh)
                     for row in results.values())

    print("## tensorlab vs torch and NumPy\n")
    print("\n".join(f"- {line}" for line in describe_environment()))
    print()
    print(ratio_table(results, with_fresh))
    print()
    print("Ratios are tensorlab's time over the other's (lower is faster; 1.00x is a tie), medians of")
    print("interleaved repetitions in one warm process; fresh: first call in a new process, median of")
    print(f"{args.processes} processes each. ✗ marks a missed target. Threads: {args.threads or 'library defaults'}.")
    if args.repeat > 1:
        print(f"Each ratio is the median of {args.repeat} runs of the whole set.")
    for line in dict.fromkeys(notes(failures)):
        print(f"- {line}")
    if args.times:
        print()
        print(times_table(measurements))
    print(f"\n({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    status = 0
    if args.check:
        readme_results, _ = readme.parse_block(readme.read_block(readme.README.read_text(encoding="utf-8")))
        verdicts = check.check(results, readme_results)
        print("\n## Check: targets (a miss fails) and the README's table (a drift warns)\n")
        print("\n".join(check.describe(verdicts)))
        status = check.exit_status(verdicts)
    if args.write_readme:
        failed = [name for name, row in results.items() if isinstance(row, str)]
        if failed:
            print(f"README.md not written: no numbers for {', '.join(failed)}", file=sys.stderr)
            return 1
        readme.write_readme(results, readme.measured_line(args.threads, args.repeat, args.machine or describe_machine()))
        print(f"wrote the table in {readme.README}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
