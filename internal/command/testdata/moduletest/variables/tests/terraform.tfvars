# Overrides every other value, for the files in this directory only.
input = "from-tests-dir"
