"""The sentence the real-model lessons' tests read."""

TEXT = "The quick brown fox jumps over the lazy dog."
