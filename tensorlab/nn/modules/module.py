"""Module: the base class of every layer, and the bookkeeping that makes ``parameters()`` work.

A Module keeps three ordered dicts, filled by ``__setattr__``:

- ``_parameters``: attributes that are :class:`Parameter` (learnable weights);
- ``_buffers``: tensors registered with ``register_buffer`` (state such as running means);
- ``_modules``: attributes that are Modules (submodules; their names prefix their weights').

Everything else (``parameters()``, ``state_dict()``, ``train()``, ``to()``, ``zero_grad()``) is a
walk over that tree. ``module(x)`` runs the forward pre-hooks, ``forward``, then the forward hooks.
"""

from __future__ import annotations

import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator
from itertools import count
from typing import Any, NamedTuple

from ..._tensor import Tensor
from ...autograd.function import Function, FunctionCtx
from ...autograd.grad_mode import no_grad
from ...utils.grads import zero_grads
from ...utils.hooks import RemovableHandle
from ..parameter import Parameter

__all__ = ["Module"]

class _IncompatibleKeys(NamedTuple):
    """What load_state_dict returns: the keys it expected and did not get, and the others."""

    missing_keys: list[str]
    unexpected_keys: list[str]


_hook_ids = count()


def _torch_type_name(value: Any) -> str:
    """How torch names a value in its TypeErrors: 'torch.FloatTensor', 'int', ..."""
    if isinstance(value, Tensor):
        return value.type()
    return type(value).__name__


def _addindent(text: str, spaces: int) -> str:
    """Indent every line but the first (how a child's repr nests inside its parent's)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return "\n".join([lines[0]] + [" " * spaces + line for line in lines[1:]])


class Module:
    """Base class for all neural network modules; subclasses define ``forward``."""

    training: bool

    def __init__(self) -> None:
        set_plain = object.__setattr__
        set_plain(self, "training", True)
        set_plain(self, "_parameters", OrderedDict())
        set_plain(self, "_buffers", OrderedDict())
        set_plain(self, "_non_persistent_buffers_set", set())
        set_plain(self, "_modules", OrderedDict())
        set_plain(self, "_forward_hooks", OrderedDict())
        set_plain(self, "_forward_hooks_with_kwargs", OrderedDict())
        set_plain(self, "_forward_hooks_always_called", OrderedDict())
        set_plain(self, "_forward_pre_hooks", OrderedDict())
        set_plain(self, "_forward_pre_hooks_with_kwargs", OrderedDict())
        set_plain(self, "_backward_hooks", OrderedDict())

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    # --- registration ----------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep="_parameters")
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_torch_type_name(value)}' as parameter '{name}' "
                    "(tensorlab.nn.Parameter or None expected)"
                )
            params[name] = None
        elif isinstance(value, Module):
            if self.__dict__.get("_modules") is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep="_modules")
            self._modules[name] = value
        elif name in self.__dict__.get("_modules", {}):
            if value is not None:
                raise TypeError(f"cannot assign '{_torch_type_name(value)}' as child module '{name}' (tensorlab.nn.Module or None expected)")
            self._modules[name] = None
        elif name in self.__dict__.get("_buffers", {}):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_torch_type_name(value)}' as buffer '{name}' (tensorlab.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str, keep: str) -> None:
        """Remove ``name`` from wherever it was, before it is registered in the store ``keep``.

        ``keep`` itself is left alone: replacing ``seq[0]`` keeps child "0" first, as in torch.
        """
        self.__dict__.pop(name, None)
        for store in ("_parameters", "_buffers", "_modules"):
            if store != keep:
                self.__dict__[store].pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name: str) -> Any:
        # Called only when normal lookup fails: registered things live in the three dicts.
        for store in ("_parameters", "_buffers", "_modules"):
            found = self.__dict__.get(store)
            if found is not None and name in found:
                return found[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for store in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__[store]:
                del self.__dict__[store][name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def _check_name(self, name: Any, kind: str) -> None:
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters and name not in self._buffers and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name(name, "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_torch_type_name(param)}' object to parameter '{name}' "
                "(tensorlab.nn.Parameter or None required)"
            )
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_torch_type_name(tensor)}' object to buffer '{name}' (tensorlab Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        self._check_name(name, "module")
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target: str) -> Module:
        module = self
        for item in target.split(".") if target else []:
            if item not in module._modules:
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = module._modules[item]
        return module

    def get_parameter(self, target: str) -> Parameter:
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if name not in module._parameters:
            raise AttributeError(f"{module._get_name()} has no parameter `{name}`")
        return module._parameters[name]

    # --- walking the tree ------------------------------------------------------------------
    def named_modules(self, memo: set | None = None, prefix: str = "", remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        """Self first, then every submodule depth-first, named by its dotted path."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub_prefix, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self) -> Iterator[Module]:
        for _, module in self.named_children():
            yield module

    def _named_members(self, store: str, prefix: str, recurse: bool, remove_duplicate: bool) -> Iterator[tuple[str, Any]]:
        """Entries of ``store`` of self (and submodules if ``recurse``), each object once."""
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in module.__dict__[store].items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    # --- state_dict ------------------------------------------------------------------------
    def state_dict(self, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False) -> OrderedDict:
        """Every parameter and persistent buffer by dotted name: each module's own, then its children's."""
        if destination is None:
            destination = OrderedDict()
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buffer if keep_vars else buffer.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict: Any, strict: bool = True, assign: bool = False) -> Any:
        """Copy values in by name; report (or, if ``strict``, raise on) missing and unexpected keys."""
        own = self.state_dict(keep_vars=True)
        missing = [key for key in own if key not in state_dict]
        unexpected = [key for key in state_dict if key not in own]
        errors = []
        with no_grad():
            for key, target in own.items():
                if key not in state_dict:
                    continue
                source = state_dict[key]
                if not isinstance(source, Tensor):
                    errors.append(f'While copying the parameter named "{key}", expected tensorlab.Tensor or Tensor-like object from checkpoint but received {type(source)}')
                    continue
                if source.shape != target.shape:
                    errors.append(
                        f"size mismatch for {key}: copying a param with shape {source.shape} from checkpoint, "
                        f"the shape in current model is {target.shape}."
                    )
                    continue
                target.copy_(source)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    # --- modes and bulk changes ------------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for module in self.modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        zero_grads(self.parameters(), set_to_none)

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Call ``fn`` on every submodule (children first), then on self; e.g. custom init."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def _apply(self, convert: Callable[[Tensor], Tensor]) -> Module:
        """Convert every parameter and buffer in place: a Parameter keeps its identity."""
        for module in self.modules():
            for param in module._parameters.values():
                if param is None:
                    continue
                param.data = convert(param.detach())
                if param._grad is not None:
                    param._grad = convert(param._grad)
            for name, buffer in module._buffers.items():
                if buffer is not None:
                    module._buffers[name] = convert(buffer)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """``to(dtype)`` converts floating-point parameters and buffers; devices are all the CPU
        (another one fails as in torch: see tensorlab/_device.py)."""
        from ..._device import check_device, is_device_like
        from ..._dtype import dtype as dtype_class

        target = kwargs.get("dtype")
        check_device(kwargs.get("device"))
        for arg in args:
            if isinstance(arg, dtype_class):
                target = arg
            elif isinstance(arg, Tensor):
                target = arg.dtype
            elif is_device_like(arg):
                check_device(arg)
        if target is None:
            return self
        if not target.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={target}")
        return self._apply(lambda t: t.to(target) if t.is_floating_point() else t)

    def float(self) -> Module:
        from ..._dtype import float32

        return self.to(float32)

    def double(self) -> Module:
        from ..._dtype import float64

        return self.to(float64)

    def half(self) -> Module:
        from ..._dtype import float16

        return self.to(float16)

    def cpu(self) -> Module:
        return self

    def cuda(self, device: Any = None) -> Module:
        """No GPU here: torch's own error for a build without CUDA."""
        from ..._device import check_device

        check_device("cuda")
        return self

    # --- hooks and calling -----------------------------------------------------------------
    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False, with_kwargs: bool = False) -> RemovableHandle:
        """``hook(module, args)`` before forward; a non-None result replaces ``args``.

        With ``with_kwargs=True`` it is ``hook(module, args, kwargs)``, returning None or
        ``(new_args, new_kwargs)``. Hooks run in registration order; ``prepend`` puts this one first.
        """
        flags = {"with_kwargs": (self._forward_pre_hooks_with_kwargs, with_kwargs)}
        return _add_hook(self._forward_pre_hooks, hook, prepend, flags)

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> RemovableHandle:
        """``hook(module, args, output)`` after forward; a non-None result replaces ``output``.

        ``args`` are the ones forward received (after the pre-hooks). ``with_kwargs=True``:
        ``hook(module, args, kwargs, output)``. ``always_call=True``: the hook also runs when
        forward raises (its own error is then only a warning, and forward's error propagates).
        """
        flags = {"with_kwargs": (self._forward_hooks_with_kwargs, with_kwargs),
                 "always_call": (self._forward_hooks_always_called, always_call)}
        return _add_hook(self._forward_hooks, hook, prepend, flags)

    def register_full_backward_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """``hook(module, grad_input, grad_output)`` once the gradients w.r.t. the module's
        inputs are computed; a non-None result replaces ``grad_input``.

        As in torch, inputs and outputs pass through an identity op (``BackwardHookFunctionBackward``)
        whose backward sees the gradients; grad_input has one entry per positional tensor input.
        """
        return _add_hook(self._backward_hooks, hook, prepend)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Pre-hooks, forward, forward hooks, in that order (and the backward hooks' identity ops)."""
        called: set = set()  # always-call hooks that ran: they must not run twice if forward raises
        output = None
        try:
            args, kwargs = self._run_forward_pre_hooks(args, kwargs)
            if self._backward_hooks:
                hook_state = _BackwardHookState(self)
                args = hook_state.wrap_inputs(args)
            output = self.forward(*args, **kwargs)
            for key, hook in list(self._forward_hooks.items()):
                if key in self._forward_hooks_always_called:
                    called.add(key)
                output = self._call_forward_hook(key, hook, args, kwargs, output)
            if self._backward_hooks:
                output = hook_state.wrap_outputs(output)
            return output
        except Exception:
            self._run_always_called_hooks(called, args, kwargs, output)
            raise

    def _run_forward_pre_hooks(self, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        for key, hook in list(self._forward_pre_hooks.items()):
            if key in self._forward_pre_hooks_with_kwargs:
                result = hook(self, args, kwargs)
                if result is None:
                    continue
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(f"forward pre-hook must return None or a tuple of (new_args, new_kwargs), but got {result}.")
                args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        return args, kwargs

    def _call_forward_hook(self, key: int, hook: Callable, args: tuple, kwargs: dict, output: Any) -> Any:
        """Call one forward hook; its non-None result replaces the output."""
        if key in self._forward_hooks_with_kwargs:
            result = hook(self, args, kwargs, output)
        else:
            result = hook(self, args, output)
        return output if result is None else result

    def _run_always_called_hooks(self, called: set, args: tuple, kwargs: dict, output: Any) -> None:
        """Forward raised: run the ``always_call`` hooks that did not run yet; their errors only warn."""
        for key, hook in list(self._forward_hooks.items()):
            if key not in self._forward_hooks_always_called or key in called:
                continue
            try:
                output = self._call_forward_hook(key, hook, args, kwargs, output)
            except Exception as error:
                warnings.warn("module forward hook with ``always_call=True`` raised an exception that was silenced "
                              f"as another error was raised in forward: {error}", stacklevel=3)

    # --- printing --------------------------------------------------------------------------
    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """The text inside the parentheses of this module's repr (its constructor arguments)."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): " + _addindent(repr(module), 2) for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    def __dir__(self) -> list:
        names = list(object.__dir__(self))
        for store in ("_parameters", "_buffers", "_modules"):
            names += list(self.__dict__[store])
        return sorted(set(names))


def _add_hook(hooks: OrderedDict, hook: Callable, prepend: bool,
              flags: dict[str, tuple[OrderedDict, bool]] | None = None) -> RemovableHandle:
    """Store ``hook`` under a fresh key; mark the key in each flag dict whose flag is set."""
    key = next(_hook_ids)
    hooks[key] = hook
    if prepend:
        hooks.move_to_end(key, last=False)
    flag_dicts = tuple(store for store, _ in (flags or {}).values())
    for store, is_set in (flags or {}).values():
        if is_set:
            store[key] = True
    return RemovableHandle(hooks, hook, key, extra=flag_dicts)


class BackwardHookFunction(Function):
    """Identity on tensors; its backward hands the passing gradients to a callback.

    Placed on a module's inputs and on its outputs, it lets a full backward hook see both
    grad_output (gradients arriving at the outputs) and grad_input (leaving through the inputs).
    """

    backward_name = "BackwardHookFunctionBackward"

    @staticmethod
    def forward(ctx: FunctionCtx, on_backward: Callable, *tensors: Tensor) -> Any:
        ctx.on_backward = on_backward
        views = tuple(t.view_as(t) for t in tensors)
        return views if len(views) > 1 else views[0]

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Tensor) -> tuple:
        replaced = ctx.on_backward(grads)
        return (None, *(replaced if replaced is not None else grads))


class _BackwardHookState:
    """Carries grad_output from the outputs' identity node to the inputs' one, then calls the hooks."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self.grad_output: tuple = ()
        self.input_positions: list[int] = []
        self.n_inputs = 0

    def wrap_inputs(self, args: tuple) -> tuple:
        self.n_inputs = len(args)
        self.input_positions = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
        if not self.input_positions:
            return args
        wrapped = BackwardHookFunction.apply(self._inputs_done, *(args[i] for i in self.input_positions))
        wrapped = wrapped if isinstance(wrapped, tuple) else (wrapped,)
        replaced = list(args)
        for i, tensor in zip(self.input_positions, wrapped, strict=True):
            replaced[i] = tensor
        return tuple(replaced)

    def wrap_outputs(self, output: Any) -> Any:
        single = isinstance(output, Tensor)
        outputs = (output,) if single else output
        if not any(isinstance(o, Tensor) and o.requires_grad for o in outputs):
            return output
        wrapped = BackwardHookFunction.apply(self._outputs_done, *outputs)
        return wrapped

    def _outputs_done(self, grads: tuple) -> None:
        self.grad_output = grads
        if not self.input_positions:  # no input needs a gradient: hooks see grad_input of Nones
            warnings.warn("Full backward hook is firing when gradients are computed with respect to module outputs "
                          "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
                          "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details.", stacklevel=2)
            self._call_hooks((None,) * self.n_inputs)

    def _inputs_done(self, grads: tuple) -> tuple:
        grad_input: list = [None] * self.n_inputs
        for i, g in zip(self.input_positions, grads, strict=True):
            grad_input[i] = g
        result = self._call_hooks(tuple(grad_input))
        return tuple(result[i] for i in self.input_positions)

    def _call_hooks(self, grad_input: tuple) -> tuple:
        for hook in list(self.module._backward_hooks.values()):
            replaced = hook(self.module, grad_input, self.grad_output)
            if replaced is not None:
                grad_input = tuple(replaced)
        return grad_input
