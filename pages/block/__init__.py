"""The transformer block pages (anatomy, depth, training race, positional encodings)."""
