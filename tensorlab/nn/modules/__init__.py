"""The layers of tensorlab.nn, one family per module (as in torch.nn.modules)."""

from .activation import (
    CELU,
    ELU,
    GELU,
    GLU,
    SELU,
    Hardshrink,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    RReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softmin,
    Softplus,
    Softshrink,
    Softsign,
    Tanh,
    Tanhshrink,
    Threshold,
)
from .attention import MultiheadAttention
from .batchnorm import BatchNorm1d, BatchNorm2d
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d
from .distance import CosineSimilarity, PairwiseDistance
from .dropout import Dropout, Dropout2d
from .flatten import Flatten, Unflatten
from .linear import Identity, Linear
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CosineEmbeddingLoss,
    CrossEntropyLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MarginRankingLoss,
    MSELoss,
    MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    NLLLoss,
    PoissonNLLLoss,
    SmoothL1Loss,
    SoftMarginLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)
from .module import Module
from .normalization import GroupNorm, LayerNorm
from .pooling import AdaptiveAvgPool2d, AvgPool1d, AvgPool2d, MaxPool1d, MaxPool2d
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell
from .sparse import Embedding
from .upsampling import Upsample

__all__ = [
    "AvgPool1d", "AvgPool2d", "Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d", "MaxPool1d", "MaxPool2d",
    "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Embedding", "Flatten", "GELU",
    "Identity", "LayerNorm", "Linear", "LogSoftmax", "MSELoss", "Module", "ModuleDict", "ModuleList",
    "NLLLoss", "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh",
    "BatchNorm1d", "BatchNorm2d", "GroupNorm", "GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNCell",
]

from .linear import Bilinear  # unit 10 (einsum): y = x1^T A x2 + b

__all__ += ["Bilinear"]
__all__ += [  # API breadth: the activations and losses torch.nn offers beyond the course
    "CELU", "ELU", "SELU", "Hardsigmoid", "Hardswish", "Hardtanh", "LeakyReLU", "LogSigmoid", "Mish", "PReLU", "ReLU6",
    "SiLU", "Softplus", "Softsign",
    "CosineEmbeddingLoss", "GaussianNLLLoss", "HingeEmbeddingLoss", "HuberLoss", "KLDivLoss", "L1Loss",
    "MarginRankingLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "PairwiseDistance", "PoissonNLLLoss",
    "SmoothL1Loss", "SoftMarginLoss", "TripletMarginLoss",
    "CosineSimilarity", "GLU", "Hardshrink", "RReLU", "Softmin", "Softshrink", "Tanhshrink", "Threshold",
    "MultiLabelMarginLoss", "TripletMarginWithDistanceLoss",
]
__all__ += ["AdaptiveAvgPool2d", "Dropout2d", "ParameterDict", "ParameterList", "Unflatten", "Upsample"]  # pieces beginner models use
__all__ += ["MultiheadAttention"]
