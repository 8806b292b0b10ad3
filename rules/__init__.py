"""mextrain's rules engine: tiles, positions, states, judged moves. Pure Python, no I/O."""
