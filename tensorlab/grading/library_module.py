"""The module ``mytorch`` made from a library description: the same few lines in a student's kernel and
in the grader's sandbox (which loads this file by path: it imports only the standard library).

A description is plain data (JSON), written by ``student_library.py`` (the student's own answers) or,
for the grader, by ``ExerciseFolder.library`` (the course's solutions)::

    {"parts": [{"origin": "05-reductions/reductions.ipynb", "statements": [source, ...],
                "functions": ["logsumexp", "softmax"]}, ...],
     "unwritten": {"argmax": "why it is missing, and where to write it"},
     "withheld": {"cross_entropy": "why this exercise may not import it"}}

Each part's statements run in a namespace of their own, in order (a part may import an earlier part's
functions from ``mytorch``: the module is registered before any part runs); a statement that fails costs
only what depends on it, as in the grader. An unwritten function is a stub that raises NotImplementedError
with its message when called, so ``from mytorch import ...`` at the top of a notebook always works; a
withheld or unknown name raises ImportError naming why.
"""

from __future__ import annotations

import sys
import types
from typing import Any

__all__ = ["NAME", "NotInLibraryError", "build", "fill"]

NAME = "mytorch"
DOC = ("mytorch: your own torch. Each function is the one you wrote in an exercise notebook of units 01-12 "
       "(the saved file), helpers included; one you have not written raises NotImplementedError.")


class NotInLibraryError(ImportError):
    """``from mytorch import name`` for a name the library does not give here (and why)."""


def unwritten(name: str, message: str) -> Any:
    """A stand-in for a function not written yet: calling it says where to write it."""
    def not_written(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(message)

    not_written.__name__ = not_written.__qualname__ = name
    not_written.__doc__ = message
    return not_written


def build(description: dict, name: str = NAME) -> types.ModuleType:
    """A new module ``name`` made from ``description``, registered in ``sys.modules``."""
    module = types.ModuleType(name, DOC)
    sys.modules[name] = module
    fill(module, description)
    return module


def fill(module: types.ModuleType, description: dict) -> None:
    """Give ``module`` the description's functions, its stubs and the ``__getattr__`` that explains the rest."""
    for function, message in description.get("unwritten", {}).items():
        setattr(module, function, unwritten(function, message))
    for part in description.get("parts", []):
        namespace: dict[str, Any] = {"__name__": module.__name__}
        for source in part["statements"]:
            try:
                exec(compile(source, f"<{module.__name__}: {part['origin']}>", "exec"), namespace)
            except Exception:  # one broken statement costs only what depends on it, as in the grader
                pass
        for function in part["functions"]:
            found = namespace.get(function)
            setattr(module, function, found if callable(found) else unwritten(
                function, f"{function} did not load from {part['origin']} (does its cell run without errors?)"))
    withheld = dict(description.get("withheld", {}))

    def __getattr__(attribute: str) -> Any:  # noqa: N807 - the module-level hook (PEP 562)
        if attribute.startswith("_"):
            raise AttributeError(attribute)
        raise NotInLibraryError(withheld.get(attribute) or (
            f"mytorch has no {attribute}: it gives the graded functions of units 01-12 by their task names"))

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
