"""What a learner's result is, beyond its value: a view of an input or a copy, the input itself, a "new"
array that is not new, an input changed by the call. The sandbox (sandbox.py) records these facts for
each case and the grader judges them (verify.py); this file is loaded by path in the sandbox, so it
imports only NumPy, and only when asked.
"""

from __future__ import annotations

from typing import Any


def unguarded(value: Any) -> Any:
    """A result as a plain ndarray again (the guard's subclass must not reach the comparison)."""
    import numpy as np

    if isinstance(value, np.ndarray) and type(value) is not np.ndarray:
        return value.view(np.ndarray)
    if isinstance(value, tuple):
        return tuple(unguarded(item) for item in value)
    if isinstance(value, list):
        return [unguarded(item) for item in value]
    return value


def same_value(now: Any, before: Any) -> bool:
    """Is an input still what it was before the call (arrays compared element by element)?"""
    import numpy as np

    if isinstance(before, np.ndarray):
        return (type(now) is np.ndarray and now.shape == before.shape and now.dtype == before.dtype
                and bool(np.array_equal(now, before, equal_nan=before.dtype.kind in "fc")))
    if isinstance(before, (list, tuple)):
        return type(now) is type(before) and len(now) == len(before) and all(
            same_value(a, b) for a, b in zip(now, before, strict=True))
    if isinstance(before, dict):
        return type(now) is dict and now.keys() == before.keys() and all(same_value(now[k], before[k]) for k in before)
    return type(now) is type(before) and (now == before or (now != now and before != before))


def view_facts(result: Any, source: Any) -> dict:
    """Whether ``result`` reads ``source``'s memory (a view, not a copy), its strides in elements, and whether
    it is ``source`` itself (what an in-place op returns: ``x[...]`` is a new view object, not ``x``)."""
    import numpy as np

    if type(result) is not np.ndarray or type(source) is not np.ndarray or result.itemsize == 0:
        return {"shares": False, "strides": None, "itself": result is source}
    empty = result.size == 0 or source.size == 0  # no memory to share: the strides alone tell a view
    return {"shares": empty or bool(np.shares_memory(result, source)),
            "strides": [stride // result.itemsize for stride in result.strides], "itself": result is source}


def shares_an_input(result: Any, arguments: Any) -> bool:
    """Is the result (or an array in it) one of the inputs, or a view of one, or an input list itself (a "new
    array" or "new list" that is not new)?"""
    import numpy as np

    def arrays(value: Any) -> list:
        if isinstance(value, (tuple, list)):
            return [array for item in value for array in arrays(item)]
        return [value] if isinstance(value, np.ndarray) else []

    if any(result is argument for argument in arguments if isinstance(argument, (list, dict))):
        return True  # "return a new list": the same list object, changed or not, is not new
    results, inputs = arrays(result), arrays(list(arguments))  # cat([x]) returning x is not new either
    return any(item.size and np.shares_memory(item, argument) for item in results for argument in inputs)
