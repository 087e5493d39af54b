"""The static rules: what a graded function may import and reach, and what "vectorised" rules out.

Each attack is a way a student really tried (or could try) to pass without doing the work; each
must be named in the violations. Each honest answer must have none.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from tensorlab.grading.rules import rule_violations


def violations(source: str, function: str = "f", vectorised: bool = False, forbidden: tuple[str, ...] = ()) -> list[str]:
    return rule_violations(ast.parse(textwrap.dedent(source)).body, function, forbidden, vectorised)


@pytest.mark.parametrize("source", [
    "import tensorlab\ndef f(a, b):\n    return tensorlab.broadcast_shapes(a, b)",
    "def f(a, b):\n    import torch\n    return torch.broadcast_shapes(a, b)",
    "from tensorlab.ops import broadcasting\ndef f(g, s):\n    return broadcasting.sum_to_shape(g, s)",
    "import tensorlab as tl\nT = tl.tensor\ndef f(a, b):\n    return (T(a) + T(b)).numpy()",  # reached through a global
    "from autograder import verify\ndef f(a):\n    return verify",
])
def test_the_reference_is_refused_however_it_is_imported(source: str) -> None:
    assert any("reference library is not allowed" in problem for problem in violations(source))


@pytest.mark.parametrize(("source", "named"), [
    ("import importlib\ndef f(a):\n    return importlib.import_module('tensor' + 'lab')", "importlib"),
    ("def f(a):\n    return __import__('tensor' + 'lab')", "__import__"),
    ("import sys\ndef f(a):\n    return sys.modules['tensorlab']", "sys"),
    ("def f(a):\n    return eval('1')", "eval"),
    ("def f(a):\n    exec('x = 1')", "exec"),
    ("def f(a):\n    return globals()['np']", "globals"),
    ("def f(a):\n    return getattr(a, 'sh' + 'ape')", "computed attribute"),
    ("def f(a):\n    return f.__globals__", "__globals__"),
    ("def f(a):\n    return ().__class__.__base__.__subclasses__()", "__class__"),
    ("def f(a):\n    return getattr(f, '__globals__')", "__globals__"),
    ("import os\ndef f(a):\n    return os.getcwd()", "os"),
    ("def f(a):\n    return open('/etc/passwd').read()", "open"),
])
def test_ways_around_the_rules_are_refused(source: str, named: str) -> None:
    assert any(named in problem for problem in violations(source)), violations(source)


def test_the_grading_engine_is_refused_but_the_setup_import_is_not_graded() -> None:
    """Extraction drops only the notebook's own ``from tensorlab.grading import check``."""
    from tensorlab.grading.extract import program_of

    program = program_of({1: "from tensorlab.grading import check",
                          2: "from tensorlab.grading.acceptors import topological_order\n"
                             "def f(graph, root):\n    return topological_order(graph, root, [])"})
    assert [ast.unparse(statement).split()[1] for statement in program.statements][:1] == ["tensorlab.grading.acceptors"]
    found = rule_violations(program.statements, "f", (), False)
    assert any("reference library is not allowed" in problem for problem in found), found


@pytest.mark.parametrize("source", [
    "import numpy as np\nimport math\ndef f(a, b):\n    return np.asarray(a) * math.pi",
    "from functools import cache\nimport numpy as np\n@cache\ndef f(n):\n    return np.arange(n)",
    "import numpy as np\nSIZE = 3\ndef helper(x):\n    return x * SIZE\ndef f(x):\n    return helper(np.asarray(x))",
    "import tensorlab\ndef f(x):\n    return x + 1",  # an unused import elsewhere in the notebook costs nothing
])
def test_honest_answers_have_no_violations(source: str) -> None:
    assert violations(source) == []


@pytest.mark.parametrize(("source", "named"), [
    ("def f(x):\n    return [v * 2 for v in x]", "list comprehension"),
    ("def f(x):\n    return np.array(list(map(abs, x)))", "map"),
    ("def f(x):\n    return np.vectorize(abs)(x)", "np.vectorize"),
    ("def f(x):\n    return np.frompyfunc(abs, 1, 1)(x)", "np.frompyfunc"),
    ("def f(x):\n    return np.apply_along_axis(sum, 0, x)", "np.apply_along_axis"),
    ("def f(x):\n    return np.fromiter((v for v in x), float)", "generator expression"),
    ("from functools import reduce\ndef f(x):\n    return reduce(np.add, x)", "functools.reduce"),
    ("import itertools\ndef f(x):\n    return list(itertools.chain(x))", "itertools"),
    ("def f(x, i=0):\n    return x if i == 3 else f(x, i + 1)", "recursion"),
    ("def f(x):\n    i = 0\n    while i < 3:\n        i += 1\n    return x", "while loop"),
    ("def helper(x):\n    for v in x:\n        pass\n    return x\ndef f(x):\n    return helper(x)", "for loop"),
    ("v = np.vectorize\ndef f(x):\n    return v(abs)(x)", "np.vectorize"),
    ("def f(x):\n    return getattr(np, 'vectorize')(abs)(x)", "np.vectorize"),
    ("class Items:\n    def __getitem__(self, i):\n        return i\ndef f(x):\n    return np.array(Items())", "__getitem__"),
    ("def f(x):\n    out = []\n    sorted(range(3), key=out.append)\n    return x", "key=...) callback"),
    ("def f(x):\n    return max(range(x.size), key=lambda i: x.flat[i])", "key=...) callback"),
])
def test_vectorised_rules_out_every_spelling_of_a_loop(source: str, named: str) -> None:
    found = violations(source, vectorised=True)
    assert any(named in problem for problem in found), found
    assert not any("vectorised" in problem for problem in violations(source, vectorised=False))


@pytest.mark.parametrize("source", [
    "import numpy as np\ndef f(x):\n    return np.add.reduce(x, axis=0)",
    "import numpy as np\ndef f(x):\n    return np.maximum.accumulate(x)",
])
def test_a_ufuncs_reduce_is_not_functools_reduce(source: str) -> None:
    assert violations(source, vectorised=True) == []


def test_vectorised_accepts_whole_array_code() -> None:
    source = """
        import numpy as np
        def f(x, dim, index):
            positions = np.indices(index.shape, sparse=True)
            coordinates = list(positions)
            coordinates[dim] = index
            return x[tuple(coordinates)]
    """
    assert violations(source, vectorised=True) == []


def test_a_forbidden_function_is_found_under_any_name() -> None:
    forbidden = ("numpy.take_along_axis",)
    for source in ("def f(x, i):\n    return np.take_along_axis(x, i, 0)",
                   "from numpy import take_along_axis as t\ndef f(x, i):\n    return t(x, i, 0)",
                   "def f(x, i):\n    return getattr(np, 'take_along_axis')(x, i, 0)"):
        assert any("take_along_axis" in problem for problem in violations(source, forbidden=forbidden)), source


PUZZLE_BLOCKS = ("arange", "where", "shape", "newaxis", "len")


def only_violations(source: str, function: str = "f") -> list[str]:
    return rule_violations(ast.parse(textwrap.dedent(source)).body, function, only=PUZZLE_BLOCKS)


@pytest.mark.parametrize(("source", "named"), [
    ("import numpy as np\ndef f(a):\n    return np.cumsum(a)", ".cumsum"),
    ("def f(a):\n    return a.sum(0, keepdims=True)", ".sum"),
    ("from numpy import triu\ndef f(j):\n    return triu(j)", "imports triu"),
    ("def f(a):\n    return sum(a)", "uses sum"),
    ("def f(a):\n    return a.__add__(a)", ".__add__"),
    ("import numpy as np\nS = np.add.accumulate\ndef f(a):\n    return S(a)", ".add"),  # reached through a global
])
def test_an_only_list_refuses_every_other_building_block(source: str, named: str) -> None:
    assert any(named in problem for problem in only_violations(source))


def test_an_only_list_accepts_its_blocks_own_names_and_earlier_answers() -> None:
    source = """
        import numpy as np
        def ones(i):
            return np.where(np.arange(i) >= 0, 1, 0)
        def f(a, sum=None):
            n = len(a)
            total = ones(n) @ a[:, np.newaxis]
            return total * (a.shape[0] > 0)
    """
    assert only_violations(source) == []


def allow_listed(source: str, allowed: tuple[str, ...], forbidden: tuple[str, ...] = ()) -> list[str]:
    return rule_violations(ast.parse(textwrap.dedent(source)).body, "f", forbidden, allowed=allowed)


@pytest.mark.parametrize(("source", "named"), [
    ("import numpy as np\ndef f(x):\n    return np.lib.stride_tricks.as_strided(x, (2,), (8,))", "as_strided"),
    ("import numpy as np\ndef f(x):\n    return np.append(x[:1], x[1:])", "append"),
    ("import numpy as np\ndef f(x):\n    return np.r_[x, x]", "r_"),
    ("import numpy as np\ndef f(x):\n    return np.vecdot(x, x)", "vecdot"),
    ("import operator\ndef f(x):\n    return operator.methodcaller('sum')(x)", "methodcaller"),
    ("def f(x):\n    y = x.copy()\n    y.shape = (-1,)\n    return y", "reshape in disguise"),
    ("from numpy import cumsum\ndef f(x):\n    return cumsum(x)", "cumsum"),
    ("def f(x):\n    return sum(x)", "sum"),
])
def test_an_allow_list_refuses_every_name_it_does_not_list(source: str, named: str) -> None:
    found = allow_listed(source, allowed=("concatenate", "copy"))
    assert any(named in problem for problem in found), found


def test_an_allow_list_accepts_its_names_the_common_ones_and_the_codes_own() -> None:
    source = """
    import numpy as np
    class Box:
        def __init__(self, x):
            self.values = x
        def doubled(self):
            return np.concatenate([self.values, self.values])
    def f(x):
        view = x.T
        return Box(view).doubled().shape, len(x), np.add.reduce(x), isinstance(x, np.ndarray)
    """
    assert allow_listed(source, allowed=("concatenate", "add", "reduce")) == []


@pytest.mark.parametrize(("source", "named"), [
    ("import numpy.core._multiarray_umath as m\ndef f(a):\n    return m.c_einsum('i->', a)", "private module"),
    ("from numpy._core import umath\ndef f(a):\n    return umath.add(a, a)", "private module"),
    ("import numpy as np\ndef f(a):\n    return np._core.umath.add(a, a)", "private name"),
    ("import operator\ndef f(a):\n    return operator.methodcaller('take_along_axis')(a)", "take_along_axis"),
    ("def f(a):\n    a.shape = (-1,)\n    return a", "reshape"),
])
def test_private_modules_and_names_reached_indirectly_are_refused_everywhere(source: str, named: str) -> None:
    found = violations(source, forbidden=("numpy.take_along_axis", "numpy.reshape"))
    assert any(named in problem for problem in found), found


def test_a_loop_over_dimensions_is_left_to_the_count_where_the_statement_allows_it() -> None:
    source = "def f(x):\n    for axis in range(x.ndim):\n        x = x.sum(axis, keepdims=True)\n    return x"
    assert violations(source, vectorised=True)
    assert rule_violations(ast.parse(source).body, "f", vectorised=True, loops_over_dimensions=True) == []


@pytest.mark.parametrize(("source", "refused"), [
    ("def f(x):\n    view = x[::2]\n    return view", False),  # a variable named like the forbidden method
    ("def f(x):\n    view = x.view()\n    return view", True),
    ("from numpy import take_along_axis as view\ndef f(x):\n    return view(x, x, 0)", True),
    ("import numpy as np\ndef f(x):\n    view = np.take_along_axis\n    return view(x, x, 0)", True),
])
def test_a_forbidden_name_is_the_function_not_a_variable_called_like_it(source: str, refused: bool) -> None:
    found = violations(source, forbidden=("numpy.ndarray.view", "numpy.take_along_axis"))
    assert bool(found) == refused, found


def test_matmul_by_operator_is_matmul() -> None:
    source = "def f(a, b):\n    return a @ b"
    assert any("matmul" in problem for problem in violations(source, forbidden=("numpy.matmul",)))
    assert any("@ (matmul)" in problem for problem in allow_listed(source, allowed=("sum",)))
    assert allow_listed(source, allowed=("matmul",)) == []


def test_a_function_of_ones_own_named_like_a_forbidden_one_is_still_refused() -> None:
    """The puzzles forbid calling later puzzles: the learner's own ``def triu`` is that puzzle."""
    source = "def triu(j):\n    return j\ndef f(i):\n    return triu(i)"
    assert violations(source, forbidden=("triu",))


@pytest.mark.parametrize("spelling", ["e", "f2", "<f2", "float16", "half"])
def test_a_forbidden_dtype_spelled_as_a_string_is_refused(spelling: str) -> None:
    source = f"def f(x):\n    return x.astype({spelling!r})"
    assert any("float16" in problem for problem in violations(source, forbidden=("numpy.float16",)))
    assert not violations("def f(x):\n    return x.astype('float32')", forbidden=("numpy.float16",))
