"""Distributed training, made visible: a collective simulator you can read, and real processes on loopback.

- :mod:`~tensorlab.distributed.simulator`: N ranks in one process, each a NumPy buffer; ring
  all-reduce as reduce-scatter + all-gather, tree broadcast and reduce, with every message recorded
  (step, sender, receiver, chunk, bytes) and the α–β cost of the whole collective.
- :func:`~tensorlab.distributed.launch.run`: run a function on N local processes joined in a
  ``torch.distributed`` process group (gloo on 127.0.0.1), and get each rank's result back, with a
  timeout and a clear error when a rank fails. It imports torch; the simulator does not.
- :func:`~tensorlab.distributed.buckets.assign_buckets`: how DDP packs gradients into buckets.
"""

from .buckets import assign_buckets
from .launch import RankError, run
from .simulator import (
    Message,
    Trace,
    all_gather,
    ring_all_reduce,
    ring_all_reduce_seconds,
    ring_reduce_scatter,
    tree_all_reduce_seconds,
    tree_broadcast,
    tree_reduce,
)

__all__ = [
    "Message", "assign_buckets", "RankError", "Trace", "all_gather", "ring_all_reduce", "ring_all_reduce_seconds", "ring_reduce_scatter",
    "run", "tree_all_reduce_seconds", "tree_broadcast", "tree_reduce",
]
