"""tensorlab/_tensor_methods.py: Tensor's named methods come from one class per op family.

_tensor.py keeps the data structure and the operators; a named method is its op's function (or
a two-line adapter) bound in one place, so no method body imports an op module.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tensorlab as tl
from tensorlab import _tensor_methods
from tensorlab.overrides import is_dispatchable
from tests.oracle import check_op

TENSOR_SOURCE = Path(tl.__file__).parent / "_tensor.py"
BOUND = [
    (family.__name__, name, method)
    for family in _tensor_methods.FAMILIES for name, method in vars(family).items() if not name.startswith("__")
]


@pytest.mark.parametrize(("family", "name", "method"), BOUND, ids=[f"{f}.{n}" for f, n, _ in BOUND])
def test_every_table_entry_is_the_method_on_tensor(family: str, name: str, method: Any) -> None:
    assert _op(tl.Tensor.__dict__[name]) is method


def _op(value: Any) -> Any:
    """A method of Tensor without the wrapper that offers each call to function modes (overrides.py)."""
    return value.__wrapped__ if is_dispatchable(value) else value


def test_a_name_is_bound_by_one_family_only() -> None:
    names = [name for _, name, _ in BOUND]
    assert len(names) == len(set(names))


def test_no_method_of_tensor_imports_inside_its_body() -> None:
    """Imports inside method bodies hid which module an op lives in; they are all at module level now."""
    tree = ast.parse(TENSOR_SOURCE.read_text())
    inner = [
        f"line {node.lineno}"
        for function in ast.walk(tree) if isinstance(function, ast.FunctionDef)
        for node in ast.walk(function) if isinstance(node, (ast.Import, ast.ImportFrom))
    ]
    assert inner == []


def test_tensor_py_defines_no_named_op_method() -> None:
    """Only dunders, layout/autograd fields and the constructors live in _tensor.py."""
    defined = {
        name for name, value in vars(tl.Tensor).items()
        if inspect.isfunction(value) and _op(value).__module__ == "tensorlab._tensor"
    }
    assert not defined & {name for _, name, _ in BOUND}


def test_renamed_adapters_carry_the_method_name() -> None:
    assert tl.Tensor.float.__name__ == "float" and tl.Tensor.type.__qualname__ == "Tensor.type"


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, a, b: a.mm(mat2=b),
        lambda lib, a, b: a.unsqueeze(0).bmm(mat2=b.unsqueeze(0)),
        lambda lib, a, b: a[0].dot(tensor=b[:, 0]),
        lambda lib, a, b: a[0].outer(vec2=b[0]),
        lambda lib, a, b: a.add(other=b, alpha=2),
        lambda lib, a, b: a.pow(exponent=2),
    ],
    ids=["mm", "bmm", "dot", "outer", "add", "pow"],
)
def test_method_keywords_are_torchs(call: Any) -> None:
    rng = np.random.default_rng(0)
    check_op(call, rng.standard_normal((3, 3)), rng.standard_normal((3, 3)))
