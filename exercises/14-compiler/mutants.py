"""Mutants of exercise 14 (a compiler's passes): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant

_DCE_LOOP = '''
def eliminate_dead_code(nodes):
    needed, kept = set(), []
    for name, op, args in reversed(nodes):
        effect = {effect}
        if {keep}:
            kept.append({node})
            needed.update(a for a in args if isinstance(a, str))
    return kept[::-1]
'''


def _dce(effect: str = 'op == "print" or op.endswith("_") or op.startswith("rand")',
         keep: str = 'op in ("placeholder", "output") or effect or name in needed', node: str = "(name, op, args)") -> str:
    return _DCE_LOOP.format(effect=effect, keep=keep, node=node)


ELIMINATE_DEAD_CODE = [
    Mutant("eliminate_dead_code", "drops-unused-placeholders", _dce(keep='op == "output" or effect or name in needed'),
        nudge="Is a placeholder that nothing uses still a parameter of the function?"),
    Mutant("eliminate_dead_code", "drops-print", _dce(effect='op.endswith("_") or op.startswith("rand")'),
        nudge="When nothing uses a print's value, has the print still done something you can see?"),
    Mutant("eliminate_dead_code", "drops-in-place-ops", _dce(effect='op == "print" or op.startswith("rand")'),
        nudge="When nothing uses the value of an op whose name ends in an underscore, has it still changed something?"),
    Mutant("eliminate_dead_code", "drops-rand", _dce(effect='op == "print" or op.endswith("_")'),
        nudge="When nothing uses a random draw's value, has it still changed something, the state of the random generator?"),
    Mutant("eliminate_dead_code", "side-effects-as-a-fixed-list", _dce(effect='op in ("print", "add_", "rand")'),
        nudge="Is a side effect a short list of op names, or a rule about what the op's name looks like?"),
    Mutant("eliminate_dead_code", "side-effects-by-substring", _dce(effect='op == "print" or "_" in op or "rand" in op'),
        nudge="Does an underscore anywhere in an op's name make it in place, or only one at a particular place?"),
    Mutant("eliminate_dead_code", "drops-the-output-node", _dce(keep='op == "placeholder" or effect or name in needed'),
        nudge="Does the output node itself belong in the returned graph?"),
    Mutant("eliminate_dead_code", "keeps-side-effects-but-not-their-inputs", '''
def eliminate_dead_code(nodes):
    needed, kept = set(), []
    for name, op, args in reversed(nodes):
        effect = op == "print" or op.endswith("_") or op.startswith("rand")
        if op in ("placeholder", "output") or effect or name in needed:
            kept.append((name, op, args))
            if not effect:
                needed.update(a for a in args if isinstance(a, str))
    return kept[::-1]
''', nudge="When you keep a node with a side effect, can it run without the nodes it reads?"),
    Mutant("eliminate_dead_code", "keeps-whatever-any-node-uses", '''
def eliminate_dead_code(nodes):
    used = {a for _, _, args in nodes for a in args if isinstance(a, str)}
    return [(name, op, args) for name, op, args in nodes
            if op in ("placeholder", "output") or op == "print" or op.endswith("_") or op.startswith("rand") or name in used]
''', nudge="If a dead node is the only one that uses some value, is that value needed?"),
    Mutant("eliminate_dead_code", "only-direct-uses-of-the-output", '''
def eliminate_dead_code(nodes):
    needed = {a for a in nodes[-1][2] if isinstance(a, str)}
    return [(name, op, args) for name, op, args in nodes
            if op in ("placeholder", "output") or op == "print" or op.endswith("_") or op.startswith("rand") or name in needed]
''', nudge="What about the nodes that the output needs through other nodes, not directly?"),
    Mutant("eliminate_dead_code", "returns-names", _dce(node="name"),
        nudge="What should each entry of the returned list be: a name, or the whole node?"),
    Mutant("eliminate_dead_code", "side-effects-judged-by-the-node-name",
           _dce(effect='name.startswith("print") or name.endswith("_") or name.startswith("rand")'),
        nudge="Which part of a node says whether it has a side effect: its name or its op?"),
    Mutant("eliminate_dead_code", "ops-without-arguments-taken-for-placeholders",
           _dce(keep='op == "output" or args == () or effect or name in needed'),
        nudge="Is an op without arguments a placeholder, or could it be a computation like zeros that may be dead?"),
    Mutant("eliminate_dead_code", "forgets-to-reverse", _dce().replace("return kept[::-1]", "return kept"),
        nudge="You walked the graph backwards: in which order do the kept nodes come out?"),
    Mutant("eliminate_dead_code", "calls-torch-fx", '''
import torch.fx

def eliminate_dead_code(nodes):
    graph = torch.fx.Graph()
    graph.eliminate_dead_code()
    return nodes
''', nudge="Which modules does this exercise refuse, and is torch.fx among them?"),
]

_CSE = '''
def eliminate_common_subexpressions(nodes):
    renamed, seen, kept = {{}}, {{}}, []
    for name, op, args in nodes:
        {rename}
        effect = {effect}
        if {mergeable}:
            key = {key}
            if key in seen:
                renamed[name] = seen[key]
                {drop}
            seen[key] = name
        kept.append((name, op, args))
    return kept
'''


def _cse(rename: str = "args = tuple(renamed.get(a, a) if isinstance(a, str) else a for a in args)",
         effect: str = 'op == "print" or op.endswith("_") or op.startswith("rand")',
         mergeable: str = 'op not in ("placeholder", "output") and not effect', key: str = "(op, args)",
         drop: str = "continue") -> str:
    return _CSE.format(rename=rename, effect=effect, mergeable=mergeable, key=key, drop=drop)


ELIMINATE_COMMON_SUBEXPRESSIONS = [
    Mutant("eliminate_common_subexpressions", "does-not-rename", _cse(rename="pass"),
        nudge="Once a duplicate is removed, what do later nodes that used its name now refer to?"),
    Mutant("eliminate_common_subexpressions", "merges-placeholders", _cse(mergeable='op != "output" and not effect'),
        nudge="Are two inputs of a function the same value just because both are placeholders without arguments?"),
    Mutant("eliminate_common_subexpressions", "merges-prints", _cse(effect='op.endswith("_") or op.startswith("rand")'),
        nudge="Does printing twice do the same as printing once?"),
    Mutant("eliminate_common_subexpressions", "merges-random-draws", _cse(effect='op == "print" or op.endswith("_")'),
        nudge="Do two random draws with the same arguments give the same numbers?"),
    Mutant("eliminate_common_subexpressions", "merges-in-place-ops", _cse(effect='op == "print" or op.startswith("rand")'),
        nudge="Does an in-place op applied twice change its input as much as applied once?"),
    Mutant("eliminate_common_subexpressions", "side-effects-as-a-fixed-list", _cse(effect='op in ("print", "add_", "rand")'),
        nudge="Is a side effect a short list of op names, or a rule about what the op's name looks like?"),
    Mutant("eliminate_common_subexpressions", "side-effects-by-substring",
           _cse(effect='op == "print" or "_" in op or "rand" in op'),
        nudge="Does an underscore anywhere in an op's name make it in place, or only one at a particular place?"),
    Mutant("eliminate_common_subexpressions", "treats-every-op-as-commutative",
           _cse(key="(op, tuple(sorted(args, key=str)))"),
        nudge="Do the same arguments in another order always compute the same value?"),
    Mutant("eliminate_common_subexpressions", "compares-ops-only", _cse(key="op"),
        nudge="Do two nodes with the same op but different arguments compute the same value?"),
    Mutant("eliminate_common_subexpressions", "side-effects-judged-by-the-node-name",
           _cse(effect='name.startswith("print") or name.endswith("_") or name.startswith("rand")'),
        nudge="Which part of a node says whether it has a side effect: its name or its op?"),
    Mutant("eliminate_common_subexpressions", "ops-without-arguments-never-merged",
           _cse(mergeable='args and op != "output" and not effect'),
        nudge="Do two calls of the same pure op without arguments compute the same value?"),
    Mutant("eliminate_common_subexpressions", "renames-but-keeps-the-duplicate", _cse(drop="pass"),
        nudge="Once later nodes point at the earlier copy, should the duplicate itself still be in the graph?"),
    Mutant("eliminate_common_subexpressions", "keeps-the-last-of-equal-nodes", '''
def eliminate_common_subexpressions(nodes):
    last = {}
    for name, op, args in nodes:
        if op not in ("placeholder", "output") and not (op == "print" or op.endswith("_") or op.startswith("rand")):
            last[(op, args)] = name
    renamed = {name: last[(op, args)] for name, op, args in nodes if (op, args) in last}
    kept = []
    for name, op, args in nodes:
        if renamed.get(name, name) != name:
            continue
        kept.append((name, op, tuple(renamed.get(a, a) if isinstance(a, str) else a for a in args)))
    return kept
''', nudge="Of several equal nodes, which one does the statement keep, and can a later node serve an earlier use?"),
    Mutant("eliminate_common_subexpressions", "args-as-lists",
           _cse(rename="args = [renamed.get(a, a) if isinstance(a, str) else a for a in args]", key="(op, tuple(args))"),
        nudge="In what type does the statement ask each node's renamed arguments to come back?"),
    Mutant("eliminate_common_subexpressions", "calls-tensorlab-fx", '''
from tensorlab.fx import trace

def eliminate_common_subexpressions(nodes):
    return list(nodes)
''', nudge="Which modules does this exercise refuse, and which parts are yours to write?"),
]

_FUSE = '''
def fuse_elementwise(nodes, elementwise):
    uses = {{name: [] for name, _, _ in nodes}}
    for name, _, args in nodes:
        for a in {arguments}:
            if isinstance(a, str):
                uses[a].append(name)
    op_of = {{name: op for name, op, _ in nodes}}
    groups, taken = [], set()
    for name, op, _ in nodes:
        if name in taken or op not in elementwise:
            continue
        chain = [name]
        while {single}:
            user = uses[chain[-1]][0]
            if {stop}:
                break
            chain.append(user)
        if len(chain) >= {shortest}:
            groups.append(chain)
            taken.update(chain)
    return groups
'''


def _fuse(arguments: str = "args", single: str = "len(uses[chain[-1]]) == 1",
          stop: str = "user in taken or op_of[user] not in elementwise", shortest: str = "2") -> str:
    return _FUSE.format(arguments=arguments, single=single, stop=stop, shortest=shortest)


FUSE_ELEMENTWISE = [
    Mutant("fuse_elementwise", "keeps-chains-of-one", _fuse(shortest="1"),
        nudge="Is a single elementwise node on its own a fusion group?"),
    Mutant("fuse_elementwise", "ignores-the-single-use-rule", _fuse(single="uses[chain[-1]]"),
        nudge="When a value is used by several nodes, can its node be fused into just one of them?"),
    Mutant("fuse_elementwise", "counts-users-not-argument-slots", _fuse(arguments="dict.fromkeys(args)"),
        nudge="When one node takes the same value twice as an argument, how many uses is that?"),
    Mutant("fuse_elementwise", "forgets-that-the-output-uses-values", _fuse().replace(
        "    for name, _, args in nodes:\n        for a in args:", "    for name, _, args in nodes[:-1]:\n        for a in args:"),
        nudge="When the output returns a value that another node also uses, how many uses does that value have?"),
    Mutant("fuse_elementwise", "lets-chains-overlap", _fuse(stop="op_of[user] not in elementwise"),
        nudge="Can one node belong to two groups?"),
    Mutant("fuse_elementwise", "fuses-through-non-elementwise-ops", _fuse(stop='user in taken or op_of[user] == "output"'),
        nudge="Where does a chain stop: at the output only, or at any op that is not elementwise?"),
    Mutant("fuse_elementwise", "only-neighbours-in-the-list", '''
def fuse_elementwise(nodes, elementwise):
    uses = {name: [] for name, _, _ in nodes}
    for name, _, args in nodes:
        for a in args:
            if isinstance(a, str):
                uses[a].append(name)
    groups, chain = [], []
    for position, (name, op, _) in enumerate(nodes):
        if op not in elementwise:
            chain = []
            continue
        if chain and uses[chain[-1]] == [name]:
            chain.append(name)
        else:
            chain = [name]
            groups.append(chain)
    return [group for group in groups if len(group) >= 2]
''', nudge="Must the nodes of a chain sit next to each other in the list?"),
    Mutant("fuse_elementwise", "hard-coded-elementwise-set", _fuse().replace(
        "def fuse_elementwise(nodes, elementwise):\n",
        'def fuse_elementwise(nodes, elementwise):\n    elementwise = {"add", "sub", "mul", "div", "neg", "sin", "cos", "exp", "relu", "tanh"}\n'),
        nudge="Which ops count as elementwise in this call: a fixed set you chose, or the ones you were handed?"),
    Mutant("fuse_elementwise", "groups-as-tuples", _fuse().replace("groups.append(chain)", "groups.append(tuple(chain))"),
        nudge="In what type does the statement ask each group to come back?"),
    Mutant("fuse_elementwise", "calls-tensorlab-fx", '''
import tensorlab.fx

def fuse_elementwise(nodes, elementwise):
    return []
''', nudge="Which modules does this exercise refuse, and which parts are yours to write?"),
]

_SPLIT = '''
def split_at_breaks(events, supported):
    graphs = [[]]
    for position, event in enumerate(events):
        if event in supported:
            graphs[-1].append({position})
        else:
            {on_break}
    return {result}
'''


def _split(position: str = "position", on_break: str = "graphs.append([])",
           result: str = "[graph for graph in graphs if graph]") -> str:
    return _SPLIT.format(position=position, on_break=on_break, result=result)


SPLIT_AT_BREAKS = [
    Mutant("split_at_breaks", "keeps-empty-graphs", _split(result="graphs"),
        nudge="When two breaks come in a row, or one comes first or last, is an empty graph compiled?"),
    Mutant("split_at_breaks", "break-ends-the-graph-before", _split(on_break="graphs[-1].append(position); graphs.append([])"),
        nudge="Does a graph break belong to any graph, or does it run in Python?"),
    Mutant("split_at_breaks", "break-starts-the-next-graph", _split(on_break="graphs.append([position])"),
        nudge="Does a graph break belong to any graph, or does it run in Python?"),
    Mutant("split_at_breaks", "forgets-the-last-graph", _split(result="[graph for graph in graphs[:-1] if graph]"),
        nudge="What happens to the captured ops after the last break?"),
    Mutant("split_at_breaks", "positions-from-1", _split(position="position + 1"),
        nudge="From which number do positions count?"),
    Mutant("split_at_breaks", "names-instead-of-positions", _split(position="event"),
        nudge="What should each graph list: the events' names, or their positions?"),
    Mutant("split_at_breaks", "stops-at-the-first-break", _split(on_break="break"),
        nudge="Does Dynamo give up after the first break, or go on capturing the ops that follow?"),
    Mutant("split_at_breaks", "positions-among-captured-ops-only", '''
def split_at_breaks(events, supported):
    graphs, count = [[]], 0
    for event in events:
        if event in supported:
            graphs[-1].append(count)
            count += 1
        else:
            graphs.append([])
    return [graph for graph in graphs if graph]
''', nudge="Do the breaks count when you number the positions?"),
    Mutant("split_at_breaks", "one-graph-per-break-plus-one", '''
def split_at_breaks(events, supported):
    graphs = [[]]
    for position, event in enumerate(events):
        if event in supported:
            graphs[-1].append(position)
        elif graphs[-1]:
            graphs.append([])
    return graphs
''', nudge="When the run ends with a break, is there an empty graph after it?"),
    Mutant("split_at_breaks", "calls-torch-explain", '''
import torch._dynamo

def split_at_breaks(events, supported):
    return [[position for position, event in enumerate(events) if event in supported]]
''', nudge="Which modules does this exercise refuse, and which parts are yours to write?"),
]


# --- squash_in_one_graph: a graph break left in, or values the rewrite changed -------------------
SQUASH_IN_ONE_GRAPH = [
    Mutant("squash_in_one_graph", "keeps-the-item-call", '''
def squash_in_one_graph(x):
    peak = x.abs().max().item()
    x = torch.where(torch.tensor(peak > 1.0), x / peak, x)
    return torch.tanh(x) * 2 + peak
''', nudge="What kind of value does .item() hand back, and can Dynamo keep a graph going through it?"),
    Mutant("squash_in_one_graph", "keeps-the-print", '''
def squash_in_one_graph(x):
    print("squashing", tuple(x.shape))
    peak = x.abs().max()
    x = torch.where(peak > 1.0, x / peak, x)
    return torch.tanh(x) * 2 + peak
''', nudge="Is a print something a graph of tensor ops can hold?"),
    Mutant("squash_in_one_graph", "python-if-on-a-tensor", '''
def squash_in_one_graph(x):
    peak = x.abs().max()
    if peak > 1.0:
        x = x / peak
    return torch.tanh(x) * 2 + peak
''', nudge="When a Python if asks a tensor for True or False, which value must Dynamo know while it is still "
           "tracing, before any data exists?"),
    Mutant("squash_in_one_graph", "always-divides", '''
def squash_in_one_graph(x):
    peak = x.abs().max()
    return torch.tanh(x / peak) * 2 + peak
''', nudge="When the largest magnitude is below 1 (or 0), does the given function divide at all?"),
    Mutant("squash_in_one_graph", "never-divides", '''
def squash_in_one_graph(x):
    peak = x.abs().max()
    return torch.tanh(x) * 2 + peak
''', nudge="When the largest magnitude is above 1, what does the given function do to x before tanh?"),
    Mutant("squash_in_one_graph", "item-replaced-by-a-constant", '''
def squash_in_one_graph(x):
    peak = x.abs().max()
    x = torch.where(peak > 1.0, x / peak, x)
    return torch.tanh(x) * 2 + 1.0
''', nudge="What number did .item() hand back, and is it the same for every input?"),
    Mutant("squash_in_one_graph", "forgets-the-magnitude", '''
def squash_in_one_graph(x):
    peak = x.max()
    x = torch.where(peak > 1.0, x / peak, x)
    return torch.tanh(x) * 2 + peak
''', nudge="When the element farthest from 0 is negative, is it the largest value of x?"),
    Mutant("squash_in_one_graph", "peak-per-row", '''
def squash_in_one_graph(x):
    peak = x.abs().amax(dim=-1, keepdim=True)
    x = torch.where(peak > 1.0, x / peak, x)
    return torch.tanh(x) * 2 + peak
''', nudge="Over which elements does .max() without a dim look for the largest magnitude?"),
    Mutant("squash_in_one_graph", "works-in-float32", '''
def squash_in_one_graph(x):
    x = x.float()
    peak = x.abs().max()
    x = torch.where(peak > 1.0, x / peak, x)
    return torch.tanh(x) * 2 + peak
''', nudge="What dtype did the given function return for a float64 input?"),
    Mutant("squash_in_one_graph", "divides-the-input-in-place", '''
def squash_in_one_graph(x):
    peak = x.abs().max()
    x.div_(torch.clamp(peak, min=1.0))
    return torch.tanh(x) * 2 + peak
''', nudge="After your function returns, is the caller's tensor still what it passed in?"),
    Mutant("squash_in_one_graph", "hides-python-in-one-node", '''
import torch


@torch.compiler.allow_in_graph
def squash_with_breaks_whole(x):
    return squash_with_breaks(x)


def squash_in_one_graph(x):
    return squash_with_breaks_whole(x)
''', nudge="Does hiding the breaks inside one graph node remove them, and what does Dynamo then no longer guard?"),
    Mutant("squash_in_one_graph", "calls-tensorlab", '''
import tensorlab


def squash_in_one_graph(x):
    peak = x.abs().max()
    return torch.from_numpy(tensorlab.tanh(tensorlab.tensor(torch.where(peak > 1.0, x / peak, x).numpy())).numpy()) * 2 + peak
''', nudge="Which modules does this part refuse, and which does it need?"),
]


# --- predicted_compiles: one rule of Dynamo's guards and recompiles forgotten or bent ----------------
_COMPILES = '''
def predicted_compiles(calls):
    graphs, remembered = [], None
    for shape, dtype, requires_grad, scale in calls:
        def passes(graph):
            sizes, kind, grad, value = graph
            return ({kind} and {grad} and (value is None or value == scale)
                    and all(size == n if size is not None else {dynamic} for size, n in zip(sizes, shape)))
        if any(passes(graph) for graph in graphs) or {limit}:
            continue
        if remembered is None:
            remembered = (list(shape), scale)
        else:
            sizes, value = remembered
            remembered = ([{size} for a, n in zip(sizes, shape)], {value})
        sizes, value = remembered
        graphs.append(([{specialise} for a, n in zip(sizes, shape)], dtype, requires_grad, value))
    return {result}
'''


def _compiles(kind: str = "kind == dtype", grad: str = "grad == requires_grad", dynamic: str = "n >= 2",
              limit: str = "len(graphs) == 8", size: str = "a if a == n else None",
              value: str = "value if value == scale else None",
              specialise: str = "None if a is None and n >= 2 else n", result: str = "len(graphs)") -> str:
    return _COMPILES.format(kind=kind, grad=grad, dynamic=dynamic, limit=limit, size=size, value=value,
                            specialise=specialise, result=result)


PREDICTED_COMPILES = [
    Mutant("predicted_compiles", "counts-recompiles-only", _compiles(result="max(len(graphs) - 1, 0)"),
           nudge="Is the very first compile a graph too?"),
    Mutant("predicted_compiles", "no-dtype-guard", _compiles(kind="True"),
           nudge="Can a graph traced for float32 tensors run float64 ones?"),
    Mutant("predicted_compiles", "no-requires-grad-guard", _compiles(grad="True"),
           nudge="Does a graph traced without autograd know what a tensor that requires grad needs?"),
    Mutant("predicted_compiles", "no-dynamic-shapes", _compiles(size="n"),
           nudge="After a size has changed once, does Dynamo keep compiling a graph for each new size?"),
    Mutant("predicted_compiles", "sizes-0-and-1-dynamic-too", _compiles(dynamic="True", specialise="a"),
           nudge="Which sizes does a dynamic dim refuse to treat like any other, and why might 0 and 1 be special?"),
    Mutant("predicted_compiles", "no-recompile-limit", _compiles(limit="False"),
           nudge="Does Dynamo keep compiling a function forever, or is there a limit?"),
    Mutant("predicted_compiles", "scale-always-specialised", _compiles(value="scale"),
           nudge="After scale has changed once, does each new int still need a graph of its own?"),
    Mutant("predicted_compiles", "scale-dynamic-at-any-recompile", _compiles(value="None"),
           nudge="When a recompile comes from a new dtype or size and scale is the same, has scale changed?"),
    Mutant("predicted_compiles", "every-dim-dynamic-at-once", _compiles(
        size="None if sizes != list(shape) else a"),
           nudge="When only the rows changed, why would the number of columns become dynamic?"),
    Mutant("predicted_compiles", "remembers-sizes-per-dtype", '''
def predicted_compiles(calls):
    graphs, remembered = [], {}
    for shape, dtype, requires_grad, scale in calls:
        def passes(graph):
            sizes, kind, grad, value = graph
            return (kind == dtype and grad == requires_grad and (value is None or value == scale)
                    and all(size == n if size is not None else n >= 2 for size, n in zip(sizes, shape)))
        if any(passes(graph) for graph in graphs) or len(graphs) == 8:
            continue
        if dtype not in remembered:
            remembered[dtype] = (list(shape), scale)
        else:
            sizes, value = remembered[dtype]
            remembered[dtype] = ([a if a == n else None for a, n in zip(sizes, shape)], value if value == scale else None)
        sizes, value = remembered[dtype]
        graphs.append(([None if a is None and n >= 2 else n for a, n in zip(sizes, shape)], dtype, requires_grad, value))
    return len(graphs)
''', nudge="Is what Dynamo remembers about earlier sizes kept per graph, per dtype, or once for the whole function?"),
    Mutant("predicted_compiles", "one-graph-per-distinct-call", '''
def predicted_compiles(calls):
    return min(len(set(calls)), 8)
''', nudge="When a size changes a second time, does Dynamo need yet another graph?"),
    Mutant("predicted_compiles", "counts-with-torch", '''
import torch


def predicted_compiles(calls):
    graphs = []
    compiled = torch.compile(scale_shift, backend=lambda graph, inputs: graphs.append(graph) or graph.forward)
    for shape, dtype, requires_grad, scale in calls:
        compiled(torch.ones(shape, dtype=getattr(torch, dtype), requires_grad=requires_grad), scale)
    return len(graphs)
''', nudge="Which modules does this part refuse, and what is the part asking you to do without them?"),
]


MUTANTS = (ELIMINATE_DEAD_CODE + ELIMINATE_COMMON_SUBEXPRESSIONS + FUSE_ELEMENTWISE + SPLIT_AT_BREAKS
           + SQUASH_IN_ONE_GRAPH + PREDICTED_COMPILES)

# Found by a fresh attack (issue 26): a family of ops written as the members the examples show, and a "new" list
# that is the argument.
MUTANTS += [
    Mutant('eliminate_dead_code', 'side-effect-ops-listed-not-ruled', '''def eliminate_dead_code(nodes):
    """The nodes the output needs, plus placeholders, the output and side effects, in order."""
    ### BEGIN SOLUTION
    needed, kept = set(), []
    for name, op, args in reversed(nodes):
        effect = op in ("print", "add_", "mul_", "relu_", "rand", "randn", "randint")
        if op in ("placeholder", "output") or effect or name in needed:
            kept.append((name, op, args))
            needed.update(a for a in args if isinstance(a, str))
    return kept[::-1]
    ### END SOLUTION''', nudge='Does the statement list the ops with a side effect, or give a rule about their names that covers ops you have not seen?'),
    Mutant('eliminate_dead_code', 'rand-family-as-three-names', '''def eliminate_dead_code(nodes):
    """The nodes the output needs, plus placeholders, the output and side effects, in order."""
    ### BEGIN SOLUTION
    needed, kept = set(), []
    for name, op, args in reversed(nodes):
        effect = op == "print" or op.endswith("_") or op in ("rand", "randn", "randint")
        if op in ("placeholder", "output") or effect or name in needed:
            kept.append((name, op, args))
            needed.update(a for a in args if isinstance(a, str))
    return kept[::-1]
    ### END SOLUTION''', nudge='Which ops start with rand: only the ones you have seen in the examples?'),
    Mutant('eliminate_dead_code', 'in-place-ops-as-three-names', '''def eliminate_dead_code(nodes):
    """The nodes the output needs, plus placeholders, the output and side effects, in order."""
    ### BEGIN SOLUTION
    needed, kept = set(), []
    for name, op, args in reversed(nodes):
        effect = op == "print" or op in ("add_", "mul_", "relu_") or op.startswith("rand")
        if op in ("placeholder", "output") or effect or name in needed:
            kept.append((name, op, args))
            needed.update(a for a in args if isinstance(a, str))
    return kept[::-1]
    ### END SOLUTION''', nudge='Which ops end in an underscore: only add_, mul_ and relu_?'),
    Mutant('eliminate_dead_code', 'argument-returned-when-nothing-is-dead', '''def eliminate_dead_code(nodes):
    """The nodes the output needs, plus placeholders, the output and side effects, in order."""
    ### BEGIN SOLUTION
    needed, kept = set(), []
    for name, op, args in reversed(nodes):
        effect = op == "print" or op.endswith("_") or op.startswith("rand")
        if op in ("placeholder", "output") or effect or name in needed:
            kept.append((name, op, args))
            needed.update(a for a in args if isinstance(a, str))
    return nodes if len(kept) == len(nodes) else kept[::-1]
    ### END SOLUTION''', nudge='When nothing is removed, is the list you return a new list, or the one you were given?'),
    Mutant('eliminate_common_subexpressions', 'rand-family-as-three-names', '''def eliminate_common_subexpressions(nodes):
    """The graph with every repeated pure computation replaced by its first occurrence."""
    ### BEGIN SOLUTION
    renamed, seen, kept = {}, {}, []
    for name, op, args in nodes:
        args = tuple(renamed.get(a, a) if isinstance(a, str) else a for a in args)
        effect = op == "print" or op.endswith("_") or op in ("rand", "randn", "randint")
        if op not in ("placeholder", "output") and not effect:
            key = (op, args)
            if key in seen:
                renamed[name] = seen[key]
                continue
            seen[key] = name
        kept.append((name, op, args))
    return kept
    ### END SOLUTION''', nudge='Which ops start with rand: only the ones you have seen in the examples?'),
    Mutant('eliminate_common_subexpressions', 'in-place-ops-as-three-names', '''def eliminate_common_subexpressions(nodes):
    """The graph with every repeated pure computation replaced by its first occurrence."""
    ### BEGIN SOLUTION
    renamed, seen, kept = {}, {}, []
    for name, op, args in nodes:
        args = tuple(renamed.get(a, a) if isinstance(a, str) else a for a in args)
        effect = op == "print" or op in ("add_", "mul_", "relu_") or op.startswith("rand")
        if op not in ("placeholder", "output") and not effect:
            key = (op, args)
            if key in seen:
                renamed[name] = seen[key]
                continue
            seen[key] = name
        kept.append((name, op, args))
    return kept
    ### END SOLUTION''', nudge='Which ops end in an underscore: only add_, mul_ and relu_?'),
]
