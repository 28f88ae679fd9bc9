"""Synthetic English->French corpus generator used by scripts/make_corpus.py.

See that script's docstring for the overview and the module of each design
step.  Standard library only.
"""
