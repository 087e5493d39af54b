"""VmapExplorer: how the batch dim moves through each op of a function under ``vmap``.

The model runs ``tensorlab.func.vmap(function, in_dims)`` on an input of the given shape, with a
:class:`VmapRecorder` -- a function mode (``tensorlab/overrides.py``) -- entered inside the function,
on top of vmap's own mode: it sees each op first, passes it down to vmap, and records every op the
function ran on a batched value, with every operand's *logical* shape (what the function sees, one
sample) and *physical* shape (what is stored: the batch dim first), and whether the op had a
batching rule or fell back to the loop. It does not simulate vmap: it is vmap, watched.

The picture: a row per step. The first row is the input, with ``in_dims`` moved to the front;
then one row per op, its operands' shapes as ``logical ⟶ [B, ...physical]`` (the batch dim in
amber), its result, and the rule used (a loop in red); the last row is the output, with the
batch dim moved to ``out_dims``. Hover an op to light up the steps whose results it read.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..overrides import FunctionMode
from .base import ModelExplorer
from .svg import COLOURS, Svg

__all__ = ["VmapExplorer", "VmapModel", "VmapRecorder", "VmapStep"]

ROW = 34
LEFT = 10


@dataclass(frozen=True)
class VmapStep:
    """One op under vmap: operand shapes (logical, physical) in and out, and the steps it read from."""

    op: str
    rule: str  # "batching rule" | "loop" | "input" | "output"
    inputs: tuple[tuple[tuple[int, ...], tuple[int, ...], bool], ...]  # (logical, physical, batched)
    outputs: tuple[tuple[tuple[int, ...], tuple[int, ...], bool], ...]
    reads: tuple[int, ...] = field(default=())  # the steps whose results this one uses


class VmapRecorder(FunctionMode):
    """A mode that lets each op run (through vmap's mode below it) and records the ones on batched values.

    ``records`` holds one dict per op: its name as the rules know it, the innermost level, "batching
    rule" or "loop", operand and result shapes (logical and physical), and ids linking an op to the
    ops whose results it read; ``watch`` adds the row for the function's inputs.
    """

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def watch(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """``function`` with this recorder entered around its body (so above the vmap that calls it)."""

        def watched(*inputs: Any) -> Any:
            self.records.append({"op": "<input>", "output_ids": [id(i) for i in inputs], "keep": inputs})
            with self:
                return function(*inputs)

        watched.__name__ = getattr(function, "__name__", "f")
        return watched

    def __tensorlab_function__(self, func: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> Any:
        from ..func.batched import OPERATORS, BatchedTensor
        from ..func.rules import RULES, tensors_in

        result = func(*args, **kwargs)
        name, _, reflected = OPERATORS.get(func.__name__, (func.__name__, None, False))
        operands = (args[1], args[0]) if reflected else args
        batched = [t for t in tensors_in(operands, kwargs) if isinstance(t, BatchedTensor)]
        if batched:
            level = max(t.level for t in batched)
            self.records.append(_record(name, level, operands, kwargs, result, name in RULES))
        return result


def _shapes(x: Any) -> Any:
    from ..func.batched import BatchedTensor

    if isinstance(x, BatchedTensor):
        return {"logical": list(x.shape), "physical": list(x.value.shape), "level": x.level}
    if hasattr(x, "shape"):
        return {"logical": list(x.shape), "physical": list(x.shape), "level": None}
    if isinstance(x, (list, tuple)) and x and all(hasattr(i, "shape") for i in x):
        return [_shapes(i) for i in x]
    return None


def _record(name: str, level: int, args: tuple, kwargs: dict, result: Any, has_rule: bool) -> dict[str, Any]:
    """One op as VmapExplorer draws it: shapes in and out, and ids that link an op to the ops it read from."""
    given = [a for a in (*args, *kwargs.values()) if _shapes(a) is not None]
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    return {
        "op": name, "level": level, "rule": "batching rule" if has_rule else "loop",
        "inputs": [_shapes(a) for a in given], "outputs": [_shapes(r) for r in results],
        "input_ids": [id(a) for a in given], "output_ids": [id(r) for r in results],
        "keep": (given, results),  # the objects stay alive while the record does, so their ids stay unique
    }


def _shape_triple(record: Any) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    return tuple(record["logical"]), tuple(record["physical"]), record["level"] is not None


def _flat(shapes: list[Any]) -> list[Any]:
    return [item for s in shapes for item in (s if isinstance(s, list) else [s]) if item is not None]


class VmapModel:
    """``vmap(function, in_dims)`` run on an input of ``shape``, op by op.

    ``function`` is a callable or the source of a lambda (``"lambda x: x.sum(0)"``), evaluated with
    ``torch`` bound to tensorlab.
    """

    def __init__(self, function: Callable[..., Any] | str, shape: tuple[int, ...], in_dims: int = 0, out_dims: int = 0) -> None:
        import tensorlab
        from tensorlab.func import vmap

        self.source = function if isinstance(function, str) else getattr(function, "__name__", "f")
        fn = eval(function, {"torch": tensorlab, "tl": tensorlab}) if isinstance(function, str) else function
        self.shape, self.in_dims, self.out_dims = tuple(shape), in_dims, out_dims
        if not -len(self.shape) <= in_dims < max(len(self.shape), 1) or not self.shape:
            raise ValueError(f"in_dims={in_dims} is not a dim of an input of shape {list(self.shape)}")
        self.batch = self.shape[in_dims]
        x = tensorlab.arange(float(max(1, _numel(self.shape)))).reshape(self.shape) if _numel(self.shape) else tensorlab.zeros(self.shape)
        recorder = VmapRecorder()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = vmap(recorder.watch(fn), in_dims=in_dims, out_dims=out_dims)(x)
        records = recorder.records
        self.warnings = [str(w.message) for w in caught]
        self.result_shape = tuple(result.shape) if hasattr(result, "shape") else ()
        logical_in = tuple(s for d, s in enumerate(self.shape) if d != in_dims % len(self.shape))
        self.steps: list[VmapStep] = [VmapStep("input", "input", ((self.shape, self.shape, False),), ((logical_in, (self.batch, *logical_in), True),))]
        producers: dict[int, int] = {}
        for record in records:
            if record["op"] == "<input>":  # vmap wrapping its input: the first row
                producers.update(dict.fromkeys(record["output_ids"], 0))
                continue
            number = len(self.steps)
            self.steps.append(VmapStep(
                record["op"], record["rule"],
                tuple(_shape_triple(r) for r in _flat(record["inputs"])),
                tuple(_shape_triple(r) for r in _flat(record["outputs"])),
                tuple(sorted({producers[i] for i in record["input_ids"] if i in producers})),
            ))
            producers.update(dict.fromkeys(record["output_ids"], number))
        last = self.steps[-1].outputs[0] if len(self.steps) > 1 and self.steps[-1].outputs else self.steps[0].outputs[0]
        self.steps.append(VmapStep("output", "output", (last,), ((self.result_shape, self.result_shape, False),), (len(self.steps) - 1,)))

    def describe(self) -> str:
        ops = len(self.steps) - 2
        loops = [s.op for s in self.steps if s.rule == "loop"]
        fallback = f"; no rule for {', '.join(loops)}: a loop over the batch" if loops else "; every op had a batching rule"
        return (f"vmap over dim {self.in_dims} of {list(self.shape)}: a batch of {self.batch}, {ops} op(s) on batched values"
                f"{fallback}; result {list(self.result_shape)} (batch dim at {self.out_dims})")

    def explain(self, number: int) -> str:
        step = self.steps[number]
        if step.rule == "input":
            return f"the input {list(self.shape)}: dim {self.in_dims} (size {self.batch}) becomes the batch dim, moved to the front"
        if step.rule == "output":
            return f"the result: the batch dim moved to dim {self.out_dims}, giving {list(self.result_shape)}"
        ins = ", ".join(_describe(t) for t in step.inputs)
        outs = ", ".join(_describe(t) for t in step.outputs)
        how = "its batching rule: one call on the whole batch" if step.rule == "batching rule" else f"no rule: a Python loop of {self.batch} calls, stacked"
        return f"{step.op}: {ins} → {outs}; {how}"


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _describe(triple: tuple[tuple[int, ...], tuple[int, ...], bool]) -> str:
    logical, physical, batched = triple
    if not batched:
        return f"{list(logical)} (not batched)"
    return f"logical {list(logical)}, physical {list(physical)}"


def render_svg(model: VmapModel) -> str:
    svg = Svg("tl-vmap")
    svg.label(LEFT, 16, "op        operands: logical shape  ⟶  physical [batch, ...]            result", COLOURS["muted"])
    for number, step in enumerate(model.steps):
        y = 28 + number * ROW
        special = step.rule in ("input", "output")
        colour = COLOURS["error"] if step.rule == "loop" else COLOURS["muted"] if special else COLOURS["function"]
        parts = [svg.rect(LEFT, y, 90, ROW - 8, fill=colour, fill_opacity="0.25", stroke=colour),
                 svg.text(LEFT + 45, y + 17, step.op, text_anchor="middle", font_size=12, fill=COLOURS["text"])]
        x: float = LEFT + 100
        for triple in step.inputs:
            x = _shape_box(svg, parts, x, y, triple, COLOURS["operands"][0])
        parts.append(svg.text(x, y + 17, "→", font_size=14, fill=COLOURS["text"]))
        x += 20
        for triple in step.outputs:
            x = _shape_box(svg, parts, x, y, triple, COLOURS["result"])
        if not special:
            loop = step.rule == "loop"
            parts.append(svg.text(x + 4, y + 17, f"loop ×{model.batch}" if loop else "rule", font_size=11,
                                  fill=COLOURS["error"] if loop else COLOURS["muted"]))
        svg.group(parts, f"step:{number}", [f"step:{r}" for r in step.reads], model.explain(number), class_="tl-cell")
    return str(svg)


def _shape_box(svg: Svg, parts: list[str], x: float, y: float, triple: tuple[tuple[int, ...], tuple[int, ...], bool], colour: str) -> float:
    """``(3, 4) ⟶ [5, 3, 4]`` with the batch entry in amber; returns the x after it."""
    logical, physical, batched = triple
    text = str(tuple(logical))
    parts.append(svg.text(x, y + 17, text, font_size=12, fill=colour))
    x += 8 * len(text) + 6
    if batched and physical:
        parts.append(svg.text(x, y + 17, "⟶ [", font_size=12, fill=COLOURS["muted"]))
        x += 26
        parts.append(svg.text(x, y + 17, str(physical[0]), font_size=12, fill=COLOURS["highlight"], font_weight="bold"))
        x += 8 * len(str(physical[0]))
        rest = "".join(f", {s}" for s in physical[1:]) + "]"
        parts.append(svg.text(x, y + 17, rest, font_size=12, fill=COLOURS["muted"]))
        x += 8 * len(rest) + 10
    return x + 6


class VmapExplorer(ModelExplorer):
    """``VmapExplorer("lambda x: x.sum(0)", (5, 3, 4))``: each op of the function under vmap, its shapes logical and physical."""

    render = staticmethod(render_svg)

    def __init__(self, function: Callable[..., Any] | str = "lambda x: (x.sin() * x).sum(0) @ torch.ones(4, 2)",
                 shape: tuple[int, ...] = (5, 3, 4), in_dims: int = 0, out_dims: int = 0) -> None:
        self.model = VmapModel(function, shape, in_dims, out_dims)

    def _controls(self, widgets: Any) -> list:
        source = widgets.Text(value=self.model.source, description="function", layout=widgets.Layout(width="60%"))
        shape = widgets.Text(value=str(list(self.model.shape)), description="input shape")
        dims = widgets.IntText(value=self.model.in_dims, description="in_dims", layout=widgets.Layout(width="160px"))

        def rebuild(_: Any) -> None:
            try:
                parsed = tuple(int(s) for s in shape.value.strip("[]() ").split(",") if s.strip())
                self.model = VmapModel(source.value, parsed, dims.value, self.model.out_dims)
                self.problem = ""
            except Exception as error:
                self.problem = f"{type(error).__name__}: {error}"
            self._refresh()

        for control in (source, shape, dims):
            control.observe(rebuild, names="value")
        return [widgets.HBox([source, shape, dims])]
