"""The generators here run with torch and transformers installed, which the test environment does not have."""

collect_ignore_glob = ["generate_*.py"]
