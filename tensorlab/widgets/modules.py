"""ModuleExplorer: a model's module tree with its parameters, and where a forward pass enters and
leaves each module — which is where the module's hooks fire.

The model walks ``named_modules()`` (the tree, each module once, as ``state_dict`` names it) and
each module's own ``_parameters``. Given an example input it runs one forward pass with a
forward pre-hook (put first) and a forward hook (put last) on every module, so it records, in
order, when each module is entered and left and the shapes that go in and come out: a module's
own pre-hooks fire right after "enter", its forward hooks right before "leave". Functions called
inside ``forward`` (``F.relu``) are not modules: they never appear, and no hook sees them.

Works on tensorlab and torch modules alike (only ``named_modules``, ``_parameters``, the hook
dicts and ``register_forward_*_hook`` are used); the tests compare the two.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import ModelExplorer
from .svg import COLOURS, Svg, operand_colour

__all__ = ["CallEvent", "ModuleExplorer", "ModuleModel", "ModuleNode"]

ROW = 22  # px between rows of the tree and of the call list


@dataclass(frozen=True)
class ModuleNode:
    """One module of the tree: its dotted path ('' for the model itself) and what it holds."""

    path: str
    depth: int
    kind: str  # the class name
    extra: str  # extra_repr(): the constructor arguments
    parameters: tuple[tuple[str, tuple[int, ...], int], ...]  # own (name, shape, numel)
    total: int  # parameters of the module and everything below it, each counted once
    hooks: tuple[tuple[str, int], ...]  # ("forward pre", 1), ("forward", 2), ("full backward", 1): user hooks

    @property
    def label(self) -> str:
        return self.path or "(model)"


@dataclass(frozen=True)
class CallEvent:
    """A forward pass entering or leaving one module, with the shapes of what went in or came out."""

    path: str
    phase: str  # "enter" or "leave"
    shapes: str


def _shapes(value: Any) -> str:
    """'(2, 3)' for a tensor, '(2, 3), (2,)' for a tuple of them, the type name otherwise."""
    if hasattr(value, "shape"):
        return str(tuple(int(size) for size in value.shape))
    if isinstance(value, (tuple, list)):
        return ", ".join(_shapes(item) for item in value) or "()"
    return type(value).__name__


def _user_hooks(module: Any) -> tuple[tuple[str, int], ...]:
    counts = (("forward pre", len(module._forward_pre_hooks)), ("forward", len(module._forward_hooks)),
              ("full backward", len(module._backward_hooks)))
    return tuple((kind, count) for kind, count in counts if count)


class ModuleModel:
    """``ModuleModel(module, example=None)``: the tree, and the calls of one forward pass on ``example``."""

    def __init__(self, module: Any, example: Any = None) -> None:
        self.module = module
        self.nodes = [self._node(path, child) for path, child in module.named_modules()]
        self.calls: list[CallEvent] = [] if example is None else self._record_calls(example)

    @staticmethod
    def _node(path: str, module: Any) -> ModuleNode:
        own = tuple((name, tuple(int(s) for s in p.shape), int(p.numel()))
                    for name, p in module._parameters.items() if p is not None)
        total = sum(int(p.numel()) for p in module.parameters())
        return ModuleNode(path, path.count(".") + 1 if path else 0, type(module).__name__, module.extra_repr(),
                          own, total, _user_hooks(module))

    def _record_calls(self, example: Any) -> list[CallEvent]:
        """Run ``module(example)`` once with recording hooks on every module, then take them off."""
        calls: list[CallEvent] = []
        handles = []
        for path, module in self.module.named_modules():
            def enter(mod: Any, args: Any, path: str = path) -> None:
                calls.append(CallEvent(path, "enter", _shapes(args)))

            def leave(mod: Any, args: Any, output: Any, path: str = path) -> None:
                calls.append(CallEvent(path, "leave", _shapes(output)))

            handles.append(module.register_forward_pre_hook(enter, prepend=True))
            handles.append(module.register_forward_hook(leave))
        try:
            self.module(example)
        finally:
            for handle in handles:
                handle.remove()
        return calls

    def node(self, path: str) -> ModuleNode:
        return next(node for node in self.nodes if node.path == path)

    @property
    def total(self) -> int:
        return self.nodes[0].total

    def hooks_at(self, event: CallEvent) -> list[str]:
        """The user's hooks that fire at this event: pre-hooks after 'enter', forward hooks before 'leave'."""
        wanted = "forward pre" if event.phase == "enter" else "forward"
        return [f"{count} {kind} hook{'s' if count > 1 else ''}" for kind, count in self.node(event.path).hooks if kind == wanted]

    def describe(self) -> str:
        root = self.nodes[0]
        text = f"{root.kind} holds {len(self.nodes)} modules and {self.total:,} parameters"
        if self.calls:
            entered = sum(1 for event in self.calls if event.phase == "enter")
            text += f"; one forward pass enters a module {entered} times"
        hooked = [node.label for node in self.nodes if node.hooks]
        if hooked:
            text += f"; hooks on {', '.join(hooked)}"
        return text


def _fire(hooks: list[str]) -> str:
    """'1 forward hook fires', '2 forward hooks fire'."""
    return f"{' and '.join(hooks)} {'fires' if hooks[0].startswith('1 ') else 'fire'}"


def _parameter_text(node: ModuleNode) -> str:
    own = ", ".join(f"{name} {shape}" for name, shape, _ in node.parameters)
    return f"{own}  = {node.total:,}" if own else (f"total {node.total:,}" if node.total else "")


def render_svg(model: ModuleModel) -> str:
    """Left: the tree, one row per module with its parameters. Right: the forward pass, one row per event."""
    svg = Svg("tl-modules")
    svg.label(4, 14, "module tree (named_modules) and parameters", COLOURS["muted"], 11)
    events_of: dict[str, list[str]] = {}
    for number, event in enumerate(model.calls):
        events_of.setdefault(event.path, []).append(f"call:{number}")
    width = max(len(f"{'  ' * node.depth}{node.label}: {node.kind}  {_parameter_text(node)}") for node in model.nodes)
    for row, node in enumerate(model.nodes):
        y = 24 + row * ROW
        x = 6 + node.depth * 16
        colour = operand_colour(0) if node.parameters else COLOURS["text"]
        parts = [svg.rect(x - 3, y, width * 7.5 - x + 12, ROW - 4, fill="#ffffff", stroke="#dddddd"),
                 svg.text(x, y + 13, f"{node.label}: {node.kind}", fill=colour, font_size=12),
                 svg.text(x + 7.5 * (len(node.label) + len(node.kind) + 4), y + 13, _parameter_text(node),
                          fill=COLOURS["muted"], font_size=11)]
        hooks = ", ".join(f"{kind} ×{count}" for kind, count in node.hooks)
        if hooks:
            parts.append(svg.text(width * 7.5 + 14, y + 13, f"hooks: {hooks}", fill=COLOURS["error"], font_size=11))
        arguments = f"({node.extra})" if node.extra else "()"
        info = (f"{node.label} is {node.kind}{arguments}: {node.total:,} parameters"
                + (f" ({', '.join(f'{name} {shape} = {n:,}' for name, shape, n in node.parameters)})" if node.parameters else "")
                + (f"; hooks: {hooks}" if hooks else ""))
        svg.group(parts, f"module:{node.path}", events_of.get(node.path, []), info, class_="tl-module")
    if model.calls:
        left = width * 7.5 + 40 + (150 if any(node.hooks for node in model.nodes) else 0)
        svg.label(left, 14, "one forward pass: where each module is entered and left", COLOURS["muted"], 11)
        for number, event in enumerate(model.calls):
            y = 24 + number * ROW
            depth = model.node(event.path).depth
            arrow, verb = ("▶", "enter") if event.phase == "enter" else ("◀", "leave")
            fired = model.hooks_at(event)
            text = f"{number + 1:>2} {arrow} {verb} {event.path or '(model)'}  {'in' if verb == 'enter' else 'out'} {event.shapes}"
            row_width = 7.5 * len(text) + (12 + 7.5 * len(_fire(fired)) + 24 if fired else 8)
            parts = [svg.rect(left + 12 * depth - 4, y, row_width, ROW - 4, fill="#ffffff", stroke="none"),  # the hover area
                     svg.text(left + 12 * depth, y + 13, text, fill=COLOURS["result"] if verb == "leave" else COLOURS["text"], font_size=12)]
            if fired:
                parts.append(svg.text(left + 12 * depth + 7.5 * len(text) + 12, y + 13, f"⚓ {_fire(fired)}", fill=COLOURS["error"], font_size=11))
            info = (f"step {number + 1}: {verb} {event.path or '(model)'} ({model.node(event.path).kind}) with "
                    f"{'input' if verb == 'enter' else 'output'} {event.shapes}"
                    + (f"; {_fire(fired)} here" if fired else "; no hook of yours fires here"))
            svg.group(parts, f"call:{number}", [f"module:{event.path}"], info, class_="tl-call")
    return str(svg)


class ModuleExplorer(ModelExplorer):
    """``ModuleExplorer(module, example=None)``: hover a module to light up its calls, or a call to find its module."""

    render = staticmethod(render_svg)

    def __init__(self, module: Any, example: Any = None) -> None:
        self.model = ModuleModel(module, example)
