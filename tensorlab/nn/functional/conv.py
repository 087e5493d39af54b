"""Convolutions as functions: conv1d/2d, conv_transpose1d/2d, unfold/fold, and pad.

The arithmetic lives in the core library, because tensors use it too: ``ops/conv.py``
(unfold + one matmul, its adjoint fold for the backward), ``ops/windows.py`` (unfold/fold
themselves) and ``ops/padding.py``. This module
gives them their torch.nn.functional names; nn.Conv1d/Conv2d call them.
"""

from __future__ import annotations

from ...ops.conv import conv1d, conv2d, conv_transpose1d, conv_transpose2d
from ...ops.padding import pad
from ...ops.windows import fold, unfold

__all__ = ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "fold", "pad", "unfold"]
