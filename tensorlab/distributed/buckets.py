"""Gradient buckets: why DDP sends a few large all-reduces instead of one per parameter.

Each all-reduce pays a latency α however small it is (see ``simulator.py``), so DDP packs
gradients into buckets and all-reduces a bucket as soon as every gradient in it is ready,
overlapping communication with the rest of backward. Gradients become ready roughly in reverse
order of the model's parameters, so DDP fills buckets in that order.

The rule, the one torch's reducer uses (``torch.distributed._compute_bucket_assignment_by_size``):
in ready order, a gradient joins the open bucket, and the bucket is closed as soon as it holds at
least the cap. So ``bucket_cap_mb`` is a threshold, not a ceiling: a bucket can pass the cap by its
last gradient, and a gradient larger than the cap fills a bucket alone. (Real DDP also keeps
dtypes apart, makes its first bucket small, 1 MB, so the first all-reduce starts early, and
rebuilds its buckets after the first iteration from the order it observed.)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["assign_buckets"]


def assign_buckets(ready_sizes: Sequence[int], cap: int) -> list[list[int]]:
    """Indices of the gradients (numbered in ready order) in each bucket, for sizes in bytes."""
    buckets: list[list[int]] = []
    open_bucket: list[int] = []
    filled = 0
    for index, size in enumerate(ready_sizes):
        open_bucket.append(index)
        filled += size
        if filled >= cap:
            buckets.append(open_bucket)
            open_bucket, filled = [], 0
    if open_bucket:
        buckets.append(open_bucket)
    return buckets
