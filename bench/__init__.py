"""Benchmarks that time tensorlab against torch and NumPy and print the ratios.

``python -m bench`` runs every registered workload; ``python -m bench NAME...`` runs a few;
``python -m bench --list`` names them. A workload is one function registered with
:func:`bench.registry.workload` that builds the same computation for each implementation, so
adding a benchmark means adding one function to a module in ``registry.WORKLOAD_MODULES``.
"""
