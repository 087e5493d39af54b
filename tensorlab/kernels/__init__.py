"""tensorlab.kernels: readable Triton kernels, each next to the torch function that launches it.

Unlike the rest of tensorlab this package imports torch and triton (``import tensorlab`` loads
neither). ``backend`` is imported first: it decides, before any ``@triton.jit`` runs, whether the
kernels compile for a CUDA GPU or run on Triton's interpreter (see its docstring).
"""

from .backend import backend, device  # first: the switch must be set before any kernel is decorated
from .bias_relu import BiasReLU, bias_relu, bias_relu_backward_kernel, bias_relu_kernel
from .tiles import cdiv, grouped_tile
from .vector_add import add, add_kernel
