"""``tensorlab.functional``: what ``import torch.functional as F`` gives, for old course code.

torch.functional is a module of torch's, not a namespace of its own: every name in it is also a
``torch.<name>`` function (``torch.functional.einsum is torch.einsum``), and the same holds here.
Most code should simply call ``torch.einsum`` — this module exists so that scripts which import it
run unchanged. (Not to be confused with ``torch.nn.functional``, the layers as functions.)

Left out, as tensorlab has no such op yet: ``stft``/``istft`` (signal processing), ``lu`` (use
``linalg``'s solve/det instead), ``pca_lowrank``/``svd_lowrank`` (randomised algorithms),
``chain_matmul`` (deprecated in torch: use ``linalg.multi_dot`` or ``@``).
"""

from __future__ import annotations

from .ops.broadcasting import broadcast_shapes, broadcast_tensors
from .ops.einsum import einsum
from .ops.join import split
from .ops.reduction import norm
from .ops.unique import unique, unique_consecutive

__all__ = ["broadcast_shapes", "broadcast_tensors", "einsum", "norm", "split", "unique", "unique_consecutive"]
