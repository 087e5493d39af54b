"""tensorlab: a readable tensor + autograd library that behaves like torch, op for op.

``import tensorlab as torch`` runs the course's examples with torch's results. Each public
function below lives in a module that does one thing; each op module lists its public names
in ``__all__``, and this namespace re-exports them.
"""

from __future__ import annotations

import sys as _sys

from . import autograd
from ._creation import (
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    logspace,
    ones,
    ones_like,
    tensor,
    zeros,
    zeros_like,
)
from ._device import device
from ._dtype import (
    bfloat16,
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    result_type,
    set_default_dtype,
    uint8,
)
from ._dtype import (
    bool_ as bool,  # noqa: A004 - torch's name
)
from ._dtype_limits import finfo, iinfo
from ._fast import enabled_now as fast_path_enabled
from ._fast import fast_path, set_fast_path

# random streams (Generator, as torch's CPU generator) and checkpoints (save/load)
from ._generator import Generator
from ._legacy_types import *  # noqa: F403
from ._printing import set_printoptions
from ._random import (
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    seed,
    set_rng_state,
)
from ._storage import Storage
from ._tensor import Size, Tensor, is_tensor, numel
from ._threads import get_num_threads, set_num_threads
from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .autograd.grad_mode import is_inference_mode_enabled
from .ops import inplace as _inplace

# torch's out= keyword, on the namespace functions that have it (methods have none): ops/out.py
from .ops import out as _out
from .ops.arithmetic import *  # noqa: F403
from .ops.atleast import *  # noqa: F403
from .ops.block_diag import block_diag
from .ops.broadcasting import broadcast_shapes, broadcast_tensors, broadcast_to
from .ops.cdist import cdist
from .ops.comparison import *  # noqa: F403
from .ops.conv import *  # noqa: F403
from .ops.copy import clone
from .ops.cross import cross
from .ops.decompositions import svd
from .ops.decompositions import torch_qr as qr
from .ops.einsum import *  # noqa: F403
from .ops.erf import *  # noqa: F403
from .ops.exp_log import *  # noqa: F403
from .ops.extrema import *  # noqa: F403
from .ops.gather_scatter import *  # noqa: F403
from .ops.grids import *  # noqa: F403
from .ops.histograms import *  # noqa: F403
from .ops.index_slices import *  # noqa: F403
from .ops.indexing import *  # noqa: F403
from .ops.inplace_views import as_strided_
from .ops.join import *  # noqa: F403
from .ops.linalg import *  # noqa: F403
from .ops.matrix_inverse import *  # noqa: F403
from .ops.movement import *  # noqa: F403
from .ops.normal import normal
from .ops.pooling import *  # noqa: F403
from .ops.reduction import *  # noqa: F403
from .ops.sampling import *  # noqa: F403
from .ops.softmax import torch_log_softmax as log_softmax
from .ops.softmax import torch_softmax as softmax
from .ops.sorting import *  # noqa: F403
from .ops.tensordot import tensordot
from .ops.trig import *  # noqa: F403
from .ops.unary_math import *  # noqa: F403
from .ops.unique import *  # noqa: F403
from .ops.unravel_index import unravel_index
from .ops.variance import *  # noqa: F403
from .ops.views import *  # noqa: F403
from .serialization import load, save

# torch.sin_(x), torch.exp_(x)...: the in-place ops in the namespace, as torch has them (ops/inplace.py)
globals().update({name: getattr(_inplace, name) for name in _inplace.NAMESPACE_INPLACE})

# torch's out= keyword, on the namespace functions that have it (methods have none): ops/out.py
globals().update({name: _out.accepts_out(globals()[name]) for name in _out.OPS_WITH_OUT})

# Every public function above, wrapped once so that function modes (vmap, fx tracing) see each call,
# ``from tensorlab import sin`` included: overrides.py. Nothing in this namespace is reassigned later.
from . import overrides  # noqa: E402

overrides.wrap_public_functions(_sys.modules[__name__])

half, float, double = float16, float32, float64  # noqa: A001
long, int, short = int64, int32, int16  # noqa: A001

__version__ = "0.1.0"

# Subpackages that pull in more code load on first use, so `import tensorlab` stays fast. Only
# modules that exist: any other name is an AttributeError, so `hasattr(tensorlab, name)` is False.
_LAZY_SUBMODULES = {
    "nn", "optim", "metrics", "utils", "einops", "widgets", "grading", "distributed", "cuda", "accelerator",
    "profiler", "linalg", "functional", "func",
    "kernels",  # Triton kernels (imports torch and triton when first touched)
}


def __getattr__(name: str) -> object:
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'tensorlab' has no attribute '{name}'")
