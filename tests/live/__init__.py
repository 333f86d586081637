"""Tests of the live notebooks in the real Jupyter clients (JupyterLab and Notebook 7) driven by chromium."""
