"""TileExplorer: how a Triton kernel cuts its work into programs, and what each program's masks hide.

Matmul (``C = A @ B``, A: M x K, B: K x N): program ``pid`` owns one BLOCK_M x BLOCK_N block of C.
It finds which block with the *grouped* order of ``tensorlab.kernels.matmul.matmul_kernel`` (the
same function, :func:`tensorlab.kernels.tiles.grouped_tile`): GROUP_M block-rows are finished
column by column before the next group starts, so consecutive programs reuse the same tiles of A
and B while they are still in the L2 cache. Along K it loads ``cdiv(K, BLOCK_K)`` tiles of A and of
B. Blocks do not divide the sizes, so the last block-row, block-column and K step reach past the
tensor: those offsets are *masked* (``tl.load(..., mask=..., other=0.0)`` reads a zero,
``tl.store(..., mask=...)`` writes nothing), drawn grey and dashed.

Row-wise kernels (softmax): program ``pid`` is row ``pid``; it loads ``tl.arange(0, BLOCK)`` with
BLOCK the next power of two at least ``cols`` (``tl.arange`` needs a power of two), so the tail
``cols .. BLOCK-1`` is masked (loaded as ``-inf``, which ``exp`` turns into 0). A BLOCK smaller than
the row makes the online variant: several chunks per row, only the last one masked.

Each model also *runs* its tiling in NumPy (:meth:`MatmulTiles.run`, :meth:`RowTiles.run`): the
tests hold those results to ``torch.matmul`` and ``torch.softmax``, so the picture cannot draw a
tiling that computes something else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .base import ModelExplorer
from .broadcast import parse_shape
from .grid import Index
from .svg import CELL, COLOURS, GAP, Svg, operand_colour, text_width

__all__ = ["MatmulTiles", "RowTiles", "TileExplorer", "next_power_of_two"]

DRAW_LIMIT = 24  # each padded size (blocks times block size) is drawn when at most this
PROGRAM_LIMIT = 64


def _tile_functions() -> tuple[Callable[[int, int], int], Callable[[int, int, int, int], tuple[int, int]]]:
    """``cdiv`` and ``grouped_tile`` from the kernels package: the program order the matmul kernel uses.

    Imported when a model is built, not with this module: ``tensorlab.kernels`` loads torch and triton.
    """
    from ..kernels.tiles import cdiv, grouped_tile

    return cdiv, grouped_tile


def next_power_of_two(n: int) -> int:
    """The smallest power of two >= n (``triton.next_power_of_2``): ``tl.arange`` needs one."""
    return 1 << max(n - 1, 0).bit_length()


def _positive(values: Sequence[int], names: str) -> tuple[int, ...]:
    numbers = tuple(int(v) for v in values)
    if any(v < 1 for v in numbers):
        raise ValueError(f"{names} must all be at least 1, got {numbers}")
    return numbers


class MatmulTiles:
    """The programs of a tiled matmul ``C = A @ B`` (A: m x k, B: k x n) and what each one touches.

    ``program(pid)`` is ``(pid_m, pid_n)``; ``c_cells``, ``a_cells``, ``b_cells`` are the element
    offsets a program stores or loads (masked ones included), ``masked_*`` tell which are past the
    edge, and ``mask_counts(pid)`` counts them.
    """

    def __init__(self, m: int = 5, n: int = 6, k: int = 7, block_m: int = 2, block_n: int = 4, block_k: int = 4,
                 group_m: int = 2) -> None:
        self.m, self.n, self.k = _positive((m, n, k), "M, N, K")
        self.block_m, self.block_n, self.block_k = _positive((block_m, block_n, block_k), "BLOCK_M, BLOCK_N, BLOCK_K")
        (self.group_m,) = _positive((group_m,), "GROUP_M")
        cdiv, self._grouped_tile = _tile_functions()
        self.num_pid_m, self.num_pid_n = cdiv(self.m, self.block_m), cdiv(self.n, self.block_n)
        self.k_steps = cdiv(self.k, self.block_k)
        if self.programs > PROGRAM_LIMIT * 4:
            raise ValueError(f"keep the grid under {PROGRAM_LIMIT * 4} programs (bigger blocks, or smaller sizes)")

    @property
    def programs(self) -> int:
        """The launch grid: ``cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)`` programs, in one dimension."""
        return self.num_pid_m * self.num_pid_n

    def program(self, pid: int) -> tuple[int, int]:
        """(pid_m, pid_n): the block-row and block-column of C that program ``pid`` computes."""
        return self._grouped_tile(pid, self.num_pid_m, self.num_pid_n, self.group_m)

    def order(self) -> list[tuple[int, int]]:
        return [self.program(pid) for pid in range(self.programs)]

    def rows(self, pid: int) -> range:
        """offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)."""
        return range(self.program(pid)[0] * self.block_m, (self.program(pid)[0] + 1) * self.block_m)

    def columns(self, pid: int) -> range:
        """offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)."""
        return range(self.program(pid)[1] * self.block_n, (self.program(pid)[1] + 1) * self.block_n)

    def depths(self, step: int) -> range:
        """offs_k at K step ``step``: step * BLOCK_K + tl.arange(0, BLOCK_K)."""
        return range(step * self.block_k, (step + 1) * self.block_k)

    def c_cells(self, pid: int) -> list[Index]:
        return [(i, j) for i in self.rows(pid) for j in self.columns(pid)]

    def a_cells(self, pid: int, step: int) -> list[Index]:
        return [(i, kk) for i in self.rows(pid) for kk in self.depths(step)]

    def b_cells(self, pid: int, step: int) -> list[Index]:
        return [(kk, j) for kk in self.depths(step) for j in self.columns(pid)]

    def masked_c(self, cell: Index) -> bool:
        return cell[0] >= self.m or cell[1] >= self.n

    def masked_a(self, cell: Index) -> bool:
        return cell[0] >= self.m or cell[1] >= self.k

    def masked_b(self, cell: Index) -> bool:
        return cell[0] >= self.k or cell[1] >= self.n

    def mask_counts(self, pid: int) -> dict[str, int]:
        """How many offsets of program ``pid`` the masks switch off: of its C block (stores), and of all
        the A and B tiles it loads along K."""
        steps = range(self.k_steps)
        return {
            "c": sum(self.masked_c(cell) for cell in self.c_cells(pid)),
            "a": sum(self.masked_a(cell) for step in steps for cell in self.a_cells(pid, step)),
            "b": sum(self.masked_b(cell) for step in steps for cell in self.b_cells(pid, step)),
        }

    def run(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The kernel's loop in NumPy: every program loads its masked tiles (zeros past the edge),
        accumulates ``tile_a @ tile_b`` in float32 along K and stores the unmasked part of its block."""
        c = np.full((self.m, self.n), np.nan, dtype=np.float32)
        for pid in range(self.programs):
            rows, columns = np.array(self.rows(pid)), np.array(self.columns(pid))
            accumulator = np.zeros((self.block_m, self.block_n), dtype=np.float32)
            for step in range(self.k_steps):
                depths = np.array(self.depths(step))
                tile_a = _masked_load(a, rows[:, None], depths[None, :], 0.0)
                tile_b = _masked_load(b, depths[:, None], columns[None, :], 0.0)
                accumulator += tile_a.astype(np.float32) @ tile_b.astype(np.float32)
            keep = (rows[:, None] < self.m) & (columns[None, :] < self.n)
            c[np.broadcast_to(rows[:, None], keep.shape)[keep], np.broadcast_to(columns[None, :], keep.shape)[keep]] = accumulator[keep]
        return c

    def drawable(self) -> bool:
        return (max(self.num_pid_m * self.block_m, self.num_pid_n * self.block_n, self.k_steps * self.block_k) <= DRAW_LIMIT
                and self.programs <= PROGRAM_LIMIT)

    def describe(self) -> str:
        head = (f"matmul M={self.m}, N={self.n}, K={self.k} with BLOCK_M={self.block_m}, BLOCK_N={self.block_n}, "
                f"BLOCK_K={self.block_k}, GROUP_M={self.group_m}")
        masked = sum(self.mask_counts(pid)["c"] for pid in range(self.programs))
        return (f"{head} -> grid ({self.num_pid_m} * {self.num_pid_n} = {self.programs},) programs, "
                f"{self.k_steps} K step(s) each; {masked} of the {self.programs * self.block_m * self.block_n} "
                "C offsets are masked")

    def program_info(self, pid: int) -> str:
        pid_m, pid_n = self.program(pid)
        rows, columns = self.rows(pid), self.columns(pid)
        counts = self.mask_counts(pid)
        group = pid // (self.group_m * self.num_pid_n)
        return (f"program {pid} (group {group}) -> pid_m={pid_m}, pid_n={pid_n}: C[{rows.start}:{rows.stop}, "
                f"{columns.start}:{columns.stop}]; loads A[{rows.start}:{rows.stop}, k:k+{self.block_k}] and "
                f"B[k:k+{self.block_k}, {columns.start}:{columns.stop}] for k = "
                f"{', '.join(str(step * self.block_k) for step in range(self.k_steps))}; masked: "
                f"{counts['c']} C stores, {counts['a']} A loads, {counts['b']} B loads")


class RowTiles:
    """The programs of a row-wise kernel (softmax over the last dim of a rows x cols tensor): program
    ``pid`` is row ``pid``; it reads the row in chunks of ``block`` (default: one chunk, the next
    power of two at least ``cols``), the offsets past ``cols`` masked."""

    def __init__(self, rows: int = 3, cols: int = 5, block: int | None = None) -> None:
        self.rows, self.cols = _positive((rows, cols), "rows, cols")
        self.block = next_power_of_two(self.cols) if block is None else int(block)
        if self.block < 1 or self.block & (self.block - 1):
            raise ValueError(f"BLOCK must be a power of two (tl.arange needs one), got {self.block}")
        cdiv, _ = _tile_functions()
        self.chunks = cdiv(self.cols, self.block)
        if self.rows > PROGRAM_LIMIT * 4:
            raise ValueError(f"keep rows under {PROGRAM_LIMIT * 4}")

    @property
    def programs(self) -> int:
        return self.rows

    def cells(self, pid: int) -> list[Index]:
        """(row, column offset) of every offset program ``pid`` loads, masked ones included."""
        return [(pid, column) for column in range(self.chunks * self.block)]

    def masked(self, cell: Index) -> bool:
        return cell[1] >= self.cols

    def mask_counts(self, pid: int) -> dict[str, int]:
        return {"x": sum(self.masked(cell) for cell in self.cells(pid))}

    def run(self, x: np.ndarray) -> np.ndarray:
        """Softmax the way the kernel computes it: masked loads of ``-inf``, a running max and a
        rescaled running sum over the chunks (one chunk: the plain max-subtracted softmax)."""
        out = np.empty((self.rows, self.cols), dtype=np.float32)
        for pid in range(self.programs):
            running_max, running_sum = np.float32(-np.inf), np.float32(0.0)
            for chunk in range(self.chunks):
                columns = np.arange(chunk * self.block, (chunk + 1) * self.block)
                values = _masked_load(x, np.full_like(columns, pid), columns, -np.inf).astype(np.float32)
                new_max = max(running_max, values.max())
                running_sum = running_sum * np.exp(running_max - new_max) + np.exp(values - new_max).sum()
                running_max = new_max
            out[pid] = np.exp(x[pid].astype(np.float32) - running_max) / running_sum
        return out

    def drawable(self) -> bool:
        return self.chunks * self.block <= DRAW_LIMIT * 2 and self.rows <= DRAW_LIMIT

    def describe(self) -> str:
        masked = self.chunks * self.block - self.cols
        chunks = "one chunk" if self.chunks == 1 else f"{self.chunks} chunks (online softmax)"
        return (f"softmax over rows={self.rows}, cols={self.cols} with BLOCK={self.block} -> grid ({self.rows},): "
                f"one program per row, {chunks}; {masked} masked offset(s) per row")

    def program_info(self, pid: int) -> str:
        count = self.mask_counts(pid)["x"]
        return (f"program {pid} -> row {pid}: loads x[{pid}, offs] for offs = chunk*{self.block} + tl.arange(0, {self.block}), "
                f"{self.chunks} chunk(s); mask offs < {self.cols} switches off {count} (loaded as -inf)")


def _masked_load(array: np.ndarray, rows: np.ndarray, columns: np.ndarray, other: float) -> np.ndarray:
    """``tl.load(ptr + rows * stride + columns, mask=(rows < R) & (columns < C), other=other)``."""
    rows, columns = np.broadcast_arrays(rows, columns)
    mask = (rows < array.shape[0]) & (columns < array.shape[1])
    values = np.full(rows.shape, other, dtype=np.float64)
    values[mask] = array[rows[mask], columns[mask]]
    return values


def _key(name: str, cell: Index) -> str:
    return f"{name}:{','.join(map(str, cell))}"


def _grid(svg: Svg, left: float, top: float, title: str, shape: tuple[int, int], blocks: tuple[int, int], name: str,
          colour: str, label: Callable[[Index], str], masked: Callable[[Index], bool], links: dict[Index, list[str]],
          infos: dict[Index, str]) -> float:
    """A padded tensor: real elements in ``colour``, offsets past its edge grey and dashed, a dark line
    between tiles of ``blocks`` (rows, columns); returns the width."""
    svg.label(left, top + 12, title, colour, 12, font_weight="bold")
    for row in range(shape[0]):
        for column in range(shape[1]):
            cell = (row, column)
            edge = COLOURS["padded"] if masked(cell) else colour
            svg.cell(left + column * CELL, top + 20 + row * CELL, label(cell), f"{edge}26", _key(name, cell),
                     links.get(cell, []), infos.get(cell, ""), stroke=edge, dashed=masked(cell))
    bottom, right = top + 20 + shape[0] * CELL, left + shape[1] * CELL
    for row in range(blocks[0], shape[0], blocks[0]):
        svg.add(svg.line(left, top + 20 + row * CELL, right, top + 20 + row * CELL, stroke=COLOURS["text"], stroke_width=2))
    for column in range(blocks[1], shape[1], blocks[1]):
        svg.add(svg.line(left + column * CELL, top + 20, left + column * CELL, bottom, stroke=COLOURS["text"], stroke_width=2))
    return max(shape[1] * CELL, text_width(title, 12))


def _programs_strip(svg: Svg, top: float, model: MatmulTiles | RowTiles, links: dict[int, list[str]]) -> float:
    """One box per program in launch order (pid 0, 1, ...); returns the bottom of the strip."""
    svg.label(4, top + 12, "programs in launch order (pid)", COLOURS["text"], 12, font_weight="bold")
    for pid in range(model.programs):
        svg.cell(4 + pid * CELL, top + 20, pid, "#eeeeee", f"pid:{pid}", links[pid], model.program_info(pid))
    return top + 20 + CELL + GAP


def _render_matmul(svg: Svg, model: MatmulTiles, top: float) -> None:
    owner = {cell: pid for pid in range(model.programs) for cell in model.c_cells(pid)}
    step_of = {step: step for step in range(model.k_steps)}
    program_links = {
        pid: [_key("c", cell) for cell in model.c_cells(pid)]
        + [_key("a", cell) for step in step_of for cell in model.a_cells(pid, step)]
        + [_key("b", cell) for step in step_of for cell in model.b_cells(pid, step)]
        for pid in range(model.programs)
    }
    top = _programs_strip(svg, top, model, program_links)
    padded_m, padded_n, padded_k = (model.num_pid_m * model.block_m, model.num_pid_n * model.block_n,
                                    model.k_steps * model.block_k)
    readers_a: dict[int, list[int]] = {}  # block-row -> programs
    readers_b: dict[int, list[int]] = {}
    for pid in range(model.programs):
        pid_m, pid_n = model.program(pid)
        readers_a.setdefault(pid_m, []).append(pid)
        readers_b.setdefault(pid_n, []).append(pid)

    def loaded_by(programs: list[int]) -> str:
        return f"loaded by program(s) {', '.join(map(str, programs))}"

    a_links: dict[Index, list[str]] = {(i, kk): [f"pid:{pid}" for pid in readers_a[i // model.block_m]] for i in range(padded_m) for kk in range(padded_k)}
    a_infos: dict[Index, str] = {
        (i, kk): (f"A[{i}, {kk}]: " + ("masked (past M or K): loaded as 0.0, so it adds nothing; "
                                       if model.masked_a((i, kk)) else "")
                  + f"K step {kk // model.block_k}, {loaded_by(readers_a[i // model.block_m])}")
        for i in range(padded_m) for kk in range(padded_k)
    }
    b_links: dict[Index, list[str]] = {(kk, j): [f"pid:{pid}" for pid in readers_b[j // model.block_n]] for kk in range(padded_k) for j in range(padded_n)}
    b_infos: dict[Index, str] = {
        (kk, j): (f"B[{kk}, {j}]: " + ("masked (past K or N): loaded as 0.0, so it adds nothing; "
                                       if model.masked_b((kk, j)) else "")
                  + f"K step {kk // model.block_k}, {loaded_by(readers_b[j // model.block_n])}")
        for kk in range(padded_k) for j in range(padded_n)
    }
    c_links: dict[Index, list[str]] = {cell: [f"pid:{pid}", *program_links[pid]] for cell, pid in owner.items()}
    c_infos: dict[Index, str] = {
        cell: (f"C[{cell[0]}, {cell[1]}]: " + ("masked (past M or N): computed, never stored; " if model.masked_c(cell) else "")
               + model.program_info(pid))
        for cell, pid in owner.items()
    }
    left = 4.0
    left += _grid(svg, left, top, f"A [{model.m}, {model.k}] (K step)", (padded_m, padded_k), (model.block_m, model.block_k), "a",
                  operand_colour(0),
                  lambda cell: str(cell[1] // model.block_k), model.masked_a, a_links, a_infos) + GAP
    svg.label(left, top + 20 + CELL / 2 + 4, "@", COLOURS["text"], 16)
    left += 2 * GAP
    left += _grid(svg, left, top, f"B [{model.k}, {model.n}] (K step)", (padded_k, padded_n), (model.block_k, model.block_n), "b",
                  operand_colour(1),
                  lambda cell: str(cell[0] // model.block_k), model.masked_b, b_links, b_infos) + GAP
    svg.label(left, top + 20 + CELL / 2 + 4, "=", COLOURS["text"], 16)
    left += 2 * GAP
    _grid(svg, left, top, f"C [{model.m}, {model.n}] (pid)", (padded_m, padded_n), (model.block_m, model.block_n), "c", COLOURS["result"],
          lambda cell: str(owner[cell]), model.masked_c, c_links, c_infos)


def _render_rows(svg: Svg, model: RowTiles, top: float) -> None:
    program_links = {pid: [_key("x", cell) for cell in model.cells(pid)] for pid in range(model.programs)}
    top = _programs_strip(svg, top, model, program_links)
    width = model.chunks * model.block
    links: dict[Index, list[str]] = {(row, column): [f"pid:{row}", *program_links[row]] for row in range(model.rows) for column in range(width)}
    infos: dict[Index, str] = {
        (row, column): (f"x[{row}, {column}]: " + (f"masked (column {column} >= cols = {model.cols}): loaded as -inf, exp gives 0; "
                                                   if model.masked((row, column)) else "")
                        + f"chunk {column // model.block}, offset {column % model.block} of tl.arange(0, {model.block}); "
                        + model.program_info(row))
        for row in range(model.rows) for column in range(width)
    }
    _grid(svg, 4.0, top, f"x [{model.rows}, {model.cols}] (offset in tl.arange)", (model.rows, width), (1, model.block), "x",
          operand_colour(0), lambda cell: str(cell[1] % model.block), model.masked, links, infos)


def render_svg(model: MatmulTiles | RowTiles) -> str:
    svg = Svg("tl-tiles")
    svg.label(4, 16, model.describe().split(" -> ", 1)[1], COLOURS["text"], 12, class_="tl-outcome")
    if not model.drawable():
        svg.label(4, 36, f"(drawn for padded sizes of at most {DRAW_LIMIT} and at most {PROGRAM_LIMIT} programs)",
                  COLOURS["muted"], 11)
        return str(svg)
    if isinstance(model, MatmulTiles):
        _render_matmul(svg, model, 28.0)
    else:
        _render_rows(svg, model, 28.0)
    return str(svg)


class TileExplorer(ModelExplorer):
    """``TileExplorer(m=5, n=6, k=7, block_m=2, block_n=4, block_k=4, group_m=2)``: the programs of a
    tiled matmul; ``TileExplorer.rows(3, 5)``: one program per row of a softmax. Hover a program (or
    any element) to light up the block it stores and the tiles it loads; masked offsets are grey."""

    render = staticmethod(render_svg)

    def __init__(self, m: int = 5, n: int = 6, k: int = 7, block_m: int = 2, block_n: int = 4, block_k: int = 4,
                 group_m: int = 2) -> None:
        self.model: MatmulTiles | RowTiles = MatmulTiles(m, n, k, block_m, block_n, block_k, group_m)
        self.problem = ""

    @classmethod
    def rows(cls, rows: int = 3, cols: int = 5, block: int | None = None) -> TileExplorer:
        """The 1-D mode: a row-wise kernel such as softmax (``block`` below ``cols``: the online variant)."""
        explorer = cls.__new__(cls)
        explorer.model = RowTiles(rows, cols, block)
        explorer.problem = ""
        return explorer

    def _controls(self, widgets: Any) -> list:
        model = self.model
        if isinstance(model, RowTiles):
            sizes = widgets.Text(value=f"{model.rows}, {model.cols}", description="rows, cols", continuous_update=False)
            blocks = widgets.Text(value=str(model.block), description="BLOCK", continuous_update=False)

            def build() -> MatmulTiles | RowTiles:
                rows, cols = _numbers(sizes.value, 2, "rows, cols")
                return RowTiles(rows, cols, _numbers(blocks.value, 1, "BLOCK")[0])
            controls = [sizes, blocks]
        else:
            sizes = widgets.Text(value=f"{model.m}, {model.n}, {model.k}", description="M, N, K", continuous_update=False)
            blocks = widgets.Text(value=f"{model.block_m}, {model.block_n}, {model.block_k}", description="BLOCK_M, N, K",
                                  continuous_update=False)
            group = widgets.Text(value=str(model.group_m), description="GROUP_M", continuous_update=False)

            def build() -> MatmulTiles | RowTiles:
                m, n, k = _numbers(sizes.value, 3, "M, N, K")
                block_m, block_n, block_k = _numbers(blocks.value, 3, "BLOCK_M, N, K")
                return MatmulTiles(m, n, k, block_m, block_n, block_k, _numbers(group.value, 1, "GROUP_M")[0])
            controls = [sizes, blocks, group]

        def update(_change: Any = None) -> None:
            try:
                self.model = build()
                self.problem = ""
            except ValueError as error:
                self.problem = str(error)
            self._refresh()

        for control in controls:
            control.observe(update, names="value")
        return [widgets.HBox(controls)]


def _numbers(text: str, count: int, names: str) -> tuple[int, ...]:
    values = parse_shape(text)
    if len(values) != count:
        raise ValueError(f"{names}: {count} number(s), got {text!r}")
    return values
