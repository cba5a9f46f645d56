"""Rill's Python graph layer over the C API: dtypes, errors, graphs, sessions."""
