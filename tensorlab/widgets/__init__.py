"""Explorers: see a tensor rule happen. Each is a pure-Python model, an SVG picture and a widget.

- :class:`BroadcastExplorer`: how shapes align, stretch and combine (also matmul's batch rule);
- :class:`StrideExplorer`: how view ops change shape, strides and offset over one storage;
- :class:`StrideDrill`: predict the strides of a view before the picture shows them;
- :class:`VersionExplorer`: tensors sharing a storage, and its version counter, statement by statement;
- :class:`ReductionExplorer`: which input elements each output of a reduction adds up;
- :class:`JoinExplorer`: cat/stack copy blocks into a new tensor, split/chunk/unbind cut views out of one;
- :class:`IndexExplorer`: which input element each output of an index reads, and where an assignment writes;
- :class:`GatherExplorer`: which input element each gather output reads, which slot each scatter source writes;
- :class:`ConvExplorer`: the receptive field (padded input elements and kernel taps) of each convolution output;
- :class:`EinsumExplorer`: an einsum spec as nested loops, every use of an index letter linked;
- :class:`GraphExplorer`: the autograd graph of an expression, and backward step by step;
- :class:`GraphBreakExplorer`: a function's source coloured by compiled graph, each graph break explained;
- :class:`ModuleExplorer`: a model's module tree and parameters, and where a forward pass (and its hooks) runs;
- :class:`MemoryExplorer`: what each module saves for backward, and what checkpointing drops and recomputes;
- :class:`CollectiveExplorer`: ring all-reduce step by step, whose data each rank's chunks hold;
- :class:`VmapExplorer`: each op of a function under vmap, its shapes logical and physical;
- :class:`PrecisionExplorer`: the values a float format can hold around x, where x rounds to, its bits and error;
- :class:`TileExplorer`: which block of a matmul (or row of a softmax) each Triton program computes, the tiles it loads, its masks.

Colours and layout follow one convention (``docs/widgets.md``). Importing this package does
not import ipywidgets; the interactive view is built the first time it is displayed.
"""

from .broadcast import BroadcastExplorer, BroadcastModel
from .collective import CollectiveExplorer, CollectiveModel
from .conv import ConvExplorer, ConvModel
from .einsum import EinsumExplorer, EinsumModel
from .gather import GatherExplorer, GatherModel
from .graph import GraphExplorer, GraphModel
from .graph_breaks import GraphBreakExplorer, GraphBreakModel
from .index import IndexExplorer, IndexModel
from .join import JoinExplorer, JoinModel
from .memory import MemoryExplorer, MemoryModel
from .modules import ModuleExplorer, ModuleModel
from .precision import PrecisionExplorer, PrecisionModel
from .reduction import ReductionExplorer, ReductionModel
from .stride_drill import StrideDrill, StrideDrillModel
from .strides import StrideExplorer, StrideModel
from .tiles import TileExplorer
from .versions import VersionExplorer, VersionModel
from .vmap import VmapExplorer, VmapModel

__all__ = [
    "BroadcastExplorer", "BroadcastModel", "CollectiveExplorer", "CollectiveModel", "ConvExplorer", "ConvModel",
    "EinsumExplorer", "EinsumModel", "GatherExplorer", "GatherModel", "GraphBreakExplorer", "GraphBreakModel", "GraphExplorer", "GraphModel",
    "IndexExplorer", "IndexModel", "JoinExplorer", "JoinModel", "MemoryExplorer", "MemoryModel", "ModuleExplorer", "ModuleModel",
    "ReductionExplorer", "ReductionModel", "StrideDrill", "StrideDrillModel", "StrideExplorer", "StrideModel",
    "VersionExplorer", "VersionModel", "VmapExplorer", "VmapModel",
    "PrecisionExplorer", "PrecisionModel",
    "TileExplorer",
]
