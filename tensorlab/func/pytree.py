"""Nested containers of tensors (tuples, lists, dicts) as a flat list of leaves and a spec to rebuild them.

The transforms take and return such containers (a model's parameter dict, a tuple of inputs):
they work on the flat leaves and rebuild the caller's structure at the end.
"""

from __future__ import annotations

from typing import Any

Spec = Any  # None for a leaf, else (container type, keys or length, child specs)


def flatten(tree: Any) -> tuple[list[Any], Spec]:
    """The leaves of ``tree`` in order, and the spec :func:`unflatten` needs."""
    if isinstance(tree, dict):
        keys = list(tree)
        parts = [flatten(tree[k]) for k in keys]
        return [leaf for leaves, _ in parts for leaf in leaves], (type(tree), keys, [s for _, s in parts])
    if isinstance(tree, (list, tuple)) and not hasattr(tree, "_fields"):
        parts = [flatten(item) for item in tree]
        return [leaf for leaves, _ in parts for leaf in leaves], (type(tree), len(tree), [s for _, s in parts])
    return [tree], None


def unflatten(leaves: list[Any], spec: Spec) -> Any:
    """Rebuild the container ``spec`` describes, with ``leaves`` in its leaf slots."""
    rebuilt, rest = _build(list(leaves), spec)
    assert not rest, "more leaves than the spec has slots"
    return rebuilt


def _build(leaves: list[Any], spec: Spec) -> tuple[Any, list[Any]]:
    if spec is None:
        return leaves[0], leaves[1:]
    kind, keys, children = spec
    items = []
    for child in children:
        item, leaves = _build(leaves, child)
        items.append(item)
    if issubclass(kind, dict):
        return kind(zip(keys, items, strict=True)), leaves
    return kind(items), leaves
