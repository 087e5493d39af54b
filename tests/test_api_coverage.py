"""What beginner PyTorch code reaches for, name by name: tensorlab must have each one (issue 18).

The names come from the official beginner tutorials (60-minute blitz, Quickstart, "Learning
PyTorch with examples", "What is torch.nn really?", the profiler and save/load recipes) and the
course repositories students bring. Every name must exist in torch (so the list stays true) and
in tensorlab, except those in the three tables below, each of which must be *absent* — so that
when a name lands, this test fails until it moves out of its table (and the doc is regenerated):

- ``PENDING``: being written on another branch (name -> who); the lead empties it at merge;
- ``NOT_YET``: wanted, nobody is writing it yet (name -> why it matters);
- ``LEFT_OUT``: deliberately not in tensorlab (name -> why).

``docs/api-coverage.md`` is generated from these lists by ``docs/make_api_coverage.py``.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

BEGINNER_NAMES: dict[str, str] = {
    "torch": """
        tensor Tensor zeros ones empty full eye arange linspace logspace rand randn randint randperm rand_like
        randn_like randint_like zeros_like ones_like empty_like full_like from_numpy as_tensor manual_seed seed
        initial_seed Generator is_tensor numel
        cat concat stack hstack vstack split chunk unbind reshape squeeze unsqueeze flatten unflatten transpose
        swapaxes permute t movedim narrow select gather scatter scatter_add index_select masked_select where nonzero
        argmax argmin max min amax amin sum mean std var prod cumsum cumprod logsumexp norm median count_nonzero
        abs exp exp2 expm1 log log1p log2 log10 sqrt rsqrt square sin cos tan asin acos atan atan2 sinh cosh tanh
        asinh acosh atanh sigmoid relu softmax log_softmax erf pow clamp clip floor ceil round trunc sign neg
        reciprocal add sub mul div floor_divide remainder fmod maximum minimum lerp
        matmul mm bmm mv dot outer einsum tensordot addmm trace diag diagonal tril triu det inverse svd qr
        allclose isclose equal eq ne gt lt ge le isnan isinf isfinite logical_and logical_or logical_not any all
        sort argsort topk unique cross flip roll repeat_interleave tile meshgrid broadcast_tensors broadcast_to
        normal bernoulli multinomial bincount histc histogram histogramdd clone
        no_grad enable_grad set_grad_enabled inference_mode is_grad_enabled save load
        device dtype Size float32 float64 float16 bfloat16 int64 int32 int16 int8 uint8 bool long float double half
        int short get_default_dtype set_default_dtype promote_types result_type finfo iinfo set_printoptions
        set_num_threads get_num_threads FloatTensor LongTensor DoubleTensor IntTensor ByteTensor BoolTensor
        nn optim autograd utils cuda linalg functional profiler fft distributions jit compile sparse complex64 backends
    """,
    "torch.nn": """
        Module Parameter Linear Bilinear Identity Conv1d Conv2d ConvTranspose2d MaxPool1d MaxPool2d AvgPool2d
        AdaptiveAvgPool2d BatchNorm1d BatchNorm2d LayerNorm GroupNorm Dropout Dropout2d Embedding
        RNN LSTM GRU RNNCell LSTMCell GRUCell Transformer TransformerEncoder TransformerEncoderLayer MultiheadAttention
        ReLU ReLU6 LeakyReLU PReLU Sigmoid Tanh Softmax LogSoftmax GELU ELU SELU SiLU Mish Softplus Hardtanh
        LogSigmoid Softsign Flatten Unflatten Sequential ModuleList ModuleDict ParameterList ParameterDict
        CrossEntropyLoss NLLLoss MSELoss L1Loss BCELoss BCEWithLogitsLoss SmoothL1Loss HuberLoss KLDivLoss
        MarginRankingLoss SoftMarginLoss CosineSimilarity Upsample init functional utils
    """,
    "torch.nn.functional": """
        relu relu6 leaky_relu sigmoid tanh softmax log_softmax gelu elu selu silu mish softplus hardtanh logsigmoid
        softsign dropout linear bilinear conv1d conv2d conv_transpose1d conv_transpose2d max_pool1d max_pool2d
        avg_pool2d adaptive_avg_pool2d batch_norm layer_norm embedding one_hot pad interpolate cross_entropy nll_loss
        mse_loss l1_loss binary_cross_entropy binary_cross_entropy_with_logits smooth_l1_loss huber_loss kl_div
        margin_ranking_loss soft_margin_loss cosine_similarity normalize scaled_dot_product_attention
    """,
    "torch.nn.init": """
        uniform_ normal_ constant_ ones_ zeros_ xavier_uniform_ xavier_normal_ kaiming_uniform_ kaiming_normal_
        calculate_gain trunc_normal_ orthogonal_
    """,
    "torch.nn.utils": "clip_grad_norm_ clip_grad_value_",
    "torch.optim": "Optimizer SGD Adam AdamW RMSprop Adagrad lr_scheduler",
    "torch.optim.lr_scheduler": "StepLR MultiStepLR ExponentialLR CosineAnnealingLR LambdaLR ReduceLROnPlateau OneCycleLR LinearLR",
    "torch.utils.data": """
        Dataset IterableDataset TensorDataset Subset ConcatDataset DataLoader random_split Sampler SequentialSampler
        RandomSampler SubsetRandomSampler BatchSampler WeightedRandomSampler default_collate get_worker_info
    """,
    "torch.autograd": """
        grad backward Function Variable profiler functional gradcheck gradgradcheck no_grad enable_grad
        set_grad_enabled inference_mode set_detect_anomaly detect_anomaly
    """,
    "torch.cuda": "is_available device_count manual_seed manual_seed_all seed seed_all initial_seed get_rng_state set_rng_state",
    "torch.autograd.profiler": "profile record_function",
    "torch.profiler": "profile record_function ProfilerActivity",
    "torch.autograd.functional": "jacobian hessian vjp jvp hvp",
    "torch.linalg": "norm svd qr det inv solve",
    "torch.Tensor": """
        item tolist numpy view reshape size shape dim ndim numel dtype device to cpu cuda float double long int bool
        half type type_as contiguous is_contiguous clone detach detach_ requires_grad requires_grad_ backward grad
        grad_fn is_leaf retain_grad register_hook data zero_ fill_ copy_ add_ sub_ mul_ div_ clamp_ pow_ sqrt_ exp_
        abs_ neg_ sin_ uniform_ normal_ random_ bernoulli_ masked_fill masked_fill_ index_select gather scatter
        scatter_ scatter_add_ index_add_ expand expand_as repeat view_as reshape_as permute transpose transpose_ t t_
        T mT squeeze squeeze_ unsqueeze unsqueeze_ flatten unflatten narrow chunk split unbind sum mean max min
        argmax argmin std var prod norm cumsum abs exp log sqrt pow sin cos tanh sigmoid relu softmax log_softmax
        matmul mm bmm dot eq ne lt gt all any sort argsort topk unique tril triu flip roll new_zeros new_ones
        new_tensor new_full new_empty element_size nelement stride storage_offset untyped_storage data_ptr
        is_floating_point clamp clip round floor ceil sign nonzero amax amin logsumexp apply_ diag histogram
    """,
    "torch.nn.Module": """
        parameters named_parameters children named_children modules named_modules train eval zero_grad state_dict
        load_state_dict to apply register_buffer register_parameter register_forward_hook register_forward_pre_hook
        register_full_backward_hook requires_grad_ cpu double float half add_module buffers named_buffers extra_repr
        forward get_submodule
    """,
}

PENDING: dict[str, str] = {}  # every branch of this round has landed

_OP = "an op without an owner yet"
NOT_YET: dict[str, str] = {
    **dict.fromkeys([f"torch.nn.{n}" for n in "Transformer TransformerEncoder TransformerEncoderLayer".split()], "attention: after the recurrent layers"),
}

LEFT_OUT: dict[str, str] = {
    "torch.compile": "tensorlab runs eagerly: the course shows torch.compile on torch itself",
    "torch.jit": "TorchScript is shown with torch itself; tensorlab has no graph capture",
    "torch.fft": "spectral methods are outside the course; NumPy's FFT works on tensor.numpy()",
    "torch.distributions": "probability distributions are outside the course",
    "torch.sparse": "tensorlab's storage model is dense and strided: that is what the course teaches",
    "torch.complex64": "no complex dtypes: NumPy has them, but the course's dtype and gradient rules are real",
    "torch.backends": "no backends to configure: NumPy is the one kernel (torch.cuda and torch.accelerator say no GPU)",
}


def names(namespace: str) -> list[str]:
    return BEGINNER_NAMES[namespace].split()


def all_names() -> list[str]:
    return [f"{namespace}.{name}" for namespace in BEGINNER_NAMES for name in names(namespace)]


def resolve(dotted: str, root: str) -> Any:
    """The object ``dotted`` names, with ``torch`` replaced by ``root``; None when it does not exist."""
    parts = dotted.split(".")
    parts[0] = root
    obj: Any = importlib.import_module(root)
    for i, part in enumerate(parts[1:], start=1):
        if hasattr(obj, part):
            obj = getattr(obj, part)
            continue
        if isinstance(obj, ModuleType) and hasattr(obj, "__path__") and importlib.util.find_spec(".".join(parts[: i + 1])) is not None:
            obj = importlib.import_module(".".join(parts[: i + 1]))  # a submodule not imported yet
            continue
        return None
    return obj


def status(dotted: str) -> str:
    """"present", or which table the name is in."""
    for table_name, table in (("pending", PENDING), ("not yet", NOT_YET), ("left out", LEFT_OUT)):
        if dotted in table:
            return table_name
    return "present"


def names_the_scripts_use() -> set[str]:
    """Every ``torch.a.b`` (and ``nn.X``, as ``from torch import nn`` code writes it) in tests/scripts/."""
    found = set()
    for path in sorted((ROOT / "tests" / "scripts").glob("*.py")):
        for match in re.finditer(r"\b(?:torch|nn)(?:\.[A-Za-z_]\w*)+", path.read_text()):
            found.add(match.group(0) if match.group(0).startswith("torch") else "torch." + match.group(0))
    return found


def test_every_name_the_tutorial_style_scripts_use_is_listed() -> None:
    """The scripts in tests/scripts/ are beginner code: what they call belongs in the lists."""
    listed = set(all_names()) | set(BEGINNER_NAMES)
    used = names_the_scripts_use()
    assert len(used) > 30
    unlisted = sorted(d for d in used if d not in listed and not any(namespace.startswith(d + ".") for namespace in BEGINNER_NAMES))
    assert not unlisted, f"add to BEGINNER_NAMES: {unlisted}"


def test_the_tables_only_name_listed_names() -> None:
    listed = set(all_names())
    for table in (PENDING, NOT_YET, LEFT_OUT):
        assert set(table) <= listed, sorted(set(table) - listed)
    assert not set(PENDING) & set(NOT_YET) and not set(PENDING) & set(LEFT_OUT) and not set(NOT_YET) & set(LEFT_OUT)
    assert len(listed) == len(all_names()), "a name is listed twice"


@pytest.mark.parametrize("namespace", list(BEGINNER_NAMES))
def test_every_listed_name_is_torchs(namespace: str) -> None:
    missing = [name for name in names(namespace) if resolve(f"{namespace}.{name}", "torch") is None]
    assert not missing, f"not torch API: {missing}"


@pytest.mark.parametrize("namespace", list(BEGINNER_NAMES))
def test_tensorlab_has_every_beginner_name(namespace: str) -> None:
    wanted = [name for name in names(namespace) if status(f"{namespace}.{name}") == "present"]
    missing = [name for name in wanted if resolve(f"{namespace}.{name}", "tensorlab") is None]
    assert not missing, f"tensorlab lacks {namespace}: {missing}"


@pytest.mark.parametrize("table", ["PENDING", "NOT_YET", "LEFT_OUT"])
def test_names_in_the_tables_are_still_absent(table: str) -> None:
    """A name that has landed must leave its table (and the doc be regenerated)."""
    landed = [dotted for dotted in globals()[table] if resolve(dotted, "tensorlab") is not None]
    assert not landed, f"now in tensorlab, move out of {table}: {landed}"


def test_api_coverage_doc_is_current() -> None:
    spec = importlib.util.spec_from_file_location("make_api_coverage", ROOT / "docs" / "make_api_coverage.py")
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    assert (ROOT / "docs" / "api-coverage.md").read_text() == generator.build(), "run: python docs/make_api_coverage.py"
