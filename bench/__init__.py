"""Benchmarks: `make bench` (the engine, `python -m bench`) and `make loadtest` (the served API, `python -m bench.loadtest`)."""
