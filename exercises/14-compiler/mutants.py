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
    Mutant("eliminate_dead_code", "drops-unused-placeholders", _dce(keep='op == "output" or effect or name in needed')),
    Mutant("eliminate_dead_code", "drops-print", _dce(effect='op.endswith("_") or op.startswith("rand")')),
    Mutant("eliminate_dead_code", "drops-in-place-ops", _dce(effect='op == "print" or op.startswith("rand")')),
    Mutant("eliminate_dead_code", "drops-rand", _dce(effect='op == "print" or op.endswith("_")')),
    Mutant("eliminate_dead_code", "side-effects-as-a-fixed-list", _dce(effect='op in ("print", "add_", "rand")')),
    Mutant("eliminate_dead_code", "side-effects-by-substring", _dce(effect='op == "print" or "_" in op or "rand" in op')),
    Mutant("eliminate_dead_code", "drops-the-output-node", _dce(keep='op == "placeholder" or effect or name in needed')),
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
'''),
    Mutant("eliminate_dead_code", "keeps-whatever-any-node-uses", '''
def eliminate_dead_code(nodes):
    used = {a for _, _, args in nodes for a in args if isinstance(a, str)}
    return [(name, op, args) for name, op, args in nodes
            if op in ("placeholder", "output") or op == "print" or op.endswith("_") or op.startswith("rand") or name in used]
'''),
    Mutant("eliminate_dead_code", "only-direct-uses-of-the-output", '''
def eliminate_dead_code(nodes):
    needed = {a for a in nodes[-1][2] if isinstance(a, str)}
    return [(name, op, args) for name, op, args in nodes
            if op in ("placeholder", "output") or op == "print" or op.endswith("_") or op.startswith("rand") or name in needed]
'''),
    Mutant("eliminate_dead_code", "returns-names", _dce(node="name")),
    Mutant("eliminate_dead_code", "side-effects-judged-by-the-node-name",
           _dce(effect='name.startswith("print") or name.endswith("_") or name.startswith("rand")')),
    Mutant("eliminate_dead_code", "ops-without-arguments-taken-for-placeholders",
           _dce(keep='op == "output" or args == () or effect or name in needed')),
    Mutant("eliminate_dead_code", "forgets-to-reverse", _dce().replace("return kept[::-1]", "return kept")),
    Mutant("eliminate_dead_code", "calls-torch-fx", '''
import torch.fx

def eliminate_dead_code(nodes):
    graph = torch.fx.Graph()
    graph.eliminate_dead_code()
    return nodes
'''),
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
    Mutant("eliminate_common_subexpressions", "does-not-rename", _cse(rename="pass")),
    Mutant("eliminate_common_subexpressions", "merges-placeholders", _cse(mergeable='op != "output" and not effect')),
    Mutant("eliminate_common_subexpressions", "merges-prints", _cse(effect='op.endswith("_") or op.startswith("rand")')),
    Mutant("eliminate_common_subexpressions", "merges-random-draws", _cse(effect='op == "print" or op.endswith("_")')),
    Mutant("eliminate_common_subexpressions", "merges-in-place-ops", _cse(effect='op == "print" or op.startswith("rand")')),
    Mutant("eliminate_common_subexpressions", "side-effects-as-a-fixed-list", _cse(effect='op in ("print", "add_", "rand")')),
    Mutant("eliminate_common_subexpressions", "side-effects-by-substring",
           _cse(effect='op == "print" or "_" in op or "rand" in op')),
    Mutant("eliminate_common_subexpressions", "treats-every-op-as-commutative",
           _cse(key="(op, tuple(sorted(args, key=str)))")),
    Mutant("eliminate_common_subexpressions", "compares-ops-only", _cse(key="op")),
    Mutant("eliminate_common_subexpressions", "side-effects-judged-by-the-node-name",
           _cse(effect='name.startswith("print") or name.endswith("_") or name.startswith("rand")')),
    Mutant("eliminate_common_subexpressions", "ops-without-arguments-never-merged",
           _cse(mergeable='args and op != "output" and not effect')),
    Mutant("eliminate_common_subexpressions", "renames-but-keeps-the-duplicate", _cse(drop="pass")),
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
'''),
    Mutant("eliminate_common_subexpressions", "args-as-lists",
           _cse(rename="args = [renamed.get(a, a) if isinstance(a, str) else a for a in args]", key="(op, tuple(args))")),
    Mutant("eliminate_common_subexpressions", "calls-tensorlab-fx", '''
from tensorlab.fx import trace

def eliminate_common_subexpressions(nodes):
    return list(nodes)
'''),
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
    Mutant("fuse_elementwise", "keeps-chains-of-one", _fuse(shortest="1")),
    Mutant("fuse_elementwise", "ignores-the-single-use-rule", _fuse(single="uses[chain[-1]]")),
    Mutant("fuse_elementwise", "counts-users-not-argument-slots", _fuse(arguments="dict.fromkeys(args)")),
    Mutant("fuse_elementwise", "forgets-that-the-output-uses-values", _fuse().replace(
        "    for name, _, args in nodes:\n        for a in args:", "    for name, _, args in nodes[:-1]:\n        for a in args:")),
    Mutant("fuse_elementwise", "lets-chains-overlap", _fuse(stop="op_of[user] not in elementwise")),
    Mutant("fuse_elementwise", "fuses-through-non-elementwise-ops", _fuse(stop='user in taken or op_of[user] == "output"')),
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
'''),
    Mutant("fuse_elementwise", "hard-coded-elementwise-set", _fuse().replace(
        "def fuse_elementwise(nodes, elementwise):\n",
        'def fuse_elementwise(nodes, elementwise):\n    elementwise = {"add", "sub", "mul", "div", "neg", "sin", "cos", "exp", "relu", "tanh"}\n')),
    Mutant("fuse_elementwise", "groups-as-tuples", _fuse().replace("groups.append(chain)", "groups.append(tuple(chain))")),
    Mutant("fuse_elementwise", "calls-tensorlab-fx", '''
import tensorlab.fx

def fuse_elementwise(nodes, elementwise):
    return []
'''),
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
    Mutant("split_at_breaks", "keeps-empty-graphs", _split(result="graphs")),
    Mutant("split_at_breaks", "break-ends-the-graph-before", _split(on_break="graphs[-1].append(position); graphs.append([])")),
    Mutant("split_at_breaks", "break-starts-the-next-graph", _split(on_break="graphs.append([position])")),
    Mutant("split_at_breaks", "forgets-the-last-graph", _split(result="[graph for graph in graphs[:-1] if graph]")),
    Mutant("split_at_breaks", "positions-from-1", _split(position="position + 1")),
    Mutant("split_at_breaks", "names-instead-of-positions", _split(position="event")),
    Mutant("split_at_breaks", "stops-at-the-first-break", _split(on_break="break")),
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
'''),
    Mutant("split_at_breaks", "one-graph-per-break-plus-one", '''
def split_at_breaks(events, supported):
    graphs = [[]]
    for position, event in enumerate(events):
        if event in supported:
            graphs[-1].append(position)
        elif graphs[-1]:
            graphs.append([])
    return graphs
'''),
    Mutant("split_at_breaks", "calls-torch-explain", '''
import torch._dynamo

def split_at_breaks(events, supported):
    return [[position for position, event in enumerate(events) if event in supported]]
'''),
]

MUTANTS = ELIMINATE_DEAD_CODE + ELIMINATE_COMMON_SUBEXPRESSIONS + FUSE_ELEMENTWISE + SPLIT_AT_BREAKS
