"""The numeric experiments behind the app's pages: plain functions of primitive
arguments (so the app can cache them) returning NumPy arrays and pandas tables."""
