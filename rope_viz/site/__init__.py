"""Glue between the course package and the Jupyter Book site (Sphinx extension, static assets)."""
