"""Tensor's methods: which op each one is, bound onto the class in one place.

``x.exp()`` is ``tensorlab.ops.unary_math.exp(x)``. Most methods *are* their op's function,
bound as a method (its first argument becomes ``self``); each family's class below names that
function, so a reader goes from a method straight to the op, its forward and its backward.
Where the method's signature differs from the function's (torch calls the method's second
argument ``other``, ``x.flip(0, 1)`` takes dims unpacked, ``x.float()`` is ``to(float32)``), a
two-line adapter is written here. :func:`bind_methods` puts every family on Tensor when
``tensorlab._tensor`` is imported; ``_tensor.py`` keeps the data structure and the operators.
It then wraps every public method and operator once, so that function modes
(``tensorlab/overrides.py``: vmap, fx tracing) see ``x.exp()`` and ``x + y``; ``Tensor.exp.__wrapped__``
is the op's function.
"""

from __future__ import annotations

from typing import Any

from . import _creation, _dtype
from ._device import check_device
from ._tensor import Tensor
from .ops import (
    arithmetic,
    broadcasting,
    comparison,
    decompositions,
    exp_log,
    extrema,
    gather_scatter,
    histograms,
    index_slices,
    indexing,
    inplace,
    inplace_views,
    join,
    linalg,
    matrix_inverse,
    movement,
    normal,
    reduction,
    sampling,
    sorting,
    trig,
    unary_math,
    variance,
    views,
)
from .ops import copy as copies
from .ops import cross as cross_ops
from .ops import erf as erf_ops
from .ops import softmax as softmax_op
from .ops import unique as unique_ops
from .overrides import wrap_tensor_methods


# --- elementwise -----------------------------------------------------------------------------------
def add(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    return arithmetic.add(self, other, alpha=alpha)


def sub(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    return arithmetic.sub(self, other, alpha=alpha)


def mul(self: Tensor, other: Any) -> Tensor:
    return arithmetic.mul(self, other)


def div(self: Tensor, other: Any, *, rounding_mode: str | None = None) -> Tensor:
    return arithmetic.div(self, other, rounding_mode=rounding_mode)


def floor_divide(self: Tensor, other: Any) -> Tensor:
    return arithmetic.floor_divide(self, other)


def remainder(self: Tensor, other: Any) -> Tensor:
    return arithmetic.remainder(self, other)


def power(self: Tensor, exponent: Any) -> Tensor:
    return arithmetic.pow(self, exponent)


def maximum(self: Tensor, other: Tensor) -> Tensor:
    return arithmetic.maximum(self, other)


def minimum(self: Tensor, other: Tensor) -> Tensor:
    return arithmetic.minimum(self, other)


def where(self: Tensor, condition: Tensor, other: Any) -> Tensor:
    return comparison.where(condition, self, other)


def eq(self: Tensor, other: Any) -> Tensor:
    return comparison.eq(self, other)


def ne(self: Tensor, other: Any) -> Tensor:
    return comparison.ne(self, other)


def lt(self: Tensor, other: Any) -> Tensor:
    return comparison.lt(self, other)


def le(self: Tensor, other: Any) -> Tensor:
    return comparison.le(self, other)


def gt(self: Tensor, other: Any) -> Tensor:
    return comparison.gt(self, other)


def ge(self: Tensor, other: Any) -> Tensor:
    return comparison.ge(self, other)


def equal(self: Tensor, other: Tensor) -> bool:
    return comparison.equal(self, other)


def allclose(self: Tensor, other: Tensor, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False) -> bool:
    return comparison.allclose(self, other, rtol, atol, equal_nan)


def copy_(self: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    return inplace.copy_(self, src)


class ElementwiseMethods:
    """Arithmetic, comparisons, math functions and their in-place forms: ``ops.arithmetic``,
    ``ops.comparison``, ``ops.unary_math`` and ``ops.inplace``."""

    add = add
    sub = sub
    subtract = sub
    mul = mul
    multiply = mul
    div = div
    divide = div
    true_divide = div
    floor_divide = floor_divide
    remainder = remainder
    pow = power
    neg = unary_math.neg
    negative = unary_math.neg
    abs = unary_math.abs
    exp = unary_math.exp
    log = unary_math.log
    sqrt = unary_math.sqrt
    sin = unary_math.sin
    cos = unary_math.cos
    tanh = unary_math.tanh
    sigmoid = unary_math.sigmoid
    relu = unary_math.relu
    clamp = unary_math.clamp
    clip = unary_math.clamp
    floor = unary_math.floor
    ceil = unary_math.ceil
    round = unary_math.round
    sign = unary_math.sign
    maximum = maximum
    minimum = minimum
    where = where
    eq = eq
    ne = ne
    lt = lt
    le = le
    gt = gt
    ge = ge
    logical_not = comparison.logical_not
    bitwise_not = comparison.bitwise_not
    isnan = comparison.isnan
    isinf = comparison.isinf
    isfinite = comparison.isfinite
    equal = equal
    allclose = allclose
    add_ = inplace.add_
    sub_ = inplace.sub_
    mul_ = inplace.mul_
    div_ = inplace.div_
    floor_divide_ = inplace.floor_divide_
    remainder_ = inplace.remainder_
    pow_ = inplace.pow_
    neg_ = inplace.neg_
    abs_ = inplace.abs_
    exp_ = inplace.exp_
    log_ = inplace.log_
    sqrt_ = inplace.sqrt_
    sin_ = inplace.sin_
    cos_ = inplace.cos_
    tanh_ = inplace.tanh_
    sigmoid_ = inplace.sigmoid_
    relu_ = inplace.relu_
    clamp_ = inplace.clamp_
    clip_ = inplace.clamp_
    floor_ = inplace.floor_
    ceil_ = inplace.ceil_
    round_ = inplace.round_
    sign_ = inplace.sign_
    copy_ = copy_
    fill_ = inplace.fill_
    zero_ = inplace.zero_


# --- softmax ---------------------------------------------------------------------------------------
def softmax_method(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    return softmax_op.softmax(self, dim, dtype=dtype)


def log_softmax_method(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    return softmax_op.log_softmax(self, dim, dtype=dtype)


class SoftmaxMethods:
    """softmax and log_softmax along a dim: ``ops.softmax``."""

    softmax = softmax_method
    log_softmax = log_softmax_method


# --- reduction -------------------------------------------------------------------------------------
def norm(self: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    return reduction.norm(self, p, dim, keepdim, dtype=dtype)


class ReductionMethods:
    """Reductions: ``ops.reduction`` (sum, mean...), ``ops.extrema`` (max, min...), ``ops.variance``."""

    sum = reduction.sum
    mean = reduction.mean
    prod = reduction.prod
    max = extrema.max
    min = extrema.min
    amax = extrema.amax
    amin = extrema.amin
    argmax = extrema.argmax
    argmin = extrema.argmin
    sort = sorting.sort
    argsort = sorting.argsort
    msort = sorting.msort
    topk = sorting.topk
    kthvalue = sorting.kthvalue
    median = sorting.median
    square = unary_math.square
    rsqrt = unary_math.rsqrt
    reciprocal = unary_math.reciprocal
    fmod = arithmetic.fmod
    lerp = arithmetic.lerp
    logical_and = comparison.logical_and
    logical_or = comparison.logical_or
    logical_xor = comparison.logical_xor
    cumprod = reduction.cumprod
    count_nonzero = reduction.count_nonzero
    mv = linalg.mv
    diag = linalg.diag
    var = variance.var
    std = variance.std
    logsumexp = reduction.logsumexp
    trace = reduction.trace
    cumsum = reduction.cumsum
    all = reduction.all
    any = reduction.any
    norm = norm


# --- views -----------------------------------------------------------------------------------------
def view_as(self: Tensor, other: Tensor) -> Tensor:
    return views.view(self, other.shape)


def reshape_as(self: Tensor, other: Tensor) -> Tensor:
    return views.reshape(self, other.shape)


def expand_as(self: Tensor, other: Tensor) -> Tensor:
    return views.expand(self, other.shape)


def contiguous(self: Tensor, memory_format: Any = None) -> Tensor:
    if memory_format is not None:  # tensorlab has one memory format: row-major
        raise TypeError(f"contiguous(): argument 'memory_format' must be torch.memory_format, not {type(memory_format).__name__}")
    return views.contiguous(self)


class ViewsMethods:
    """Views (never a copy): ``ops.views``; split/chunk/unbind return views too (``ops.join``)."""

    view = views.view
    view_as = view_as
    reshape = views.reshape
    reshape_as = reshape_as
    flatten = views.flatten
    unflatten = views.unflatten
    permute = views.permute
    transpose = views.transpose
    swapaxes = views.transpose
    swapdims = views.transpose
    t = views.t
    T = property(views.reverse_dims)
    mT = property(views.matrix_transpose)  # noqa: N815 - torch's name
    movedim = views.movedim
    moveaxis = views.movedim
    squeeze = views.squeeze
    unsqueeze = views.unsqueeze
    expand = views.expand
    expand_as = expand_as
    broadcast_to = broadcasting.broadcast_to
    narrow = views.narrow
    select = views.select
    diagonal = views.diagonal
    as_strided = views.as_strided
    unfold = views.unfold
    contiguous = contiguous
    unbind = join.unbind
    split = join.split
    chunk = join.chunk


# --- linalg ----------------------------------------------------------------------------------------
class LinalgMethods:
    """Matrix products: ``ops.linalg``."""

    matmul = linalg.matmul
    mm = linalg.mm
    bmm = linalg.bmm
    dot = linalg.dot
    outer = linalg.outer


# --- indexing --------------------------------------------------------------------------------------
class IndexingMethods:
    """Masks, flat positions and nonzero: ``ops.indexing``."""

    nonzero = indexing.nonzero
    masked_fill = indexing.masked_fill
    masked_fill_ = indexing.masked_fill_
    masked_select = indexing.masked_select
    take = indexing.take
    take_along_dim = indexing.take_along_dim


# --- gather scatter --------------------------------------------------------------------------------
class GatherScatterMethods:
    """gather, scatter, scatter_add, scatter_reduce: ``ops.gather_scatter``."""

    gather = gather_scatter.gather
    scatter = gather_scatter.scatter
    scatter_ = gather_scatter.scatter_
    scatter_add = gather_scatter.scatter_add
    scatter_add_ = gather_scatter.scatter_add_
    scatter_reduce = gather_scatter.scatter_reduce
    scatter_reduce_ = gather_scatter.scatter_reduce_


# --- index slices ---------------------------------------------------------------------------------
class IndexSlicesMethods:
    """index_select, index_add, index_copy, index_fill: ``ops.index_slices``."""

    index_select = index_slices.index_select
    index_add = index_slices.index_add
    index_add_ = index_slices.index_add_
    index_copy = index_slices.index_copy
    index_copy_ = index_slices.index_copy_
    index_fill = index_slices.index_fill
    index_fill_ = index_slices.index_fill_


# --- movement --------------------------------------------------------------------------------------
def flip(self: Tensor, *dims: Any) -> Tensor:
    return movement.flip(self, dims[0] if len(dims) == 1 and not isinstance(dims[0], int) else dims)


def tile(self: Tensor, *dims: Any) -> Tensor:
    return movement.tile(self, dims[0] if len(dims) == 1 and not isinstance(dims[0], int) else dims)


def repeat_interleave(self: Tensor, repeats: Any, dim: int | None = None, *, output_size: int | None = None) -> Tensor:
    return movement.repeat_interleave(self, repeats, dim, output_size=output_size)


class MovementMethods:
    """Copies that move elements (flip, roll, repeat, tril...): ``ops.movement``."""

    flip = flip
    roll = movement.roll
    tril = movement.tril
    triu = movement.triu
    tril_ = movement.tril_
    triu_ = movement.triu_
    repeat = movement.repeat
    tile = tile
    repeat_interleave = repeat_interleave


# --- conversions -----------------------------------------------------------------------------------
def clone(self: Tensor, *, memory_format: Any = None) -> Tensor:
    return copies.clone(self)


def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    return copies.to(self, *args, **kwargs)


def type_or_convert(self: Tensor, dtype: Any = None, non_blocking: bool = False) -> Any:
    """``x.type()`` names x's legacy type; ``x.type(torch.int8)``, ``x.type(torch.CharTensor)``
    and ``x.type("torch.CharTensor")`` convert to it ("torch.cuda.FloatTensor": no GPU here)."""
    if dtype is None:
        return f"tensorlab.{self.dtype.scalar_type}Tensor"
    if isinstance(dtype, str) and dtype.split(".")[1:2] == ["cuda"]:  # torch's error on a build without CUDA
        raise RuntimeError(f"Cannot initialize CUDA: tensorlab has no GPU, so there is no '{dtype}'")
    if isinstance(dtype, str):
        by_name = {f"{prefix}.{d.scalar_type}Tensor": d for d in _dtype.ALL_DTYPES for prefix in ("torch", "tensorlab")}
        if dtype not in by_name:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = by_name[dtype]
    return copies.to(self, getattr(dtype, "dtype", dtype))


def type_as(self: Tensor, other: Tensor) -> Tensor:
    return copies.to(self, other.dtype)


def as_float(self: Tensor) -> Tensor:
    return copies.to(self, _dtype.float32)


def as_double(self: Tensor) -> Tensor:
    return copies.to(self, _dtype.float64)


def as_half(self: Tensor) -> Tensor:
    return copies.to(self, _dtype.float16)


def as_long(self: Tensor) -> Tensor:
    return copies.to(self, _dtype.int64)


def as_int(self: Tensor) -> Tensor:
    return copies.to(self, _dtype.int32)


def as_bool(self: Tensor) -> Tensor:
    return copies.to(self, _dtype.bool_)


def as_byte(self: Tensor) -> Tensor:
    return copies.to(self, _dtype.uint8)


def as_char(self: Tensor) -> Tensor:
    return copies.to(self, _dtype.int8)


def as_short(self: Tensor) -> Tensor:
    return copies.to(self, _dtype.int16)


def cpu(self: Tensor, memory_format: Any = None) -> Tensor:
    return self


def cuda(self: Tensor, device: Any = None, non_blocking: bool = False) -> Tensor:
    """No GPU here: torch's own error for a build without CUDA."""
    check_device("cuda")
    return self


def new_tensor(self: Tensor, data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    return _creation.tensor(data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


def new_zeros(self: Tensor, *size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    return _creation.zeros(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


def new_ones(self: Tensor, *size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    return _creation.ones(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


def new_empty(self: Tensor, *size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    return _creation.empty(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


def new_full(self: Tensor, size: Any, fill_value: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    return _creation.full(size, fill_value, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


class ConversionsMethods:
    """Copies, dtype conversions and factories that follow this tensor's dtype: ``ops.copy``, ``_creation``."""

    clone = clone
    to = to
    type = type_or_convert
    type_as = type_as
    float = as_float
    double = as_double
    half = as_half
    long = as_long
    int = as_int
    bool = as_bool
    byte = as_byte
    char = as_char
    short = as_short
    cpu = cpu
    cuda = cuda
    new_tensor = new_tensor
    new_zeros = new_zeros
    new_ones = new_ones
    new_empty = new_empty
    new_full = new_full


# --- the API beyond the course's ops: more math, sampling, unique, cross, linalg, in-place view changes ---
def cross_method(self: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    return cross_ops.cross(self, other, dim)


class MoreMathMethods:
    """Inverse trig, hyperbolic, log/exp variants, erf (``ops.trig``, ``ops.exp_log``, ``ops.erf``),
    their in-place forms (``ops.inplace``) and ``normal_`` (``ops.normal``)."""

    tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh = trig.tan, trig.asin, trig.acos, trig.atan, trig.sinh, trig.cosh, trig.asinh, trig.acosh, trig.atanh
    arcsin, arccos, arctan, arcsinh, arccosh, arctanh = trig.asin, trig.acos, trig.atan, trig.asinh, trig.acosh, trig.atanh
    atan2 = arctan2 = trig.atan2
    log1p, expm1, log2, log10, exp2 = exp_log.log1p, exp_log.expm1, exp_log.log2, exp_log.log10, exp_log.exp2
    erf, erfc, erfinv = erf_ops.erf, erf_ops.erfc, erf_ops.erfinv
    tan_, asin_, acos_, atan_, sinh_, cosh_ = inplace.tan_, inplace.asin_, inplace.acos_, inplace.atan_, inplace.sinh_, inplace.cosh_
    asinh_, acosh_, atanh_, atan2_ = inplace.asinh_, inplace.acosh_, inplace.atanh_, inplace.atan2_
    arcsin_, arccos_, arctan_, arcsinh_, arccosh_, arctanh_, arctan2_ = (
        inplace.asin_, inplace.acos_, inplace.atan_, inplace.asinh_, inplace.acosh_, inplace.atanh_, inplace.atan2_
    )
    log1p_, expm1_, log2_, log10_, exp2_ = inplace.log1p_, inplace.expm1_, inplace.log2_, inplace.log10_, inplace.exp2_
    erf_, erfc_, erfinv_ = inplace.erf_, inplace.erfc_, inplace.erfinv_
    negative_ = inplace.neg_
    normal_ = normal.normal_
    uniform_, random_, bernoulli_, bernoulli = sampling.uniform_, sampling.random_, sampling.bernoulli_, sampling.bernoulli
    multinomial, apply_, exponential_ = sampling.multinomial, inplace.apply_, sampling.exponential_
    bincount, histc, histogram = histograms.bincount, histograms.histc, histograms.histogram
    eq_, ne_, lt_, le_, gt_, ge_ = inplace.eq_, inplace.ne_, inplace.lt_, inplace.le_, inplace.gt_, inplace.ge_
    logical_not_, bitwise_not_, cumsum_ = inplace.logical_not_, inplace.bitwise_not_, inplace.cumsum_
    cumprod_, fmod_, lerp_, square_, rsqrt_, reciprocal_ = inplace.cumprod_, inplace.fmod_, inplace.lerp_, inplace.square_, inplace.rsqrt_, inplace.reciprocal_
    logical_and_, logical_or_, logical_xor_ = inplace.logical_and_, inplace.logical_or_, inplace.logical_xor_
    multiply_, subtract_, divide_, true_divide_ = inplace.mul_, inplace.sub_, inplace.div_, inplace.div_


class MoreLinalgMethods:
    """unique (``ops.unique``), cross (``ops.cross``), det/inverse/svd (``ops.matrix_inverse``,
    ``ops.decompositions``) and the in-place view changes (``ops.inplace_views``)."""

    unique = unique_ops.unique
    unique_consecutive = unique_ops.unique_consecutive
    cross = cross_method
    det = matrix_inverse.det
    logdet = matrix_inverse.logdet
    slogdet = matrix_inverse.slogdet
    inverse = matrix_inverse.inverse
    svd = decompositions.svd
    qr = decompositions.torch_qr
    unsqueeze_ = inplace_views.unsqueeze_
    squeeze_ = inplace_views.squeeze_
    transpose_ = inplace_views.transpose_
    swapdims_ = inplace_views.swapdims_
    swapaxes_ = inplace_views.swapaxes_
    t_ = inplace_views.t_
    as_strided_ = inplace_views.as_strided_


FAMILIES = (ElementwiseMethods, SoftmaxMethods, ReductionMethods, ViewsMethods, LinalgMethods, IndexingMethods, GatherScatterMethods, IndexSlicesMethods, MovementMethods, ConversionsMethods, MoreMathMethods, MoreLinalgMethods)


class TensorMethods(ElementwiseMethods, SoftmaxMethods, ReductionMethods, ViewsMethods, LinalgMethods, IndexingMethods, GatherScatterMethods, IndexSlicesMethods, MovementMethods, ConversionsMethods, MoreMathMethods, MoreLinalgMethods):
    """Every named method. Tensor inherits it only for type checkers (``x.exp()`` is typed like
    ``unary_math.exp``); at run time :func:`bind_methods` copies the methods onto Tensor, because
    Tensor must exist before the op modules that these classes name can be imported."""


def named_methods() -> dict[str, Any]:
    """name -> the method (a function, or a property), over every family."""
    return {name: value for family in FAMILIES for name, value in vars(family).items() if not name.startswith("__")}


def bind_methods(cls: type) -> None:
    """Set every named method on ``cls``; an adapter defined here under another name (``as_float``)
    takes the method's name, so tracebacks and help() say ``Tensor.float``. Then every public method
    and operator of ``cls`` is made dispatchable (start-up, once: nothing is re-bound later)."""
    methods = named_methods()
    for name, method in methods.items():
        if getattr(method, "__module__", None) == __name__ and method.__name__ not in methods:
            method.__name__, method.__qualname__ = name, f"{cls.__name__}.{name}"
        setattr(cls, name, method)
    wrap_tensor_methods(cls)
