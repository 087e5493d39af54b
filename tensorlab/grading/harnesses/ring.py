"""The grader's half of unit 16's ring collectives: it runs the N ranks of a ring, delivers every message
and records what each rank sent.

The learner writes the program of ONE rank, ``program(rank, world_size, data, ring)``, and returns that
rank's result. ``ring`` is this file's ``Ring``: its one method, ``ring.exchange(chunk_index, array)``, is a
lock-step ring's send-and-receive. It sends ``array`` (a NumPy array), labelled with the number of the chunk
it carries, to the right-hand neighbour, rank ``(rank + 1) % world_size``, and returns
``(received_index, received_array)``: what the left-hand neighbour, rank ``(rank - 1) % world_size``, sent at
the same step. A step is one call of ``exchange`` by every rank: the k-th call of each rank is step k (from
0). The receiver gets a copy of what was sent (its own array, to change as it likes); a sender's array is
never changed by the ring.

``run_ring(program, inputs)`` runs rank r as ``program(r, N, inputs[r], ring)`` for every rank and returns
``(results, messages)``: ``results[r]`` is what rank r returned, ``messages`` the harness's own record of every
send, ``(step, source, target, chunk_index, nbytes)`` by step and then by sender, where ``nbytes`` is the sent
array's ``nbytes``. So grading compares what the ring actually carried, never a log the learner wrote.

The ranks are threads, but only one runs at a time, in a fixed order: rank 0 runs until it calls
``exchange`` (or returns), then rank 1, ... rank N-1; once every rank has called ``exchange`` for a step,
the messages are delivered and the ranks resume in the same order. So a run is deterministic, and a rank
cannot read what another rank has not sent it yet. Everything that breaks the protocol raises, with the
rank and the step named, instead of waiting forever:

- ranks that do not agree on the number of steps (one returned while another called ``exchange`` again):
  ``RuntimeError``;
- a chunk index that is not an integer from 0 to N-1 (``ValueError``/``TypeError``), or something that is
  not a NumPy array sent (``TypeError``);
- a rank that neither returns nor calls ``exchange`` within ``STEP_SECONDS``: ``RuntimeError``;
- an exception a rank raised is raised again (the first rank's, in the order they run), its message
  prefixed with the rank.

The sandbox loads this file by path (``Rules.harness``) and calls ``launch(function, arguments)`` for
each case, ``arguments`` being ``(inputs,)``. It imports only NumPy and the standard library, never
tensorlab or the grader (and holds no answer: the references are tensorlab's simulator, in the exercise's
tasks.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["STEP_SECONDS", "Ring", "launch", "run_ring"]

STEP_SECONDS = 60.0  # a guard, never a verdict: the sandbox's timeout (seconds per function) stops a looping rank first
Message = tuple[int, int, int, int, int]  # (step, source, target, chunk_index, nbytes)


class Stopped(BaseException):  # not an error of this rank's: another rank's made the run stop
    """Raised in a rank waiting in ``exchange`` when the run stops (another rank raised or broke the protocol)."""


class Ring:
    """What a rank's program is given: ``exchange``, the lock-step send-right, receive-left of a ring."""

    __slots__ = ("_rank", "_run")

    def __init__(self, run: _Run, rank: int) -> None:
        self._run, self._rank = run, rank

    def exchange(self, chunk_index: int, data: np.ndarray) -> tuple[int, np.ndarray]:
        """Send ``data`` (chunk ``chunk_index``) to rank (rank + 1) % N; return ``(index, array)`` that rank
        (rank - 1) % N sent at this same step. Every rank calls it once per step."""
        return self._run.exchange(self._rank, chunk_index, data)

    def __repr__(self) -> str:
        return f"<ring: rank {self._rank} of {self._run.world_size}; ring.exchange(chunk_index, array)>"


class _Rank:
    """One rank's thread and what it has done: its sends, its result or its exception."""

    def __init__(self) -> None:
        self.go = threading.Event()  # set by the scheduler: run until the next exchange (or the end)
        self.paused = threading.Event()  # set by the rank: it called exchange, returned or raised
        self.steps = 0  # its calls to exchange so far
        self.outgoing: tuple[int, np.ndarray] | None = None  # what it sends at the current step
        self.incoming: tuple[int, np.ndarray] | None = None  # what it receives at the current step
        self.finished = False
        self.result: Any = None
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


class _Run:
    """The N ranks of one case, run one at a time, step by step."""

    def __init__(self, world_size: int) -> None:
        self.world_size = world_size
        self.ranks = [_Rank() for _ in range(world_size)]
        self.stopped = False

    def exchange(self, rank: int, chunk_index: Any, data: Any) -> tuple[int, np.ndarray]:
        me = self.ranks[rank]
        if self.stopped:
            raise Stopped
        step = me.steps
        if isinstance(chunk_index, bool) or not isinstance(chunk_index, (int, np.integer)):
            raise TypeError(f"rank {rank}, step {step}: exchange(chunk_index, array) takes the chunk's number as an "
                            f"int, got {type(chunk_index).__name__}")
        if not 0 <= int(chunk_index) < self.world_size:
            raise ValueError(f"rank {rank}, step {step}: chunk index {int(chunk_index)}, but the chunks are numbered "
                             f"0 to {self.world_size - 1}")
        if not isinstance(data, np.ndarray):
            raise TypeError(f"rank {rank}, step {step}: exchange sends a NumPy array, got {type(data).__name__}")
        me.outgoing = (int(chunk_index), np.array(data, copy=True))  # what was sent, as it was when sent
        me.steps += 1
        me.go.clear()
        me.paused.set()  # the scheduler's turn: the other ranks send too, then the messages are delivered
        me.go.wait()
        if self.stopped:
            raise Stopped
        received, me.incoming = me.incoming, None
        assert received is not None
        return received

    def body(self, program: Callable[..., Any], rank: int, data: Any) -> None:
        me = self.ranks[rank]
        me.go.wait()
        try:
            if not self.stopped:
                me.result = program(rank, self.world_size, data, Ring(self, rank))
        except Stopped:
            pass
        except BaseException as error:  # the rank's own exception: the case raises it
            me.error = error
        finally:
            me.finished = True
            me.paused.set()

    def resume(self, rank: int) -> None:
        """Let ``rank`` run until its next exchange, its return or its exception."""
        me = self.ranks[rank]
        me.paused.clear()
        me.go.set()
        if not me.paused.wait(STEP_SECONDS):
            raise RuntimeError(f"rank {rank} neither called exchange nor returned within {STEP_SECONDS:g} seconds "
                               f"(step {me.steps}): an endless loop, or a wait for something that never comes?")

    def stop(self) -> None:
        self.stopped = True
        for me in self.ranks:
            me.go.set()
        for me in self.ranks:
            if me.thread is not None:
                me.thread.join(0.5)

    def run(self, program: Callable[..., Any], inputs: Sequence[Any]) -> tuple[list[Any], list[Message]]:
        messages: list[Message] = []
        for rank, me in enumerate(self.ranks):
            me.thread = threading.Thread(target=self.body, args=(program, rank, inputs[rank]),
                                         name=f"ring rank {rank}", daemon=True)
            me.thread.start()
        try:
            step = 0
            while True:
                for rank, me in enumerate(self.ranks):
                    if not me.finished:
                        self.resume(rank)
                    if me.error is not None:
                        raise_from_rank(rank, me.error)
                self.agree(step)
                if all(me.finished for me in self.ranks):
                    break
                for rank, me in enumerate(self.ranks):  # every rank sent: deliver, by sender
                    target = (rank + 1) % self.world_size
                    assert me.outgoing is not None
                    index, array = me.outgoing
                    self.ranks[target].incoming = (index, array.copy())
                    messages.append((step, rank, target, index, int(array.nbytes)))
                    me.outgoing = None
                step += 1
        finally:
            self.stop()
        return [me.result for me in self.ranks], messages

    def agree(self, step: int) -> None:
        """Every rank called exchange for ``step``, or every rank returned: else the ring is broken."""
        done = [rank for rank, me in enumerate(self.ranks) if me.finished]
        waiting = [rank for rank, me in enumerate(self.ranks) if not me.finished]
        if done and waiting:
            returned, called = done[0], waiting[0]
            raise RuntimeError(
                f"rank {returned} returned after {step} exchange(s), but rank {called} called exchange a "
                f"{ordinal(step + 1)} time (step {step}): in a lock-step ring every rank calls exchange once per "
                "step, so every rank must take the same number of steps")


def raise_from_rank(rank: int, error: BaseException) -> None:
    """The rank's exception again, its message saying which rank raised it (when it is one string)."""
    if len(error.args) == 1 and isinstance(error.args[0], str) and not error.args[0].startswith(f"rank {rank}"):
        error.args = (f"rank {rank}: {error.args[0]}",)
    raise error


def run_ring(program: Callable[..., Any], inputs: Sequence[Any]) -> tuple[list[Any], list[Message]]:
    """Run ``program(rank, N, inputs[rank], ring)`` on every rank of a ring of N = len(inputs) ranks:
    ``(each rank's result, every message sent)`` (see the module's docstring). Also for a learner's own tries:
    ``run_ring(ring_all_gather, [np.array([1.0]), np.array([2.0])])``."""
    if not callable(program):
        raise TypeError(f"expected a function of (rank, world_size, data, ring), got {type(program).__name__}")
    if len(inputs) == 0:
        raise ValueError("a ring needs at least one rank")
    return _Run(len(inputs)).run(program, list(inputs))


def launch(function: Callable[..., Any], arguments: tuple) -> tuple[list[Any], list[Message]]:
    """The sandbox's call for one case: ``arguments`` is ``(inputs,)``, one input per rank."""
    (inputs,) = arguments
    return run_ring(function, inputs)
