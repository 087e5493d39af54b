"""PrecisionExplorer: its model against torch (the stored value is torch's conversion, the bits are
torch's bit pattern, the ticks are torch's neighbouring values), its SVG (snapshots, hover links,
every tick's bits) and its display in a notebook.

After an intended change to a picture, regenerate with ``UPDATE_SNAPSHOTS=1`` and review the
diff of ``tests/snapshots/``.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import nbformat
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from tensorlab.widgets import PrecisionExplorer, PrecisionModel
from tensorlab.widgets.precision import parse_number
from tensorlab.widgets.svg import text_width
from tests.svg_snapshots import SNAPSHOTS, SVG_KEY, assert_matches_snapshot, hover_groups

TORCH_DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16,
                "fp8_e4m3": torch.float8_e4m3fn, "fp8_e5m2": torch.float8_e5m2}
INTEGER_VIEWS = {8: torch.uint8, 16: torch.int16, 32: torch.int32}


def torch_stored(x: float, fmt: str) -> float:
    return torch.tensor(x, dtype=torch.float64).to(TORCH_DTYPES[fmt]).item()


def torch_bits(value: float, fmt: str) -> str:
    """The bit pattern torch stores for a value of the format, as a string of 0s and 1s."""
    dtype = TORCH_DTYPES[fmt]
    width = torch.finfo(dtype).bits
    code = int(torch.tensor([value], dtype=torch.float64).to(dtype).view(INTEGER_VIEWS[width]).item())
    return format(code & (2**width - 1), f"0{width}b")


# --- the model ------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(x=st.floats(allow_nan=False, width=64), fmt=st.sampled_from(list(TORCH_DTYPES)))
def test_model_stores_what_torch_stores_with_torchs_bits(x: float, fmt: str) -> None:
    model = PrecisionModel(x, fmt)
    expected = torch_stored(x, fmt)
    assert model.rounded == expected and math.copysign(1, model.rounded) == math.copysign(1, expected)
    assert "".join(model.bits) == torch_bits(x, fmt)
    assert model.line == sorted(model.line) and len(model.line) <= 2 * model.count + 1
    assert all(torch_stored(value, fmt) == value for value in model.line)  # every tick is a value of the format
    if math.isfinite(expected):
        assert expected in model.line
        assert model.error == expected - x


def test_the_ticks_are_torchs_consecutive_values() -> None:
    """Between two neighbouring ticks torch stores nothing else: the midpoint rounds to one of them."""
    model = PrecisionModel(0.1, "fp16", count=3)
    for below, above in zip(model.line, model.line[1:], strict=False):
        step = (above - below) / 4
        assert {torch_stored(below + step, "fp16"), torch_stored(above - step, "fp16")} == {below, above}


def test_describe_says_what_torch_does_at_the_edges() -> None:
    assert torch_stored(1e10, "fp16") == math.inf
    assert "x overflows: beyond 65504 the nearest value is inf" in PrecisionModel(1e10, "fp16").describe()
    assert torch_stored(1000.0, "fp8_e4m3") == 448.0 and torch_stored(math.inf, "fp8_e4m3") == 448.0
    assert "has no inf, and torch saturates to 448.0" in PrecisionModel(1000.0, "fp8_e4m3").describe()
    assert "has no inf, and torch saturates to 448.0" in PrecisionModel(math.inf, "fp8_e4m3").describe()
    assert torch_stored(3e-6, "fp8_e5m2") == 0.0
    assert "underflow" in PrecisionModel(3e-6, "fp8_e5m2").describe()
    assert "subnormal" in PrecisionModel(1e-5, "fp8_e5m2").describe()
    assert "no rounding error" in PrecisionModel(5.0, "fp8_e5m2").describe()
    assert "(at most epsilon/2 = 0.00391)" in PrecisionModel(0.1, "bf16").describe()
    nan = PrecisionModel(math.nan, "fp16")
    assert nan.line == [] and "NaN stays NaN" in nan.describe()


def test_the_range_line_is_torchs_finfo() -> None:
    text = PrecisionModel(1.0, "fp16").range_text()
    fp16 = torch.finfo(torch.float16)
    assert f"max {fp16.max:.6g}" in text and f"smallest normal {fp16.smallest_normal:.6g}" in text
    assert f"epsilon 2**-10 = {fp16.eps:.6g}" in text


def test_parse_number_reads_arithmetic_on_literals_only() -> None:
    assert parse_number("0.1") == 0.1 and parse_number("1 + 2**-8") == 1 + 2**-8 and parse_number("1/3") == 1 / 3
    assert parse_number("-inf") == -math.inf and math.isnan(parse_number("nan"))
    assert math.copysign(1, parse_number("-0.0")) == -1
    for text in ("", "import os", "x", "1/0", "True", "[1]", "10**1000"):
        with pytest.raises(ValueError, match="not a number"):
            parse_number(text)


# --- the picture -------------------------------------------------------------------------------------------
CASES = {
    "precision_bf16_0.1": lambda: PrecisionExplorer(0.1, "bf16"),
    "precision_fp16_overflow": lambda: PrecisionExplorer(1e10, "fp16"),
    "precision_e4m3_nan": lambda: PrecisionExplorer(math.nan, "fp8_e4m3"),
    "precision_e5m2_subnormal": lambda: PrecisionExplorer(1e-5, "fp8_e5m2"),
    "precision_fp32_third": lambda: PrecisionExplorer(1 / 3, "fp32"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_svg_matches_snapshot(name: str) -> None:
    svg = CASES[name]().to_svg()
    ET.fromstring(svg)
    assert svg == CASES[name]().to_svg(), "not deterministic"
    path = SNAPSHOTS / f"{name}.svg"
    assert_matches_snapshot(svg, path)


def attribute(element: ET.Element | None, name: str) -> str:
    """An attribute that must be there."""
    assert element is not None and element.get(name) is not None, name
    return element.get(name, "")


@pytest.mark.parametrize(("x", "fmt"), [(0.1, "bf16"), (-3.3, "fp8_e4m3"), (1e-5, "fp8_e5m2"), (1 / 3, "fp32"), (65504.0, "fp16")])
def test_every_tick_says_its_value_and_torchs_bits(x: float, fmt: str) -> None:
    explorer = PrecisionExplorer(x, fmt)
    groups = hover_groups(explorer.to_svg())
    ticks = [groups[f"tick:{i}"] for i in range(len(explorer.model.line))]
    assert f"tick:{len(ticks)}" not in groups
    for value, tick in zip(explorer.model.line, ticks, strict=True):
        bits = torch_bits(value, fmt)
        f = explorer.model.format
        spaced = f"{bits[0]} {bits[1:1 + f.exponent_bits]} {bits[1 + f.exponent_bits:]}"
        assert attribute(tick, "data-info").startswith(f"{value!r} = {spaced} in {fmt}"), (attribute(tick, "data-info"), spaced)


def test_the_rounded_tick_links_x_and_the_bits_and_is_purple() -> None:
    explorer = PrecisionExplorer(0.1, "bf16")
    groups = hover_groups(explorer.to_svg())
    rounded = [key for key, group in groups.items() if key.startswith("tick:") and group.get("data-links")]
    assert len(rounded) == 1
    tick = groups[rounded[0]]
    assert tick.get("data-links") == "x sign exponent mantissa"
    assert "(x rounds to this)" in attribute(tick, "data-info") and repr(torch_stored(0.1, "bf16")) in attribute(tick, "data-info")
    assert attribute(tick.find(f"{SVG_KEY}line"), "stroke") == "#b279a2"
    assert groups["x"].get("data-links") == rounded[0]
    assert groups["exponent"].get("data-info") == "exponent bits 01111011 = 123; 123 - bias 127 = -4: scale 2**-4"
    assert attribute(groups["mantissa"], "data-info").startswith("mantissa bits 1001101 = 77; 1.1001101 (binary) = 1 + 77/128")


def test_every_text_lies_inside_the_picture() -> None:
    """The picture is sized from its labels (the leftmost tick label may reach left of 0): each text's
    measured extent, from its anchor, is inside the viewBox."""
    for make in CASES.values():
        root = ET.fromstring(make().to_svg())
        left, top, width, height = map(float, attribute(root, "viewBox").split())
        for text in root.iter(f"{SVG_KEY}text"):
            x, y = float(attribute(text, "x")), float(attribute(text, "y"))
            extent = text_width(text.text or "", float(text.get("font-size", "12")))
            start = x - extent / 2 if text.get("text-anchor") == "middle" else x
            assert left - 0.1 <= start and start + extent <= left + width + 0.1 and top <= y <= top + height, text.text  # viewBox: 1 decimal


def test_controls_rebuild_the_model() -> None:
    explorer = PrecisionExplorer()
    box = explorer.widget()
    x_box, menu = box.children[0].children
    x_box.value = "1 + 2**-8 + 2**-40"
    assert explorer.model.rounded == torch_stored(1 + 2**-8 + 2**-40, "bf16") == 1.0
    menu.value = "fp16"
    assert explorer.model.rounded == torch_stored(1 + 2**-8 + 2**-40, "fp16")
    assert explorer._view.svg == explorer.to_svg()
    x_box.value = "one"
    assert "not a number" in explorer.summary()
    x_box.value = "448"
    menu.value = "fp8_e4m3"
    assert explorer.summary().startswith("x = 448.0 in fp8_e4m3 -> 448.0 (bits 0 1111 110)")


@pytest.mark.timeout(180)
def test_precision_explorer_displays_fallback_then_live_view(tmp_path: Path) -> None:
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        'from tensorlab.widgets import PrecisionExplorer\nPrecisionExplorer(0.1, "bf16")')])
    NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    fallback, live = (output["data"] for output in notebook.cells[0].outputs)
    assert fallback["text/html"].startswith('<div class="tl-fallback" data-tl-fallback="tl-')
    assert "bits of 0.10009765625 in bf16" in fallback["image/svg+xml"]
    assert fallback["text/plain"].startswith("x = 0.1 in bf16 -> 0.10009765625 (bits 0 01111011 1001101)")
    assert "application/vnd.jupyter.widget-view+json" in live
