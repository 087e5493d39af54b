"""tensorlab.func: torch.func's transforms, on tensorlab's autograd, as readable code.

- ``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian``: ``transforms.py``;
- ``vmap`` with batching rules (``rules.py``) and the BatchedTensor it passes around (``batched.py``);
- ``functional_call``, ``stack_module_state``: ``functional_call.py``.
"""

from __future__ import annotations

from .batched import BatchedTensor
from .functional_call import functional_call, stack_module_state
from .transforms import grad, grad_and_value, hessian, jacfwd, jacrev, jvp, vjp
from .vmap import vmap

__all__ = [
    "BatchedTensor", "functional_call", "grad", "grad_and_value", "hessian", "jacfwd", "jacrev",
    "jvp", "stack_module_state", "vjp", "vmap",
]
