"""tensorlab.kernels: readable Triton kernels, each next to the torch function that launches it.

Unlike the rest of tensorlab this package imports torch and triton (``import tensorlab`` loads
neither). ``backend`` is imported first: it decides, before any ``@triton.jit`` runs, whether the
kernels compile for a CUDA GPU or run on Triton's interpreter (see its docstring). docs/kernels.md
maps each kernel to its tile-and-mask picture.
"""

from .backend import backend, device  # first: the switch must be set before any kernel is decorated
from .bias_relu import BiasReLU, bias_relu, bias_relu_backward_kernel, bias_relu_kernel
from .layer_norm import layer_norm, layer_norm_kernel
from .matmul import matmul, matmul_kernel
from .softmax import online_softmax, online_softmax_kernel, softmax, softmax_kernel
from .tiles import cdiv, grouped_tile
from .vector_add import add, add_kernel
