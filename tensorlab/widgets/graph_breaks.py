"""GraphBreakExplorer: a function's source, each line coloured by the compiled graph it falls in.

``torch._dynamo.explain(fn)(x)`` reports the graphs Dynamo made of ``fn`` and, for every graph
break, the line and the reason. The model stores that report for a few example functions (the
ones unit 14 runs), so the explorer draws without importing torch or compiling anything;
tests/test_widgets_graph_breaks.py runs ``explain`` on the same sources and checks that the stored
breaks are torch's.

The picture: one row per source line. Lines before the first break belong to graph 1, lines after
break k to graph k + 1 (the graph Dynamo resumes with); the line that breaks is drawn in red, with
the reason beside it. Hover a line to light up every line of its graph.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import Explorer
from .svg import COLOURS, Svg

__all__ = ["EXAMPLES", "GraphBreakExplorer", "GraphBreakModel"]

ROW = 22
CODE_LEFT = 110
REASON_LEFT = 470
GRAPH_FILLS = ("#4c78a8", "#54a24b", "#f58518", "#b279a2")


@dataclass(frozen=True)
class Example:
    source: str  # the function, as the notebook defines it
    breaks: tuple[tuple[int, str, str], ...]  # (line in the function, 1 = def; explain's reason; in plain words)


EXAMPLES: dict[str, Example] = {
    "with_print": Example(
        'def with_print(x):\n    y = x.sin()\n    print("y computed")\n    return y * 2\n',
        ((3, "Failed to trace builtin operator", "print is I/O: it must run in Python, at this point"),),
    ),
    "with_item": Example(
        "def with_item(x):\n    total = x.sum().item()\n    return x / total\n",
        ((2, "Unsupported Tensor.item() call with capture_scalar_outputs=False",
          ".item() makes a Python number out of data"),),
    ),
    "with_branch": Example(
        "def with_branch(x):\n    if x.sum() > 0:\n        return x.cos()\n    return x.sin()\n",
        ((2, "generic_jump TensorVariable()", "which branch runs depends on the tensor's values"),),
    ),
    "with_unsupported_call": Example(
        "def with_unsupported_call(x):\n    y = x + 1\n    os.getpid()\n    return y * 2\n",
        ((3, "Attempted to call function marked as skipped", "a C function Dynamo does not know how to trace"),),
    ),
    "two_breaks": Example(
        'def two_breaks(x):\n    y = x * 2\n    print("half way")\n    s = y.sum().item()\n    return y - s\n',
        ((3, "Failed to trace builtin operator", "print is I/O: it must run in Python, at this point"),
         (4, "Unsupported Tensor.item() call with capture_scalar_outputs=False", ".item() makes a Python number out of data")),
    ),
}


@dataclass(frozen=True)
class SourceLine:
    number: int  # 1 = the def line
    text: str
    graph: int | None  # 1, 2, ...: the graph the line's ops go to (None: the def line)
    reason: str = ""  # explain's reason, when this line breaks the graph
    plain: str = ""  # the reason in plain words


class GraphBreakModel:
    """The lines of one example function, with their graphs and breaks."""

    def __init__(self, name: str) -> None:
        if name not in EXAMPLES:
            raise ValueError(f"unknown example {name!r}; known: {', '.join(EXAMPLES)}")
        self.name = name
        example = EXAMPLES[name]
        reasons = {line: (reason, plain) for line, reason, plain in example.breaks}
        self.lines: list[SourceLine] = []
        graph = 1
        for number, text in enumerate(example.source.rstrip("\n").splitlines(), start=1):
            reason, plain = reasons.get(number, ("", ""))
            self.lines.append(SourceLine(number, text, None if number == 1 else graph, reason, plain))
            if reason:
                graph += 1  # the code after a break goes to the graph Dynamo resumes with

    @property
    def graph_count(self) -> int:
        return len(EXAMPLES[self.name].breaks) + 1

    @property
    def break_count(self) -> int:
        return len(EXAMPLES[self.name].breaks)

    def describe(self) -> str:
        return (f"{self.name}: {self.graph_count} graphs, {self.break_count} graph break"
                f"{'' if self.break_count == 1 else 's'} (torch._dynamo.explain)")


class GraphBreakExplorer(Explorer):
    """``GraphBreakExplorer("with_item")``: the function's lines coloured by graph, breaks explained."""

    def __init__(self, name: str = "with_print") -> None:
        self.model = GraphBreakModel(name)

    def summary(self) -> str:
        return self.model.describe()

    def to_svg(self) -> str:
        svg = Svg("tl-graph-breaks")
        svg.label(0, 14, self.model.describe(), COLOURS["muted"])
        for row, line in enumerate(self.model.lines):
            y = 26 + row * ROW
            elements = []
            if line.graph is not None:
                fill = GRAPH_FILLS[(line.graph - 1) % len(GRAPH_FILLS)]
                elements.append(svg.rect(CODE_LEFT - 6, y, REASON_LEFT - CODE_LEFT - 4, ROW - 2, fill=fill, fill_opacity="0.25",
                                         stroke=COLOURS["error"] if line.reason else "none", stroke_width=2 if line.reason else 0))
                tag = f"graph {line.graph}" + (" ✗ break" if line.reason else "")
                elements.append(svg.text(0, y + 15, tag, fill=COLOURS["error"] if line.reason else COLOURS["muted"], font_size=11))
            elements.append(svg.text(CODE_LEFT, y + 15, line.text, fill=COLOURS["text"], font_size=12))
            if line.reason:
                elements.append(svg.text(REASON_LEFT, y + 15, f"← {line.plain}", fill=COLOURS["error"], font_size=11))
                info = f"line {line.number} breaks graph {line.graph}: {line.reason} ({line.plain})"
            elif line.graph is None:
                info = "the def line: no ops"
            else:
                info = f"line {line.number}: its ops go to graph {line.graph}"
            same = [f"line:{other.number}" for other in self.model.lines if other.graph == line.graph and line.graph is not None]
            svg.group(elements, f"line:{line.number}", same, info, class_="tl-cell")
        return str(svg)

    def _controls(self, widgets: Any) -> list:
        menu = widgets.Dropdown(options=list(EXAMPLES), value=self.model.name, description="function")

        def pick(change: Any) -> None:
            self.model = GraphBreakModel(change["new"])
            self._refresh()

        menu.observe(pick, names="value")
        return [menu]
