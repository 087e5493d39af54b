"""tensorlab.kernels: readable Triton kernels, each next to the torch function that launches it.

Unlike the rest of tensorlab the kernels import torch and triton, so this package loads them only
when a kernel is first asked for: ``import tensorlab.kernels.tiles`` (pure Python, used by the
TileExplorer widget) loads neither. On that first request ``backend`` is imported before anything
else — it decides, before triton is imported and any ``@triton.jit`` runs, whether the kernels
compile for a CUDA GPU or run on Triton's interpreter (see its docstring) — then every kernel
module, and the package's names are bound to their functions. docs/kernels.md maps each kernel to
its tile-and-mask picture. Use the functions through the package (``from tensorlab.kernels import
softmax``): several share their module's name, and the package binds the function.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .tiles import cdiv, grouped_tile

if TYPE_CHECKING:  # what a type checker sees; at run time __getattr__ below loads these on first use
    from .backend import backend, device
    from .bias_relu import BiasReLU, bias_relu, bias_relu_backward_kernel, bias_relu_kernel
    from .layer_norm import layer_norm, layer_norm_kernel
    from .matmul import matmul, matmul_kernel
    from .softmax import online_softmax, online_softmax_kernel, softmax, softmax_kernel
    from .vector_add import add, add_kernel

# Each public name and the module that defines it, in the order they load: backend first.
_KERNEL_EXPORTS = {
    "backend": ("backend", "device"),
    "vector_add": ("add", "add_kernel"),
    "bias_relu": ("BiasReLU", "bias_relu", "bias_relu_backward_kernel", "bias_relu_kernel"),
    "softmax": ("online_softmax", "online_softmax_kernel", "softmax", "softmax_kernel"),
    "matmul": ("matmul", "matmul_kernel"),
    "layer_norm": ("layer_norm", "layer_norm_kernel"),
}
__all__ = ["cdiv", "grouped_tile", *(name for names in _KERNEL_EXPORTS.values() for name in names)]


def _load_kernels() -> None:
    """Import the switch, then every kernel module, and bind the public names to the functions
    (importing module ``softmax`` made ``tensorlab.kernels.softmax`` the module until now)."""
    for module_name, names in _KERNEL_EXPORTS.items():
        module = importlib.import_module(f".{module_name}", __name__)
        for name in names:
            globals()[name] = getattr(module, name)


def __getattr__(name: str) -> Any:
    if name in __all__:
        _load_kernels()
        return globals()[name]
    raise AttributeError(f"module 'tensorlab.kernels' has no attribute '{name}'")
