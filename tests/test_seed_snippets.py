"""Every code snippet of the two seed notes, run verbatim under torch and under
``import tensorlab as torch``, with the same outcome.

Each snippet below is a list of chunks copied from ``../shared/seeds/`` (a test checks that every
chunk occurs in its note word for word). In a chunk with ``>>>`` prompts, the prompt lines are
the code and the other lines are the note's printed output (skipped); a chunk without prompts is
all code. Each top-level statement runs in turn, in one namespace per snippet: an expression's
value, or the class of the exception a statement raises, is its outcome, and printed output is
compared too (object ids become id1, id2... so "the same id" stays visible). torch's outcomes
are the expected ones.

Names a note uses without defining them are given, as the note's author evidently had them:
``F`` and ``nn`` (torch.nn.functional and torch.nn), ``T`` (the conv examples print floats from
int lists, so ``torch.Tensor``), ``tensor`` (``from torch import tensor``), ``np``, einops'
``rearrange``, and the example tensors a snippet reads (``xs``, ``logits``, ``C``, ``Xb``...).
Snippets that draw random numbers (``randn``, ``rand``, ``empty``) compare shapes and dtypes only:
the two generators differ.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import re
import textwrap
import warnings
from pathlib import Path
from typing import Any

import einops
import numpy as np
import pytest
import torch

import tensorlab as tl
import tensorlab.einops
from tests.oracle import assert_same

# The notes live beside the repository (``../shared/seeds/``), not in it: where they are absent,
# only the checks that read them are skipped (the snippets themselves are copied below).
SEEDS = next((p / "shared" / "seeds" for p in Path(__file__).resolve().parents if (p / "shared" / "seeds").is_dir()), None)
needs_notes = pytest.mark.skipif(SEEDS is None, reason="the seed notes (../shared/seeds/) are not beside this checkout")
NOTES = {"000": "000_898b429488d59da8.txt", "003": "003_cb1abcdc5c4aa671.txt"}


def _givens(lib: Any) -> dict[str, Any]:
    """The example tensors some snippets read without defining (same values in both libraries)."""
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((4, 3)).astype(np.float32)
    return {
        "xs": lib.tensor([[0, 1, 2], [3, 4, 5]]),  # the indexing note prints it as "# base"
        "logits": lib.tensor(logits),
        "dlogit_maxes": lib.tensor(rng.standard_normal((4, 1)).astype(np.float32)),
        "C": lib.tensor(rng.standard_normal((27, 2)).astype(np.float32)),
        "Xb": lib.tensor(rng.integers(0, 27, size=(4, 3))),
        "demb": lib.tensor(rng.standard_normal((4, 3, 2)).astype(np.float32)),
    }


# (note, name, chunks, random, afterwards): ``afterwards`` are expressions this test adds to look
# at what a snippet built (a function it defines, the variables it sets).
SNIPPETS: list[tuple[str, str, list[str], bool, list[str]]] = [
    ("000", "in-place ids", ['''import torch
# Standard operation (creates a new tensor)
x = torch.ones(3)
y = torch.ones(3)
print(f"Original ID of x: {id(x)}")
z = x.add(y) # Creates a new tensor z
print(f"ID of z: {id(z)}")
print(f"ID of x after add: {id(x)}") # x is unchanged
print("---")
# In-place operation (modifies x directly)
a = torch.ones(3)
b = torch.ones(3)
print(f"Original ID of a: {id(a)}")
a.add_(b) # Modifies a in-place
print(f"ID of a after add_: {id(a)}") # The ID is the same!'''], False, ["x", "z", "a"]),
    ("000", "broadcasting", ['''import torch
# A has shape (3, 1)
A = torch.tensor([[2], [4], [6]])
# B has shape (4), which is treated as (1, 4)
B = torch.tensor([10, 20, 30, 40])
# PyTorch broadcasts both to a compatible shape (3, 4)
C = A + B
print("Shape of A:", A.shape)
print("Shape of B:", B.shape)
print("Shape of C:", C.shape)
print("\\nResulting tensor C:\\n", C)'''], False, []),
    ("003", "dims", ['''torch.empty(3,4,5)[:,3].shape # 3,5

t[None] # insert a dimension at beginning

torch.empty(3,4)[:,None,:].shape # torch.Size([3, 1, 4])

torch.empty(3,4,5).t() # fails!

# permute is generalization of .t(), expects all dims listed
torch.empty(3,4,5).permute(2,0,1).shape # 5,3,4

# movedim is similar
torch.movedim(torch.empty(1,2,3,4),(1,0),(2,1)).shape # 3,1,2,4
torch.movedim(torch.empty(1,2,3,4),(1,2),(0,1)).shape # 2,3,1,4
torch.movedim(torch.empty(1,2,3,4),(0,1),(1,0)).shape # 2,1,3,4
torch.movedim(torch.empty(1,2,3,4),(0,2),(2,1)).shape # 2,3,1,4

# unsqueeze same as [None], and squeeze only applies to dims of 1
torch.empty(3,4).unsqueeze(0).shape # 1,3,4
torch.empty(3,4).unsqueeze(1).shape # 3,1,4
torch.empty(3,4).squeeze(0).shape # 3,4
torch.empty(1,3,4).squeeze(0).shape # 3,4
torch.empty(3,1,4).squeeze(1).shape # 3,4'''], False, []),
    ("003", "broadcasting rules", ['''>>> x=torch.empty(5,1,4,1)
>>> y=torch.empty(  3,1,1)
>>> (x+y).size()
torch.Size([5, 3, 4, 1])

>>> x=torch.empty(5,2,4,1)
>>> y=torch.empty(  3,1,1)
>>> (x+y).size()
RuntimeError: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1

>>> (torch.ones(2,1,4,5) @ torch.ones(3,5,6)).shape
torch.Size([2, 3, 4, 6])'''], False, []),
    ("003", "reshaping", ['''>>> torch.zeros(2,3,4).reshape(2,12).shape
torch.Size([2, 12])
>>> torch.zeros(2,3,4).reshape(3,8).shape
torch.Size([3, 8])
>>> torch.zeros(2,3,4).reshape(4,6).shape
torch.Size([4, 6])
>>> torch.zeros(2,3,4).reshape(3,-1).shape
torch.Size([3, 8])
>>> torch.zeros(2,3,4).reshape(4,-1).shape
torch.Size([4, 6])''', '''>>> torch.zeros(2,3,4).reshape(-1).shape
torch.Size([24])
>>> torch.zeros(2,3,4).reshape(2,-1).shape
torch.Size([2, 12])
>>> torch.zeros(2,3,4).reshape(3,-1).shape
torch.Size([3, 8])
>>> torch.zeros(2,3,4).view(-1,3).shape
torch.Size([8, 3])''', '''>>> torch.zeros(2,3,4).reshape(2,1,3,4,1).shape
torch.Size([2, 1, 3, 4, 1])''', '''torch.empty(3,4).view(3,1,4).shape # 3,1,4'''], False, []),
    ("003", "reducing", ['''>>> torch.ones(3,4,5).sum()
tensor(60.)
>>> torch.ones(3,4,5).sum(dim=0).shape
torch.Size([4, 5])
>>> torch.ones(3,4,5).sum(dim=1).shape
torch.Size([3, 5])
>>> torch.ones(3,4,5).sum(dim=2).shape
torch.Size([3, 4])
>>> torch.ones(3,4,5).sum(0,keepdim=True).shape
torch.Size([1, 4, 5])
>>> torch.ones(3,4,5).sum([0,1],keepdim=True).shape
torch.Size([1, 1, 5])'''], False, []),
    ("003", "combining", ['''torch.cat([torch.empty(3,4), torch.empty(3,4)]).shape # 6,4
torch.cat([torch.empty(3,4), torch.empty(3,4)], dim=0).shape # 6,4
torch.cat([torch.empty(3,4), torch.empty(3,4)], dim=1).shape # 3,8

# stack adds dimension
# this `dim` specifies where to insert the new dimension
torch.stack([torch.empty(3,4), torch.empty(3,4)]).shape # 2,3,4
torch.stack([torch.empty(3,4), torch.empty(3,4)], dim=1).shape # 3,2,4
torch.stack([torch.empty(3,4), torch.empty(3,4)], dim=2).shape # 3,4,2'''], False, []),
    ("003", "splitting", ['''>>> a = torch.arange(10).reshape(5, 2)
>>> a''', '''>>> torch.split(a, 2)''', '''>>> torch.split(a, [1, 4])''', '''>>> [tuple(x.shape) for x in torch.zeros(6).chunk(2)]
[(3,), (3,)]
>>> [tuple(x.shape) for x in torch.zeros(6,5).chunk(2)]
[(3, 5), (3, 5)]
>>> [tuple(x.shape) for x in torch.zeros(5,5).chunk(2)]
[(3, 5), (2, 5)]

>>> ip_tensor=torch.tensor([[1,2,3],[4,5,6]])
>>> torch.unbind(ip_tensor,dim=0)
(tensor([1, 2, 3]), tensor([4, 5, 6]))
>>> torch.unbind(ip_tensor,dim=1)
(tensor([1, 4]), tensor([2, 5]), tensor([3, 6]))'''], False, []),
    ("003", "gather for cross entropy", ['''# similar task/expression that requires hardcoding the shape:
# cross_entropy_loss = -logprobs[range(n), Yb].mean()

num_examples = 5
num_classes = 3
scores = tensor([
        [ 1.5410, -0.2934, -2.1788],
        [ 0.5684, -1.0845, -1.3986],
        [ 0.4033,  0.8380, -0.7193],
        [-0.4033, -0.5966,  0.1820],
        [-0.8567,  1.1006, -1.0712]])
y = torch.LongTensor([1, 2, 1, 0, 2])
res = scores.gather(1, y.view(-1, 1)).squeeze()'''], False, ["y", "res"]),
    ("003", "stochastic rounding", ['''def sround(x,p): # p=precision
    lo=torch.floor(x*(2**p))/2**p
    hi=torch.ceil(x*(2**p))/2**p
    plo=(hi-x)/(hi-lo)
    islo = torch.rand(x.shape)<plo
    a=torch.stack((hi,lo))
    return a.gather(0,islo.to(torch.int64)[None,...]).squeeze(0)'''], True,
     ["sround(torch.tensor([0.3, 1.7, -2.2]), 1)", "sround(torch.tensor([[0.25, 0.125]]), 3)"]),
    ("003", "scatter back the max", ['''# forward:
logit_maxes = logits.max(1,keepdim=True).values

# backward:
dlogits = torch.scatter(logits.max(1).indices, dlogit_maxes)'''], False, ["logit_maxes"]),
    ("003", "embedding backward", ['''# forward:
emb = C[Xb] # embed the characters into vectors

# backward:
dC = torch.zeros_like(C)
for i in range(Xb.shape[0]):
  for j in range(Xb.shape[1]):
    dC[Xb[i,j]] += demb[i,j]'''], False, ["emb", "dC"]),
    ("003", "conv1d", ['''>>> F.conv1d(T([[0,1,2,3]]), T([[[1]]]))''', '''>>> F.conv1d(T([[[0,1,2,3]]]), T([[[1]]]))''',
                       '''>>> F.conv1d(T([[0,1,2,3]]), T([[[1,1,1]]]))''', '''>>> F.conv1d(T([[0,1,2,3]]), T([[[1,1,1]]]), padding=1)''',
                       '''>>> F.conv1d(T([[0,1,2,3]]), T([[[1,1,1]]]), padding=2)''', '''>>> F.conv1d(T([[0,1,2,3]]), T([[[1,1,1]]]), padding=3)''',
                       '''>>> F.conv1d(T([[0,1,2,3]]), T([[[1,1,1]]]), padding=4)''', '''>>> F.conv1d(T([[0,1,2,3]]), T([[[1,2,3]],[[1,1,1]]]))''',
                       '''>>> F.conv1d(T([[0,1,2,3],[4,5,6,7],[8,9,10,11]]), T([[[1],[1],[1]]]))''',
                       '''>>> F.conv1d(T([[0,1,2,3],[4,5,6,7],[8,9,10,11]]), T([[[1],[2],[3]],[[1],[1],[1]]]))'''], False, []),
    ("003", "einsum", ['''>>> torch.einsum('ii', torch.randn(4, 4))''', '''>>> torch.einsum('ii->i', torch.randn(4, 4))''', '''>>> x = torch.randn(5)
>>> y = torch.randn(4)
>>> torch.einsum('i,j->ij', x, y)''', '''>>> As = torch.randn(3, 2, 5)
>>> Bs = torch.randn(3, 5, 4)
>>> torch.einsum('bij,bjk->bik', As, Bs)''', '''>>> torch.einsum(As, [..., 0, 1], Bs, [..., 1, 2], [..., 0, 2])''', '''>>> A = torch.randn(2, 3, 4, 5)
>>> torch.einsum('...ij->...ji', A).shape
torch.Size([2, 3, 5, 4])''', '''>>> A = torch.randn(3, 5, 4)
>>> l = torch.randn(2, 5)
>>> r = torch.randn(2, 4)
>>> torch.einsum('bn,anm,bm->ba', l, A, r)'''], True, []),
    ("003", "indexing", ['''>>> xs[0,0]
tensor(0)
# can use negative indexing
>>> xs[-1,-1]
tensor(5)

# partial index gets slice, drops dim(s)
>>> xs[0]
tensor([0, 1, 2])
>>> xs[0,:]
tensor([0, 1, 2])
>>> xs[0][0]
tensor(0)
>>> xs[:]''', '''>>> xs[[0],:]
tensor([[0, 1, 2]])
>>> xs[[-1],:]
tensor([[3, 4, 5]])
>>> xs[[0,1,0,1]]''', '''>>> xs[[0,1,0,1],[0,1,0,1]]
tensor([0, 4, 0, 4])
# above is different from this, which gives a subtensor
>>> xs[:,[0,1,0,1]]''', '''>>> xs[[False,True]]
tensor([[3, 4, 5]])
>>> xs[[False,True],[False,True,True]]
tensor([4, 5])
>>> xs[:,[False,True,True]]''', '''>>> torch.arange(6).view(2,3)[torch.zeros(2,2).int()]'''], False, []),
    ("003", "index assignment", ['''>>> ys=torch.arange(6).view(2,3)''', '''>>> xs=ys[:]; xs[:,0]=7; xs''', '''>>> xs=ys[:]; xs[:]=7; xs''',
                                 '''>>> xs=ys[:]; xs[:] = torch.arange(3).view(1,3); xs''', '''>>> xs=ys[:]; xs[:,:]=torch.arange(3).view(1,3); xs'''], False, ["ys"]),
    ("003", "einops rearrange", ['''>>> images = [np.random.randn(30, 40, 3) for _ in range(32)]''', '''>>> rearrange(images, 'b h w c -> b h w c').shape
(32, 30, 40, 3)''', '''>>> rearrange(images, 'b h w c -> (b h) w c').shape
(960, 40, 3)''', '''>>> rearrange(images, 'b h w c -> h (b w) c').shape
(30, 1280, 3)''', '''>>> rearrange(images, 'b h w c -> b c h w').shape
(32, 3, 30, 40)''', '''>>> rearrange(images, 'b h w c -> b (c h w)').shape
(32, 3600)''', '''>>> rearrange(images, 'b (h1 h) (w1 w) c -> (b h1 w1) h w c', h1=2, w1=2).shape
(128, 15, 20, 3)''', '''>>> rearrange(images, 'b (h h1) (w w1) c -> b h w (c h1 w1)', h1=2, w1=2).shape
(32, 15, 20, 12)''', '''rearrange(attn_mask, '... -> ... 1')'''], True, []),
    ("003", "nll vs cross entropy", ['''x = torch.FloatTensor([[1.,0.,0.],
                       [0.,1.,0.],
                       [0.,0.,1.]])
y = torch.LongTensor([0,1,2])

print(torch.nn.functional.cross_entropy(x, y))

print(F.softmax(x, 1).log())
print(F.log_softmax(x, 1))

print(F.nll_loss(F.log_softmax(x, 1), y))'''], False, []),
]

# Code in the notes that cannot run the same way under both libraries, and why.
NOT_RUN = {
    "hooks (MyModel)": "the note's copy lost one indentation level: the class body sits at the "
    "class line's level, so the snippet is not valid Python as written; the hook API it shows "
    "(register_forward_hook) is tested in test_nn_module.py",
    "gather/scatter index formulas": "pseudo-code (out[i][j][k] = ...), not a program",
    "rpc autograd": "torch.distributed.rpc needs a second worker process (the distributed unit)",
}


def _code_lines(chunk: str) -> str:
    """The code of a chunk: its prompt lines (``>>> ``/``... ``, prompt removed) when it has
    any, else every line."""
    lines = chunk.splitlines()
    if not any(line.startswith(">>>") for line in lines):
        return chunk
    return "\n".join(line[4:] for line in lines if line.startswith((">>> ", "... ")))


def _importer(lib: Any) -> Any:
    def import_(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "torch":
            return lib
        return builtins.__import__(name, *args, **kwargs)

    return import_


def _namespace(lib: Any) -> dict[str, Any]:
    return {
        "__builtins__": {**vars(builtins), "__import__": _importer(lib)},
        "torch": lib, "F": lib.nn.functional, "nn": lib.nn, "T": lib.Tensor, "tensor": lib.tensor, "np": np,
        "rearrange": einops.rearrange if lib is torch else tensorlab.einops.rearrange,
        **_givens(lib),
    }


def run_snippet(lib: Any, chunks: list[str], afterwards: list[str]) -> tuple[list[tuple[str, Any]], str]:
    """Each top-level statement's outcome, and everything printed (ids numbered by first use)."""
    namespace = _namespace(lib)
    outcomes: list[tuple[str, Any]] = []
    printed = io.StringIO()
    np.random.seed(0)  # the einops snippet draws its images from NumPy's global generator
    statements = [node for chunk in chunks for node in ast.parse(textwrap.dedent(_code_lines(chunk))).body]
    statements += [ast.parse(expression).body[0] for expression in afterwards]
    with contextlib.redirect_stdout(printed), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for node in statements:
            try:
                if isinstance(node, ast.Expr):
                    outcomes.append(("value", eval(compile(ast.Expression(node.value), "<seed>", "eval"), namespace)))
                else:
                    exec(compile(ast.Module([node], []), "<seed>", "exec"), namespace)
            except Exception as error:  # the note shows some failing lines on purpose
                outcomes.append(("raised", type(error).__name__))
    ids: dict[str, str] = {}
    text = re.sub(r"\b\d{9,}\b", lambda m: ids.setdefault(m.group(), f"id{len(ids) + 1}"), printed.getvalue())
    return outcomes, text.replace("tensorlab.", "torch.")


def _shapes(x: Any) -> Any:
    """What a random result can be compared on: shape and dtype of every tensor in it."""
    if isinstance(x, (torch.Tensor, tl.Tensor)):
        return tuple(x.shape), str(x.dtype).split(".")[-1]
    if isinstance(x, (tuple, list)) and all(isinstance(item, int) for item in x):
        return tuple(x)  # a shape: torch.Size, tensorlab.Size or (NumPy's) tuple
    if isinstance(x, (tuple, list)):
        return [_shapes(item) for item in x]
    return x


@pytest.mark.parametrize("note, name, chunks, random, afterwards", SNIPPETS, ids=[s[1] for s in SNIPPETS])
def test_seed_snippet_runs_as_in_torch(note: str, name: str, chunks: list[str], random: bool, afterwards: list[str]) -> None:
    expected, printed_t = run_snippet(torch, chunks, afterwards)
    got, printed_m = run_snippet(tl, chunks, afterwards)
    assert [kind for kind, _ in got] == [kind for kind, _ in expected], f"{name}: outcomes {got} != torch {expected}"
    for i, ((kind, e), (_, g)) in enumerate(zip(expected, got, strict=True)):
        where = f"{name}, outcome {i}"
        if kind == "raised":
            assert g == e, f"{where}: raised {g}, torch raised {e}"
        elif random:
            assert _shapes(g) == _shapes(e), f"{where}: {_shapes(g)} != torch {_shapes(e)}"
        elif isinstance(e, (list, tuple)) and not isinstance(e, torch.Size) and not any(isinstance(v, torch.Tensor) for v in e):
            assert list(g) == list(e), f"{where}: {g} != torch {e}"
        else:
            assert_same(e, g, where=where)
    if not random:
        assert printed_m == printed_t


@needs_notes
@pytest.mark.parametrize("note, name, chunks, random, afterwards", SNIPPETS, ids=[s[1] for s in SNIPPETS])
def test_snippet_is_verbatim_from_its_note(note: str, name: str, chunks: list[str], random: bool, afterwards: list[str]) -> None:
    assert SEEDS is not None
    text = (SEEDS / NOTES[note]).read_text()
    for chunk in chunks:
        assert chunk in text, f"{name}: not in {NOTES[note]} word for word:\n{chunk}"


@needs_notes
def test_every_code_line_of_the_notes_is_run_or_explained() -> None:
    """Each line of the notes that starts like code (``>>> ``, ``torch.``) is in some snippet,
    or in a snippet named by NOT_RUN."""
    covered = "\n".join(chunk for _, _, chunks, _, _ in SNIPPETS for chunk in chunks)
    explained = (
        "out[i][j][k]", "self[index", "self[i]",  # the index formulas
        "t1 = torch.rand", "t2 = torch.rand", "t3 = rpc", "t4 = torch.rand", "t5 = torch.mul",  # rpc
        "torch.nn.functional.cross_entropy\xa0function",  # a sentence of prose, not code
    )
    missing = []
    assert SEEDS is not None
    for note in NOTES.values():
        for line in (SEEDS / note).read_text().splitlines():
            stripped = line.strip()
            is_code = stripped.startswith((">>> ", "torch.")) and not stripped.startswith(">>> #")
            if is_code and stripped not in covered and not stripped.startswith(explained):
                missing.append(stripped)
    assert not missing, f"code lines in no snippet: {missing}"
