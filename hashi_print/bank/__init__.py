"""The puzzle bank: graded, proven-unique puzzles generated in parallel and kept in SQLite.

`keys` names a puzzle and all its mirrored and rotated copies with one canonical key, `store` keeps
the bank (SQLite), `executors` run the generator on local processes or a Dask cluster, and `fill`
ties them together. Dask is optional: it is imported only when a cluster is asked for.
"""
