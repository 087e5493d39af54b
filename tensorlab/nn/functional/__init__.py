"""tensorlab.nn.functional: the layers of nn as plain functions, one module per family.

The modules mirror ``nn/modules/``: ``activation`` (relu, gelu, softmax...), ``linear``,
``conv`` (and pad), ``pooling``, ``normalization`` (layer_norm), ``dropout``, ``sparse``
(embedding, one_hot) and ``loss``. An nn layer holds parameters and options and calls the
function of the same family here. Ops the tensor itself needs (softmax, convolution, pooling,
pad) live in ``tensorlab/ops/`` and are re-exported under their torch.nn.functional names.
"""

import sys as _sys

from ... import overrides as _overrides
from .activation import *  # noqa: F403
from .activation import __all__ as _activation
from .attention import *  # noqa: F403
from .attention import __all__ as _attention
from .batchnorm import *  # noqa: F403
from .batchnorm import __all__ as _batchnorm
from .conv import *  # noqa: F403
from .conv import __all__ as _conv
from .distance import *  # noqa: F403
from .distance import __all__ as _distance
from .dropout import *  # noqa: F403
from .dropout import __all__ as _dropout
from .likelihood_loss import *  # noqa: F403
from .likelihood_loss import __all__ as _likelihood_loss
from .linear import *  # noqa: F403
from .linear import __all__ as _linear
from .loss import *  # noqa: F403
from .loss import __all__ as _loss
from .margin_loss import *  # noqa: F403
from .margin_loss import __all__ as _margin_loss
from .normalization import *  # noqa: F403
from .normalization import __all__ as _normalization
from .piecewise_activation import *  # noqa: F403
from .piecewise_activation import __all__ as _piecewise_activation
from .pooling import *  # noqa: F403
from .pooling import __all__ as _pooling
from .regression_loss import *  # noqa: F403
from .regression_loss import __all__ as _regression_loss
from .smooth_activation import *  # noqa: F403
from .smooth_activation import __all__ as _smooth_activation
from .sparse import *  # noqa: F403
from .sparse import __all__ as _sparse
from .upsampling import *  # noqa: F403
from .upsampling import __all__ as _upsampling

__all__ = [*_activation, *_batchnorm, *_conv, *_dropout, *_linear, *_loss, *_normalization, *_pooling, *_sparse]
__all__ += [*_piecewise_activation, *_smooth_activation, *_likelihood_loss, *_margin_loss, *_regression_loss, *_distance]  # API breadth
__all__ += [*_upsampling, *_attention]  # interpolate, scaled_dot_product_attention

# Every function above, wrapped once so that function modes (vmap, fx tracing) see F.linear(x, w):
# tensorlab/overrides.py. Nothing here is reassigned later.
_overrides.wrap_public_functions(_sys.modules[__name__])
