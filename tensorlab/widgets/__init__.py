"""Explorers: see a tensor rule happen. Each is a pure-Python model, an SVG picture and a widget.

- :class:`BroadcastExplorer`: how shapes align, stretch and combine (also matmul's batch rule);
- :class:`StrideExplorer`: how view ops change shape, strides and offset over one storage;
- :class:`GraphExplorer`: the autograd graph of an expression, and backward step by step;
- :class:`VersionExplorer`: which tensors share a storage, and its version counter, op by op.

Colours and layout follow one convention (``docs/widgets.md``). Importing this package does
not import ipywidgets; the interactive view is built the first time it is displayed.
"""

from .broadcast import BroadcastExplorer, BroadcastModel
from .graph import GraphExplorer, GraphModel
from .strides import StrideExplorer, StrideModel
from .versions import VersionExplorer, VersionModel

__all__ = ["BroadcastExplorer", "BroadcastModel", "GraphExplorer", "GraphModel", "StrideExplorer", "StrideModel",
           "VersionExplorer", "VersionModel"]
