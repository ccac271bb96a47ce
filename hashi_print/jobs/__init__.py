"""The use cases of hashi-print: one module per job, shared by the command line and the web app.

Each job takes a typed, frozen request and returns a typed, frozen result; long jobs report progress
through a `progress(done, total)` callback. Jobs load and write files and call the lower layers
(puzzle, game, sheets, render, scan, bank); they never print. See docs/architecture.md.
"""
