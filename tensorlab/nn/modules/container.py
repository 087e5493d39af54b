"""Containers: Sequential (run modules in order), ModuleList and ModuleDict (hold modules so
their parameters are registered, in a list or a dict), ParameterList and ParameterDict (the same
for bare parameters)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from ..._tensor import Tensor
from ..parameter import Parameter
from .module import Module, _addindent

__all__ = ["ModuleDict", "ModuleList", "ParameterDict", "ParameterList", "Sequential"]


def _index(idx: int, size: int) -> int:
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


class _ModuleSequence(Module):
    """What Sequential and ModuleList share: children in order, reached by position. A deletion
    renames the children left "0", "1", ... (as torch does)."""

    def _key_at(self, idx: int) -> str:
        """The name of the child at position ``idx`` (negative counts from the end)."""
        raise NotImplementedError

    def __delitem__(self, idx: int | slice) -> None:
        keys = list(self._modules)
        for key in keys[idx] if isinstance(idx, slice) else [self._key_at(idx)]:
            delattr(self, key)
        self._renumber(list(self._modules.values()))

    def _renumber(self, modules: list[Module]) -> None:
        self._modules.clear()
        for i, module in enumerate(modules):
            self.add_module(str(i), module)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())


class Sequential(_ModuleSequence):
    """``Sequential(m0, m1, ...)(x)`` is ``m1(m0(x))``...; children are named "0", "1", ...
    (or by the keys of an OrderedDict)."""

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def _key_at(self, idx: int) -> str:
        return list(self._modules)[_index(idx, len(self))]  # children may have names of their own

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return self._modules[self._key_at(idx)]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, self._key_at(idx), module)

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self

    def forward(self, input: Any) -> Any:  # noqa: A002
        for module in self:
            input = module(input)  # noqa: A001
        return input


class ModuleList(_ModuleSequence):
    """A list of modules whose parameters belong to the owner; it has no forward of its own."""

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _key_at(self, idx: int) -> str:
        return str(_index(idx, len(self)))

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[self._key_at(idx)]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, self._key_at(idx), module)

    def __repr__(self) -> str:
        """Runs of identical children print once, as "(0-2): 3 x Block(...)" (as torch does)."""
        runs: list[list] = []  # [first index, last index, repr]
        for i, module in enumerate(self):
            text = repr(module)
            if runs and runs[-1][2] == text:
                runs[-1][1] = i
            else:
                runs.append([i, i, text])
        if not runs:
            return self._get_name() + "()"
        lines = [
            _addindent(f"({first}): {text}" if first == last else f"({first}-{last}): {last - first + 1} x {text}", 2)
            for first, last, text in runs
        ]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._renumber(modules)


class ModuleDict(Module):
    """A dict of modules (insertion-ordered) whose parameters belong to the owner."""

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def keys(self) -> Iterable[str]:
        return self._modules.keys()

    def items(self) -> Iterable[tuple[str, Module]]:
        return self._modules.items()

    def values(self) -> Iterable[Module]:
        return self._modules.values()

    def pop(self, key: str) -> Module:
        module = self[key]
        del self[key]
        return module

    def clear(self) -> None:
        self._modules.clear()

    def update(self, modules: Any) -> None:
        items = modules.items() if hasattr(modules, "items") else modules
        for key, module in items:
            self[key] = module


def _as_parameter(value: Any) -> Any:
    """A plain tensor put in a parameter container becomes a Parameter (so it is learnable)."""
    return Parameter(value) if isinstance(value, Tensor) and not isinstance(value, Parameter) else value


def _parameter_line(key: str, value: Any, type_name: str) -> str:
    """One line of a parameter container's repr: the size, not the values (indented 4, as torch)."""
    if not isinstance(value, Tensor):
        return f"  ({key}): Object of type: {type(value).__name__}"
    size = "x".join(str(n) for n in value.shape)
    kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
    return f"  ({key}): {kind} containing: [{type_name} of size {size}]"


class ParameterList(Module):
    """A list of parameters registered as "0", "1", ...: ``state_dict`` keys are "0", "1", ..."""

    def __init__(self, values: Iterable[Any] | None = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _key_at(self, idx: int) -> str:
        return str(_index(idx, self._size))

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            return type(self)([self[i] for i in range(self._size)[idx]])
        return getattr(self, self._key_at(idx))

    def __setitem__(self, idx: int, param: Any) -> None:
        setattr(self, self._key_at(idx), _as_parameter(param))

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(self._size))

    def __iadd__(self, parameters: Iterable[Any]) -> ParameterList:
        return self.extend(parameters)

    def append(self, value: Any) -> ParameterList:
        self._size += 1
        setattr(self, str(self._size - 1), _as_parameter(value))
        return self

    def extend(self, values: Iterable[Any]) -> ParameterList:
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError("ParameterList.extend should be called with an iterable, but got " + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        lines = [_parameter_line(str(i), value, str(value.dtype) if isinstance(value, Tensor) else "") for i, value in enumerate(self)]
        return "\n".join(lines)

    def __call__(self, input: Any) -> Any:  # noqa: A002
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """A dict of parameters (insertion-ordered); its keys are the ``state_dict`` keys."""

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        self._keys: dict[str, None] = {}
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)

    def __setitem__(self, key: str, value: Any) -> None:
        self._keys[key] = None
        setattr(self, key, _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def keys(self) -> Iterable[str]:
        return self._keys.keys()

    def items(self) -> Iterable[tuple[str, Any]]:
        return [(key, self[key]) for key in self._keys]

    def values(self) -> Iterable[Any]:
        return [self[key] for key in self._keys]

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default

    def pop(self, key: str) -> Any:
        value = self[key]
        del self[key]
        return value

    def clear(self) -> None:
        for key in list(self._keys):
            del self[key]

    def update(self, parameters: Any) -> None:
        if not isinstance(parameters, Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of key/value pairs, but got " + type(parameters).__name__)
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            items = list(parameters.items())
        elif hasattr(parameters, "items"):
            items = sorted(parameters.items())  # torch sorts a plain dict's keys
        else:
            items = list(parameters)
        for key, value in items:
            self[key] = value

    def extra_repr(self) -> str:
        """torch prints the legacy type name here (FloatTensor), unlike ParameterList (float32)."""
        return "\n".join(_parameter_line(key, value, value.type() if isinstance(value, Tensor) else "") for key, value in self.items())

    def __call__(self, input: Any) -> Any:  # noqa: A002
        raise RuntimeError("ParameterDict should not be called.")
