"""Instructor side of tensorlab: the nbgrader course pipeline and the ``tensorlab`` command."""
