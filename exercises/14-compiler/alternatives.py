"""Correct answers of exercise 14 (the compiler) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    # --- eliminate_dead_code -------------------------------------------------------------------
    Alternative("eliminate_dead_code", "reachability-from-roots-with-stack", '''
def has_side_effect(op):
    return op == "print" or op.endswith("_") or op.startswith("rand")


def eliminate_dead_code(nodes):
    """Mark everything reachable from the roots (output, side effects), then filter in order."""
    args_of = {name: args for name, _, args in nodes}
    roots = [name for name, op, _ in nodes if op == "output" or has_side_effect(op)]
    live = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        if name in live:
            continue
        live.add(name)
        stack.extend(a for a in args_of[name] if isinstance(a, str))
    return [node for node in nodes if node[1] == "placeholder" or node[0] in live]
'''),
    Alternative("eliminate_dead_code", "remove-unused-until-fixed-point", '''
def eliminate_dead_code(nodes):
    """Drop pure nodes nobody uses, again and again, until nothing changes."""
    kept = list(nodes)
    while True:
        used = set()
        for _, _, args in kept:
            used.update(a for a in args if isinstance(a, str))
        removable = set()
        for name, op, _ in kept:
            pinned = op in ("placeholder", "output") or op == "print" or op[-1:] == "_" or op[:4] == "rand"
            if not pinned and name not in used:
                removable.add(name)
        if not removable:
            return kept
        kept = [node for node in kept if node[0] not in removable]
'''),

    # --- eliminate_common_subexpressions ---------------------------------------------------------
    Alternative("eliminate_common_subexpressions", "linear-search-of-kept-nodes", '''
def eliminate_common_subexpressions(nodes):
    """No dictionary of keys: look for an equal pure node among the ones already kept."""
    kept = []
    replacement = {}
    for name, op, args in nodes:
        new_args = []
        for a in args:
            new_args.append(replacement[a] if isinstance(a, str) and a in replacement else a)
        new_args = tuple(new_args)
        pure = op not in ("placeholder", "output") and op != "print" and not op.endswith("_") and not op.startswith("rand")
        twin = None
        if pure:
            for other_name, other_op, other_args in kept:
                if other_op == op and other_args == new_args:
                    twin = other_name
                    break
        if twin is None:
            kept.append((name, op, new_args))
        else:
            replacement[name] = twin
    return kept
'''),
    Alternative("eliminate_common_subexpressions", "value-numbering-two-passes", '''
def eliminate_common_subexpressions(nodes):
    """Pass 1 gives every node a value number (equal numbers: equal values); pass 2 keeps one node per number."""
    number_of, table, first_with = {}, {}, {}
    for position, (name, op, args) in enumerate(nodes):
        key = (op, tuple(("node", number_of[a]) if isinstance(a, str) else ("const", a) for a in args))
        side_effect = op == "print" or op.endswith("_") or op.startswith("rand")
        if op in ("placeholder", "output") or side_effect or key not in table:
            number = position  # a fresh value
            if not (op in ("placeholder", "output") or side_effect):
                table[key] = number
        else:
            number = table[key]
        number_of[name] = number
        first_with.setdefault(number, name)
    result = []
    for name, op, args in nodes:
        if first_with[number_of[name]] != name:
            continue
        result.append((name, op, tuple(first_with[number_of[a]] if isinstance(a, str) else a for a in args)))
    return result
'''),

    # --- fuse_elementwise ------------------------------------------------------------------------
    Alternative("fuse_elementwise", "forward-labelling-earliest-chain", '''
from collections import Counter


def fuse_elementwise(nodes, elementwise):
    """One forward pass: a node joins the chain of a producer whose single use it is (the chain started
    first wins), or starts its own chain."""
    use_count = Counter(a for _, _, args in nodes for a in args if isinstance(a, str))
    op_of = {name: op for name, op, _ in nodes}
    chains = []  # in order of their first node
    chain_of = {}
    for name, op, args in nodes:
        if op not in elementwise:
            continue
        candidates = [chain_of[a] for a in set(a for a in args if isinstance(a, str))
                      if a in chain_of and use_count[a] == 1 and op_of[a] in elementwise and chains[chain_of[a]][-1] == a]
        if candidates:
            index = min(candidates)
            chains[index].append(name)
        else:
            index = len(chains)
            chains.append([name])
        chain_of[name] = index
    return [chain for chain in chains if len(chain) >= 2]
'''),
    Alternative("fuse_elementwise", "successor-map-recursive-follow", '''
def fuse_elementwise(nodes, elementwise):
    counts, user = {}, {}
    for name, _, args in nodes:
        for a in args:
            if isinstance(a, str):
                counts[a] = counts.get(a, 0) + 1
                user[a] = name
    is_elementwise = {name: op in elementwise for name, op, _ in nodes}
    # the node a chain may continue to from each node, if any
    successor = {name: user[name] for name in user if counts[name] == 1 and is_elementwise[user[name]]}
    taken = set()

    def follow(name):
        nxt = successor.get(name)
        if nxt is None or nxt in taken:
            return [name]
        taken.add(nxt)
        return [name] + follow(nxt)

    groups = []
    for name, op, _ in nodes:
        if op in elementwise and name not in taken:
            taken.add(name)
            chain = follow(name)
            if len(chain) > 1:
                groups.append(chain)
            else:
                taken.discard(name)
    return groups
'''),

    # --- split_at_breaks -------------------------------------------------------------------------
    Alternative("split_at_breaks", "itertools-groupby", '''
import itertools


def split_at_breaks(events, supported):
    graphs = []
    for captured, run in itertools.groupby(enumerate(events), key=lambda pair: pair[1] in supported):
        if captured:
            graphs.append([position for position, _ in run])
    return graphs
'''),
    Alternative("split_at_breaks", "ranges-between-break-positions", '''
def split_at_breaks(events, supported):
    breaks = [-1] + [i for i, event in enumerate(events) if event not in supported] + [len(events)]
    return [list(range(left + 1, right)) for left, right in zip(breaks, breaks[1:]) if right - left > 1]
'''),
    # --- squash_in_one_graph --------------------------------------------------------------------
    Alternative("squash_in_one_graph", "divide-by-the-peak-clamped-at-one", '''
def squash_in_one_graph(x):
    """Dividing by max(peak, 1) is dividing by the peak above 1 and by 1 (nothing) otherwise."""
    peak = x.abs().max()
    return torch.tanh(x / torch.clamp(peak, min=1.0)) * 2 + peak
'''),
    Alternative("squash_in_one_graph", "maximum-and-where-at-or-above-one", '''
def squash_in_one_graph(x):
    """At exactly 1 both branches agree (x / 1 is x), so >= is as right as >."""
    peak = torch.amax(torch.abs(x))
    scaled = torch.where(peak >= 1.0, x / torch.maximum(peak, torch.ones_like(peak)), x)
    return 2 * torch.tanh(scaled) + peak
'''),
    Alternative("squash_in_one_graph", "torch-cond-keeps-the-branch", '''
def divided(x, peak):
    return x / peak


def unchanged(x, peak):
    return x.clone()


def squash_in_one_graph(x):
    """torch.cond: a data-dependent branch Dynamo captures as one higher-order op."""
    peak = x.abs().max()
    x = torch.cond(peak > 1.0, divided, unchanged, (x, peak))
    return torch.tanh(x) * 2 + peak
'''),
    # --- predicted_compiles ---------------------------------------------------------------------
    Alternative("predicted_compiles", "dynamic-dims-as-a-set-and-guard-dicts", '''
def predicted_compiles(calls):
    """Graphs as dicts of guards; which dims (and scale) went dynamic kept as a set of changes."""
    graphs, first, changed = [], None, set()
    for shape, dtype, requires_grad, scale in calls:
        def fits(graph):
            if graph["dtype"] != dtype or graph["requires_grad"] != requires_grad:
                return False
            if graph["scale"] is not None and graph["scale"] != scale:
                return False
            return all(n >= 2 if size == "dynamic" else n == size for size, n in zip(graph["sizes"], shape))
        if any(fits(graph) for graph in graphs):
            continue
        if len(graphs) >= 8:
            continue
        if first is None:
            first = (tuple(shape), scale)
        changed |= {dim for dim in range(len(shape)) if shape[dim] != first[0][dim]}
        if scale != first[1]:
            changed.add("scale")
        sizes = ["dynamic" if dim in changed and shape[dim] >= 2 else shape[dim] for dim in range(len(shape))]
        graphs.append({"dtype": dtype, "requires_grad": requires_grad, "sizes": sizes,
                       "scale": None if "scale" in changed else scale})
    return len(graphs)
'''),
    Alternative("predicted_compiles", "cache-keys-with-wildcards", '''
WILD = "any"


def key_of(shape, dtype, requires_grad, scale, dynamic):
    """The cache key a graph compiled now would accept: dynamic dims (sizes from 2) become wildcards."""
    sizes = tuple(WILD if dim in dynamic and size >= 2 else size for dim, size in enumerate(shape))
    return (dtype, requires_grad, WILD if "scale" in dynamic else scale) + sizes


def matches(key, call_key):
    """dtype, requires_grad and scale first, then the sizes: a wildcard size stands for any size from 2."""
    settings = all(want in (WILD, got) for want, got in zip(key[:3], call_key[:3]))
    return settings and all(got >= 2 if want == WILD else want == got for want, got in zip(key[3:], call_key[3:]))


def predicted_compiles(calls):
    keys, dynamic, last_compiled = [], set(), None
    for shape, dtype, requires_grad, scale in calls:
        exact = key_of(shape, dtype, requires_grad, scale, set())
        if any(matches(key, exact) for key in keys) or len(keys) == 8:
            continue
        if last_compiled is not None:
            old_shape, old_scale = last_compiled
            dynamic |= {dim for dim in range(len(shape)) if shape[dim] != old_shape[dim]}
            if scale != old_scale:
                dynamic.add("scale")
        last_compiled = (shape, scale)
        keys.append(key_of(shape, dtype, requires_grad, scale, dynamic))
    return len(keys)
'''),
    Alternative('fuse_elementwise', 'use-counter-and-last-user', '''
from collections import Counter
def fuse_elementwise(nodes, elementwise):
    count = Counter(a for _, _, args in nodes for a in args if isinstance(a, str))
    user = {}
    for name, _, args in nodes:
        for a in args:
            if isinstance(a, str):
                user[a] = name
    op = dict((n, o) for n, o, _ in nodes)
    taken, groups = set(), []
    for name, o, _ in nodes:
        if o not in elementwise or name in taken:
            continue
        chain, here = [name], name
        while count[here] == 1 and user[here] not in taken and op[user[here]] in elementwise:
            here = user[here]
            chain.append(here)
        if len(chain) > 1:
            taken.update(chain)
            groups.append(chain)
    return groups
'''),
]
