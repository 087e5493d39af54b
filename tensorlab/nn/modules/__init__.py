"""The layers of tensorlab.nn, one family per module (as in torch.nn.modules)."""

from .activation import GELU, LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .container import ModuleDict, ModuleList, Sequential
from .dropout import Dropout
from .flatten import Flatten
from .linear import Identity, Linear
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module
from .normalization import LayerNorm
from .sparse import Embedding

__all__ = [
    "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Embedding", "Flatten", "GELU",
    "Identity", "LayerNorm", "Linear", "LogSoftmax", "MSELoss", "Module", "ModuleDict", "ModuleList",
    "NLLLoss", "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh",
]
