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
]
