"""Unit 13's kernels, launched the way the grader wants: on Triton's interpreter, inside canary buffers.

The learner writes a ``@triton.jit`` kernel; the grader (this file, in the sandbox) picks the
grid and the block sizes, places every input and the output inside a larger buffer whose other
elements are canaries (a row stride longer than a row, and spare elements before and after),
launches the kernel and returns the output's elements. On a GPU a kernel that reads or writes
past its tensor may crash, or may silently corrupt a neighbour; the interpreter never traps it.
So the launch is watched twice:

- every load and every store the kernel makes goes through the interpreter's masked load and
  store (``interpreter_builder.create_masked_load``/``create_masked_store``, also behind the
  unmasked ``tl.load``); during the launch both are wrapped, and an address the mask lets through
  that is not an element of an argument (for a store: of the output) is recorded and masked off,
  so it is never touched;
- after the launch, every canary and every input must still hold its bits.

Either finding fails the case with an ``IndexError`` that names the program and the offset. The
sandbox loads this file by path and calls ``prepare()`` in its child, before forking: triton loads
native libraries, which a locked-down grandchild may no longer do. The buffers are NumPy arrays,
handed to the kernel as ``HostPointer``s: grading never loads torch. So this file imports only
triton and NumPy, never tensorlab or the grader.

And a masked load without ``other=`` reads NaN in its masked-off lanes (floating point tensors): on a GPU
those lanes hold whatever the registers held (the interpreter gives 0, which would let a matmul tile that
forgets ``other=0.0`` pass); a kernel that never uses them, or replaces them (``tl.where``), is unaffected.

And a statement that limits the traffic is counted, not trusted: an input placed with ``once=True`` may have
each element loaded once in the whole launch ("one read of x", "the row is loaded once"), and every output
element may be stored once ("store the accumulator once, at the end"): the output is right after a second
pass too, so only the count tells a fused kernel from an unfused one.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["launch_bias_relu", "launch_guarded", "launch_matmul_tile", "launch_row_softmax", "place", "prepare"]

CANARY = -1234.0  # exactly representable in fp16 and fp32: a canary that changed was written


def prepare() -> None:
    """Import triton on the interpreter and launch a small kernel once (loads every library it uses)."""
    os.environ["TRITON_INTERPRET"] = "1"  # read by @triton.jit when it decorates (triton.knobs.runtime.interpret)
    warm_up = _warm_up_kernel()
    a = place(np.ones((16, 16), dtype=np.float16), "a")
    out = place(np.zeros((16, 16), dtype=np.float32), "out", output=True)
    launch_guarded(warm_up, (1, 1), [a.pointer, out.pointer, 16, a.strides[0], out.strides[0]], {"BLOCK": 16},
                   inputs=[a], outputs=[out])


def _triton(module: str = "triton") -> Any:
    """A triton module (imported by name: triton ships no type information for mypy)."""
    return importlib.import_module(module)


def _warm_up_kernel() -> Any:
    triton, tl = _triton(), _triton("triton.language")

    @triton.jit
    def warm_up(a_ptr, out_ptr, n, stride_a, stride_out, BLOCK: tl.constexpr):  # type: ignore[name-defined]  # noqa: N803
        rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
        mask = (rows[:, None] < n) & (cols[None, :] < n)
        a = tl.load(a_ptr + rows[:, None] * stride_a + cols[None, :], mask=mask, other=0.0)
        product = tl.dot(a, a, tl.zeros((BLOCK, BLOCK), dtype=tl.float32))
        scaled = tl.exp(product - tl.max(product, axis=1)[:, None]) / tl.sum(product, axis=1)[:, None]
        tl.store(out_ptr + rows[:, None] * stride_out + cols[None, :], tl.maximum(scaled, 0.0), mask=mask)

    return warm_up


class HostStorage:
    """The storage of a ``HostPointer``: Triton's interpreter copies a tensor's storage to the host
    and back around a launch; ours already is host memory, so both copies are the buffer itself."""

    def __init__(self, buffer: np.ndarray) -> None:
        self.buffer = buffer

    def data_ptr(self) -> int:
        return int(self.buffer.ctypes.data)

    def cpu(self) -> HostStorage:
        return self

    def copy_(self, other: HostStorage) -> HostStorage:
        return self


class HostPointer:
    """What the kernel gets for a tensor argument: an address in a NumPy buffer, with the few
    torch.Tensor methods Triton's interpreter calls on its arguments (``data_ptr``, ``dtype``, its
    storage). So grading loads neither torch nor CUDA libraries: only triton and NumPy."""

    def __init__(self, buffer: np.ndarray, offset: int = 0) -> None:
        self.buffer, self.offset, self.dtype = buffer, offset, buffer.dtype

    def data_ptr(self) -> int:
        return int(self.buffer.ctypes.data) + self.offset * self.buffer.itemsize

    def untyped_storage(self) -> HostStorage:
        return HostStorage(self.buffer)

    def new_empty(self, *size: Any, **options: Any) -> HostPointer:
        return HostPointer(self.buffer)

    def set_(self, storage: HostStorage, offset: int, size: Any, stride: Any) -> HostPointer:
        self.offset = offset
        return self

    def storage_offset(self) -> int:
        return self.offset

    def size(self) -> tuple[int, ...]:
        return ()

    def stride(self) -> tuple[int, ...]:
        return ()


@dataclass
class Placed:
    """An array placed inside a canary buffer at ``lead``, with element ``strides``."""

    name: str
    buffer: np.ndarray  # 1-D: canaries, then the elements (rows padded), then canaries
    lead: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]  # in elements
    before: np.ndarray  # a copy of ``buffer`` as it was before the launch
    once: bool = False  # each element may be loaded (an input) or stored (the output) once per launch

    def __post_init__(self) -> None:
        self.counts = np.zeros(self.buffer.size, dtype=np.int64)  # accesses per buffer element, during a launch

    @property
    def pointer(self) -> HostPointer:
        """What the kernel gets for this tensor: the address of its first element."""
        return HostPointer(self.buffer, self.lead)

    def offsets(self) -> np.ndarray:
        """Every element's position in ``buffer``."""
        offsets = np.zeros((), dtype=np.int64)
        for size, stride in zip(self.shape, self.strides, strict=True):
            offsets = offsets[..., None] + np.arange(size, dtype=np.int64) * stride
        return self.lead + offsets

    def values(self) -> np.ndarray:
        return self.buffer[self.offsets()].copy()

    def addresses(self) -> np.ndarray:
        """The byte address of every element (what a correct kernel may touch)."""
        return (int(self.buffer.ctypes.data) + self.offsets().ravel() * self.buffer.itemsize).astype(np.uint64)

    def holds(self, address: int) -> bool:
        """Is ``address`` inside this tensor's buffer (its canaries included)?"""
        start = int(self.buffer.ctypes.data)
        return start <= address < start + self.buffer.nbytes

    def where(self, address: int) -> str:
        """An address described for a learner, relative to this tensor's first element."""
        offset, rest = divmod(int(address) - self.pointer.data_ptr(), self.buffer.itemsize)
        shape = " × ".join(str(size) for size in self.shape)
        strides = ", ".join(str(stride) for stride in self.strides)
        at = ""
        if len(self.shape) == 2 and offset >= 0 and not rest:  # where the strides put it: row, column
            row_major = self.strides[0] >= self.strides[1]
            outer, inner = divmod(offset, max(self.strides))
            at = f", [row {outer}, column {inner}]" if row_major else f", [row {inner}, column {outer}]"
        return (f"{offset} elements{' and a few bytes' if rest else ''} from the start of {self.name}{at} "
                f"({self.name} is {shape} with strides ({strides}))")


def place(array: np.ndarray, name: str, output: bool = False, lead: int = 5, pad: int = 3, trail: int = 7,
          once: bool = False) -> Placed:
    """``array`` inside a canary buffer: ``lead`` canaries first, rows (or columns, for a transposed
    array) ``pad`` elements longer than needed, ``trail`` canaries at the end. An output starts as NaN,
    so an element the kernel never writes is wrong, not accidentally right. An output is always stored
    ``once``; an input is loaded once when the statement says so."""
    strides: tuple[int, ...]
    if array.ndim == 1:
        strides, span = (1,), array.shape[0]
    else:
        rows, cols = array.shape
        column_major = array.strides[0] < array.strides[1] and rows > 1 and cols > 1
        if column_major:
            strides, span = (1, rows + pad), cols * (rows + pad)
        else:
            strides, span = (cols + pad, 1), rows * (cols + pad)
    buffer = np.full(lead + span + trail, CANARY, dtype=array.dtype)
    placed = Placed(name, buffer, lead, tuple(array.shape), strides, buffer, once or output)
    buffer[placed.offsets()] = np.nan if output else array
    placed.before = buffer.copy()
    return placed


class OutOfBoundsError(IndexError):
    """A kernel touched memory outside its tensors (the interpreter would not have said so)."""


@contextmanager
def watched_accesses(readable: list[Placed], writable: list[Placed], found: list[str]) -> Iterator[None]:
    """During the launch: every unmasked load must hit an element of an argument, every unmasked
    store an element of the output; any other address is recorded in ``found`` and masked off."""
    interpreter = _triton("triton.runtime.interpreter")
    builder = interpreter.interpreter_builder
    may_read = np.unique(np.concatenate([placed.addresses() for placed in readable]))
    may_write = np.unique(np.concatenate([placed.addresses() for placed in writable]))
    original_load, original_store = builder.create_masked_load, builder.create_masked_store
    semantic = interpreter.interpreter_semantic
    original_semantic_load = semantic.load

    def allowed(kind: str, pointers: Any, mask: Any, addresses: np.ndarray) -> Any:
        lanes = np.broadcast_to(np.asarray(mask.data, dtype=bool), pointers.data.shape)
        outside = lanes & ~np.isin(pointers.data, addresses)
        if not outside.any():
            return mask
        first = int(pointers.data[outside].flat[0])
        nearest = min(readable, key=lambda placed: (not placed.holds(first), abs(first - placed.pointer.data_ptr())))
        program = tuple(int(i) for i in builder.grid_idx)
        found.append(f"program {program} {kind} {int(outside.sum())} element(s) outside "
                     f"{'the output' if kind == 'stored' else 'its tensors'}, e.g. {nearest.where(first)}")
        return interpreter.TensorHandle(lanes & ~outside, mask.dtype)

    def count(kind: str, pointers: Any, mask: Any) -> None:
        """Add the lanes that reach memory to the tally of the tensor they hit."""
        touched = pointers.data[np.broadcast_to(np.asarray(mask.data, dtype=bool), pointers.data.shape)]
        for placed in (readable if kind == "loaded" else writable):
            start = int(placed.buffer.ctypes.data)
            mine = touched[(touched >= start) & (touched < start + placed.buffer.nbytes)]
            np.add.at(placed.counts, ((mine - start) // placed.buffer.itemsize).astype(np.int64), 1)

    def load(pointers: Any, mask: Any, other: Any, cache_policy: Any, is_volatile: Any) -> Any:
        mask = allowed("loaded", pointers, mask, may_read)
        count("loaded", pointers, mask)
        return original_load(pointers, mask, other, cache_policy, is_volatile)

    def store(pointers: Any, value: Any, mask: Any, cache_policy: Any) -> Any:
        mask = allowed("stored", pointers, mask, may_write)
        count("stored", pointers, mask)
        return original_store(pointers, value, mask, cache_policy)

    def semantic_load(pointer: Any, mask: Any, other: Any, cache_policy: Any, is_volatile: Any) -> Any:
        """``tl.load(..., mask=m)`` without ``other``: the masked-off lanes are undefined, so they read NaN."""
        if mask is not None and other is None and pointer.type.scalar.element_ty.is_floating():
            other = semantic.to_tensor(float("nan"))
        return original_semantic_load(pointer, mask, other, cache_policy, is_volatile)

    builder.create_masked_load, builder.create_masked_store = load, store
    semantic.load = semantic_load
    try:
        yield
    finally:
        del builder.create_masked_load, builder.create_masked_store  # the class's methods again
        del semantic.load


def canary_problems(inputs: list[Placed], outputs: list[Placed]) -> list[str]:
    """Every buffer's bits after the launch, outside the output's own elements, must be as before."""
    problems = []
    for placed in [*inputs, *outputs]:
        bits = np.dtype(f"u{placed.buffer.itemsize}")
        changed = placed.buffer.view(bits) != placed.before.view(bits)
        if placed in outputs:  # its elements may change: look at the rest
            changed[placed.offsets().ravel()] = False
        if changed.any():
            at = int(np.flatnonzero(changed)[0])
            kind = "an input" if placed in inputs else "the output's buffer outside the output"
            problems.append(f"{int(changed.sum())} element(s) of {kind} changed: a store out of bounds, e.g. "
                            f"{placed.where(int(placed.buffer.ctypes.data) + at * placed.buffer.itemsize)}")
    return problems


def repeated_problems(inputs: list[Placed], outputs: list[Placed]) -> list[str]:
    """Elements loaded (an input placed ``once``) or stored (an output) more than once in the launch."""
    problems = []
    for placed, done, promise in [*((placed, "loaded", "one read") for placed in inputs),
                                  *((placed, "stored", "one write") for placed in outputs)]:
        if not placed.once:
            continue
        again = placed.counts > 1
        if again.any():
            at = int(np.flatnonzero(again)[0])
            problems.append(f"{int(again.sum())} element(s) of {placed.name} were {done} more than once (the "
                            f"statement asks for {promise} of each), e.g. {int(placed.counts[at])} times: "
                            f"{placed.where(int(placed.buffer.ctypes.data) + at * placed.buffer.itemsize)}")
    return problems


class RepeatedAccessError(RuntimeError):
    """A kernel loaded or stored an element more often than its statement allows (a second pass)."""


def launch_guarded(kernel: Any, grid: tuple[int, ...], arguments: list[Any], constants: dict[str, int],
                   inputs: list[Placed], outputs: list[Placed]) -> None:
    """``kernel[grid](*arguments, **constants)`` with every access watched and the canaries checked after."""
    if not isinstance(kernel, _triton("triton.runtime.jit").KernelInterface):
        raise TypeError(f"expected a Triton kernel (a function decorated with @triton.jit), got {type(kernel).__name__}")
    found: list[str] = []
    with watched_accesses([*inputs, *outputs], outputs, found):
        try:
            kernel[grid](*arguments, **constants)
        except Exception as error:  # the interpreter wraps what the kernel raised: show the learner that
            if type(error).__name__ == "InterpreterError" and isinstance(error.__cause__, Exception):
                raise error.__cause__ from None
            raise
    problems = found[:1] + canary_problems(inputs, outputs)
    if problems:
        raise OutOfBoundsError("out-of-bounds access (masks?): " + "; ".join(problems))
    repeated = repeated_problems(inputs, outputs)
    if repeated:
        raise RepeatedAccessError("; ".join(repeated))


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def output_of(placed: Placed) -> np.ndarray:
    return placed.values()


Harness = Callable[[Any, tuple], np.ndarray]


def launch_bias_relu(kernel: Any, arguments: tuple) -> np.ndarray:
    """``out = relu(x + bias)``: grid (row blocks, column blocks), x's and out's row strides differ."""
    x, bias, block_rows, block_cols = arguments
    rows, cols = x.shape
    placed_x, placed_bias = place(x, "x", pad=3, once=True), place(bias, "bias")  # "one read of x, one write of out"
    out = place(np.zeros(x.shape, dtype=np.float32), "out", output=True, pad=5)
    launch_guarded(kernel, (cdiv(rows, block_rows), cdiv(cols, block_cols)),
                   [placed_x.pointer, placed_bias.pointer, out.pointer, rows, cols, placed_x.strides[0], out.strides[0]],
                   {"BLOCK_ROWS": block_rows, "BLOCK_COLS": block_cols}, [placed_x, placed_bias], [out])
    return output_of(out)


def launch_row_softmax(kernel: Any, arguments: tuple) -> np.ndarray:
    """Softmax of each row: one program per row (grid (rows,)), BLOCK a power of two ≥ the row."""
    x, block = arguments
    rows, cols = x.shape
    placed_x = place(x, "x", pad=3, once=True)  # "the row is loaded once"
    out = place(np.zeros(x.shape, dtype=np.float32), "out", output=True, pad=5)
    launch_guarded(kernel, (rows,), [placed_x.pointer, out.pointer, cols, placed_x.strides[0], out.strides[0]],
                   {"BLOCK": block}, [placed_x], [out])
    return output_of(out)


def launch_matmul_tile(kernel: Any, arguments: tuple) -> np.ndarray:
    """``c = a @ b`` (fp16 in, fp32 out): one (BLOCK_M, BLOCK_N) tile of c per program, grid (M tiles, N tiles)."""
    a, b, block_m, block_n, block_k = arguments
    (m, k), n = a.shape, b.shape[1]
    placed_a, placed_b = place(a, "a", pad=3), place(b, "b", pad=2)
    c = place(np.zeros((m, n), dtype=np.float32), "c", output=True, pad=5)
    launch_guarded(kernel, (cdiv(m, block_m), cdiv(n, block_n)),
                   [placed_a.pointer, placed_b.pointer, c.pointer, m, n, k, *placed_a.strides, *placed_b.strides,
                    *c.strides],
                   {"BLOCK_M": block_m, "BLOCK_N": block_n, "BLOCK_K": block_k}, [placed_a, placed_b], [c])
    return output_of(c)
