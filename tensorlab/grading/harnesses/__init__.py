"""Rank harnesses: the grader's half of an exercise graded in real processes.

The sandbox loads one of these files by path inside each rank (before the rank locks itself
down), so a harness imports only torch and NumPy, never tensorlab or the grader.
"""
