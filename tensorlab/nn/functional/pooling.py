"""Pooling as functions: max_pool1d/2d and avg_pool1d/2d, a max or mean over sliding windows.

The windows are the same strided view convolution uses (``ops/windows.py``); the ops live in
``ops/pooling.py``, and this module gives them their torch.nn.functional names (nn.MaxPool*,
nn.AvgPool*).
"""

from __future__ import annotations

from ...ops.pooling import avg_pool1d, avg_pool2d, max_pool1d, max_pool2d

__all__ = ["avg_pool1d", "avg_pool2d", "max_pool1d", "max_pool2d"]
