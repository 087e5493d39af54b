"""The layers of tensorlab.nn, one family per module (as in torch.nn.modules)."""

from .activation import GELU, LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .batchnorm import BatchNorm1d, BatchNorm2d
from .container import ModuleDict, ModuleList, Sequential
from .conv import Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d
from .dropout import Dropout
from .flatten import Flatten
from .linear import Identity, Linear
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module
from .normalization import GroupNorm, LayerNorm
from .pooling import AvgPool1d, AvgPool2d, MaxPool1d, MaxPool2d
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell
from .sparse import Embedding

__all__ = [
    "AvgPool1d", "AvgPool2d", "Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d", "MaxPool1d", "MaxPool2d",
    "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Embedding", "Flatten", "GELU",
    "Identity", "LayerNorm", "Linear", "LogSoftmax", "MSELoss", "Module", "ModuleDict", "ModuleList",
    "NLLLoss", "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh",
    "BatchNorm1d", "BatchNorm2d", "GroupNorm", "GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNCell",
]

from .linear import Bilinear  # unit 10 (einsum): y = x1^T A x2 + b

__all__ += ["Bilinear"]
