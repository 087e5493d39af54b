"""Explorers: see a tensor rule happen. Each is a pure-Python model, an SVG picture and a widget.

- :class:`BroadcastExplorer`: how shapes align, stretch and combine (also matmul's batch rule);
- :class:`StrideExplorer`: how view ops change shape, strides and offset over one storage;
- :class:`StrideDrill`: predict the strides of a view before the picture shows them;
- :class:`VersionExplorer`: tensors sharing a storage, and its version counter, statement by statement;
- :class:`ReductionExplorer`: which input elements each output of a reduction adds up;
- :class:`JoinExplorer`: cat/stack copy blocks into a new tensor, split/chunk/unbind cut views out of one;
- :class:`IndexExplorer`: which input element each output of an index reads, and where an assignment writes;
- :class:`GatherExplorer`: which input element each gather output reads, which slot each scatter source writes;
- :class:`GraphExplorer`: the autograd graph of an expression, and backward step by step;
- :class:`CollectiveExplorer`: ring all-reduce step by step, whose data each rank's chunks hold;
- :class:`MemoryExplorer`: what each module saves for backward, and what checkpointing drops and recomputes.

Colours and layout follow one convention (``docs/widgets.md``). Importing this package does
not import ipywidgets; the interactive view is built the first time it is displayed.
"""

from .broadcast import BroadcastExplorer, BroadcastModel
from .collective import CollectiveExplorer, CollectiveModel
from .gather import GatherExplorer, GatherModel
from .graph import GraphExplorer, GraphModel
from .index import IndexExplorer, IndexModel
from .join import JoinExplorer, JoinModel
from .memory import MemoryExplorer, MemoryModel
from .reduction import ReductionExplorer, ReductionModel
from .stride_drill import StrideDrill, StrideDrillModel
from .strides import StrideExplorer, StrideModel
from .versions import VersionExplorer, VersionModel

__all__ = [
    "BroadcastExplorer", "BroadcastModel", "CollectiveExplorer", "CollectiveModel", "GatherExplorer",
    "GatherModel", "GraphExplorer", "GraphModel", "IndexExplorer", "IndexModel", "JoinExplorer", "JoinModel",
    "MemoryExplorer", "MemoryModel",
    "ReductionExplorer", "ReductionModel", "StrideDrill", "StrideDrillModel", "StrideExplorer", "StrideModel",
    "VersionExplorer", "VersionModel",
]
