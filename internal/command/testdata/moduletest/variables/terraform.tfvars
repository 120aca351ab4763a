# Not declared by the module: only the test files use it.
org = "main-org"
