"""The attention pages (scoring, multi-head, saturation, equivariance)."""
