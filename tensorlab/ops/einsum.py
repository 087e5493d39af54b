"""einsum: a whole family of products and reductions named by index letters.

``einsum('bij,bjk->bik', A, B)`` reads "for every b, i, k: sum over j of A[b,i,j] * B[b,j,k]".
tensorlab evaluates an equation with ops that already have gradients, so einsum needs no
backward of its own:

1. **parse** the equation (or the sublist form) into one label list per operand and the output;
   ``...`` becomes one label per broadcast dim;
2. per operand, a **repeated** label takes a diagonal (``'ii->i'``), and a label used nowhere
   else is **summed** away (``'ij->i'``);
3. operands are **contracted** left to right, two at a time: permute each so its labels read
   (batch, own, contracted), reshape to 3-d, and do **one matmul** — the BLAS call;
4. the result is **permuted** into the output order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._tensor import Tensor

__all__ = ["einsum"]  # parse_equation is for the einsum explorer, not the torch namespace

Label = Any  # a letter, or an int for the k-th dim covered by "..."


# --- parsing -----------------------------------------------------------------------------------
def _sublist_to_equation(args: Sequence[Any]) -> tuple[str, list[Tensor]]:
    """einsum(A, [0, 1], B, [1, 2], [0, 2]) -> ('AB,BC->AC', [A, B]); ints 0-25 are A-Z, 26-51 are a-z."""
    def letters(sublist: Sequence[Any]) -> str:
        out = []
        for s in sublist:
            if s is Ellipsis:
                out.append("...")
            elif isinstance(s, int) and 0 <= s < 52:
                out.append(chr(ord("A") + s) if s < 26 else chr(ord("a") + s - 26))
            else:
                raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")
        return "".join(out)

    operands = list(args[0::2])
    terms = [letters(s) for s in args[1::2]]
    if len(args) % 2:  # an odd count: the last sublist is the output
        operands = operands[:-1]
        return ",".join(terms) + "->" + letters(args[-1]), operands
    return ",".join(terms), operands


def _parse_term(term: str, operand_index: int | None, offset: int = 0) -> list[Label]:
    """Letters of one term (operand_index None: the output); '...' stays one Ellipsis marker, expanded later.

    ``offset`` is where the term starts in the equation, so errors point at the right character.
    """
    where = "output" if operand_index is None else f"operand {operand_index}"
    labels: list[Label] = []
    i = 0
    while i < len(term):
        char = term[i]
        if char == " ":
            i += 1
            continue
        if char == ".":
            if Ellipsis in labels:
                already = "but an ellipsis (...)" if operand_index is None else "for which an ellipsis"
                raise RuntimeError(f"einsum(): found '.' for {where} {already} was already found")
            if not term.startswith("...", i):
                suffix = " (...)" if operand_index is None else ""  # torch words the two cases differently
                raise RuntimeError(f"einsum(): found '.' for {where} that is not part of any ellipsis{suffix}")
            labels.append(Ellipsis)
            i += 3
            continue
        if not ("a" <= char <= "z" or "A" <= char <= "Z"):
            raise RuntimeError(
                f"einsum(): invalid subscript given at index {offset + i} in the equation string, "
                "subscripts must be in [a-zA-Z]"
            )
        labels.append(char)
        i += 1
    return labels


def _expand_ellipsis(labels: list[Label], ndim: int, operand_index: int) -> list[Label]:
    """Replace '...' by int labels for the dims it covers, counted from the right (they broadcast)."""
    named = [lab for lab in labels if lab is not Ellipsis]
    if Ellipsis not in labels:
        if len(named) != ndim:
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(named)}) does not match the number "
                f"of dimensions ({ndim}) for operand {operand_index} and no ellipsis was given"
            )
        return labels
    if len(named) > ndim:
        raise RuntimeError(
            f"einsum(): the number of subscripts in the equation ({len(named)}) is more than the number of "
            f"dimensions ({ndim}) for operand {operand_index}"
        )
    covered = ndim - len(named)
    at = labels.index(Ellipsis)
    # int label -k means "k-th dim from the right of the ellipsis block", so blocks align on the right
    return labels[:at] + [-(covered - j) for j in range(covered)] + labels[at + 1 :]


def _output_labels(output: str | None, inputs: list[list[Label]], ellipsis_rank: int, offset: int) -> list[Label]:
    ellipsis_labels = [-(ellipsis_rank - j) for j in range(ellipsis_rank)]
    if output is None:  # implicit: broadcast dims, then the letters seen exactly once, sorted
        counts: dict[Label, int] = {}
        for labels in inputs:
            for lab in labels:
                if isinstance(lab, str):
                    counts[lab] = counts.get(lab, 0) + 1
        return ellipsis_labels + sorted(lab for lab, c in counts.items() if c == 1)
    labels = _parse_term(output, None, offset)
    result: list[Label] = []
    seen_anywhere = {lab for labels_ in inputs for lab in labels_}
    for lab in labels:
        if lab is Ellipsis:
            result.extend(ellipsis_labels)
            continue
        if lab in result:
            raise RuntimeError(f"einsum(): output subscript {lab} appears more than once in the output")
        if lab not in seen_anywhere:
            raise RuntimeError(f"einsum(): output subscript {lab} does not appear in the equation for any input operand")
        result.append(lab)
    return result


def _label_sizes(shapes: Sequence[Sequence[int]], inputs: list[list[Label]]) -> dict[Label, int]:
    """The size of every label across operands: equal, or 1 (which broadcasts)."""
    sizes: dict[Label, int] = {}
    for k, (shape, labels) in enumerate(zip(shapes, inputs, strict=True)):
        first_size: dict[Label, int] = {}
        for lab, size in zip(labels, shape, strict=True):
            if first_size.setdefault(lab, size) != size:
                raise RuntimeError(
                    f"einsum(): subscript {lab} is repeated for operand {k} but the sizes don't match, "
                    f"{size} != {first_size[lab]}"
                )
        for lab, size in zip(labels, shape, strict=True):
            seen = sizes.get(lab)
            if seen is None or seen == 1:
                sizes[lab] = size
            elif size not in (1, seen):
                if isinstance(lab, int):
                    raise RuntimeError(
                        f"einsum(): dimension {lab} covered by ellipsis in operand {k}has size {size} which does not "
                        f"broadcast with previously seen ellipsis with size {seen} for the respective dimension"
                    )
                raise RuntimeError(
                    f"einsum(): subscript {lab} has size {size} for operand {k} which does not broadcast with "
                    f"previously seen size {seen}"
                )
    return sizes


# --- the three tensor steps ------------------------------------------------------------------
def _take_diagonals(x: Tensor, labels: list[Label]) -> tuple[Tensor, list[Label]]:
    """A label repeated within one operand walks the diagonal: x.diagonal moves it to the end."""
    labels = list(labels)
    while True:
        repeated = next((lab for lab in labels if labels.count(lab) > 1), None)
        if repeated is None:
            return x, labels
        d1 = labels.index(repeated)
        d2 = labels.index(repeated, d1 + 1)  # sizes already checked equal by _label_sizes
        x = x.diagonal(0, d1, d2)
        labels = [lab for i, lab in enumerate(labels) if i not in (d1, d2)] + [repeated]


def _sum_labels(x: Tensor, labels: list[Label], drop: set) -> tuple[Tensor, list[Label]]:
    dims = [i for i, lab in enumerate(labels) if lab in drop]
    if not dims:
        return x, labels
    return x.sum(dims), [lab for lab in labels if lab not in drop]


def _contract(a: Tensor, la: list[Label], b: Tensor, lb: list[Label], keep: set, sizes: dict) -> tuple[Tensor, list[Label]]:
    """Multiply two operands and sum their shared labels that are not kept, as one batched matmul.

    Labels split into batch (in both, kept), contracted (in both, not kept) and each operand's
    own. A becomes (batch, own_a, contracted) -> (B, M, K), B becomes (batch, contracted, own_b)
    -> (B, K, N); A @ B is (B, M, N), reshaped back to (batch..., own_a..., own_b...).
    """
    batch = [lab for lab in la if lab in lb and lab in keep]
    contracted = [lab for lab in la if lab in lb and lab not in keep]
    own_a = [lab for lab in la if lab not in lb]
    own_b = [lab for lab in lb if lab not in la]

    def arrange(x: Tensor, labels: list[Label], order: list[Label], groups: list[list[Label]]) -> Tensor:
        x = x.permute(tuple(labels.index(lab) for lab in order))
        x = x.expand(tuple(sizes[lab] for lab in order))  # a size-1 label broadcasts against the other operand
        return x.reshape(tuple(_prod(sizes[lab] for lab in group) for group in groups))

    a3 = arrange(a, la, batch + own_a + contracted, [batch, own_a, contracted])
    b3 = arrange(b, lb, batch + contracted + own_b, [batch, contracted, own_b])
    product = a3 @ b3
    result_labels = batch + own_a + own_b
    return product.reshape(tuple(sizes[lab] for lab in result_labels)), result_labels


def _prod(values: Any) -> int:
    out = 1
    for v in values:
        out *= v
    return out


# --- public functions ---------------------------------------------------------------------------
def parse_equation(equation: str, shapes: Sequence[Sequence[int]]) -> tuple[list[list[Label]], list[Label], dict[Label, int]]:
    """Step 1 alone, from shapes: each operand's labels, the output's labels and every label's size.

    A dim covered by ``...`` gets the int label -k (the k-th such dim from the right), so the
    ellipsis blocks of all operands line up on the right. Raises torch's RuntimeError for a
    malformed equation or sizes that clash (the einsum explorer shows the same).
    """
    lhs, arrow, output = equation.partition("->")
    terms = lhs.split(",")
    offsets = [sum(len(t) + 1 for t in terms[:k]) for k in range(len(terms))]  # where each term starts
    if len(shapes) < len(terms):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(shapes) > len(terms):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    inputs = [
        _expand_ellipsis(_parse_term(term, k, offsets[k]), len(shape), k)
        for k, (term, shape) in enumerate(zip(terms, shapes, strict=True))
    ]
    ellipsis_rank = max((-min((lab for lab in labels if isinstance(lab, int)), default=0) for labels in inputs), default=0)
    out_labels = _output_labels(output if arrow else None, inputs, ellipsis_rank, offset=len(lhs) + 2)
    return inputs, out_labels, _label_sizes(shapes, inputs)


def einsum(*args: Any) -> Tensor:
    """Sum of products named by index letters, as torch.einsum (string or sublist form)."""
    if args and not isinstance(args[0], str):
        equation, operands = _sublist_to_equation(args)
    else:
        equation, operands = args[0], list(args[1:])
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = list(operands[0])
    inputs, out_labels, sizes = parse_equation(equation, [tuple(x.shape) for x in operands])

    # per operand: diagonals of repeated labels, then sum labels nobody else needs
    prepared = []
    for k, (x, labels) in enumerate(zip(operands, inputs, strict=True)):
        x, labels = _take_diagonals(x, labels)
        others = {lab for j, other in enumerate(inputs) if j != k for lab in other}
        x, labels = _sum_labels(x, labels, {lab for lab in labels if lab not in others and lab not in out_labels})
        prepared.append((x, labels))

    # contract left to right
    result, labels = prepared[0]
    for k in range(1, len(prepared)):
        later = {lab for _, other in prepared[k + 1 :] for lab in other}
        b, lb = prepared[k]
        result, labels = _contract(result, labels, b, lb, later | set(out_labels), sizes)

    result, labels = _sum_labels(result, labels, {lab for lab in labels if lab not in out_labels})
    if labels != out_labels:
        result = result.permute(tuple(labels.index(lab) for lab in out_labels))
    return result
