# The module's error comes alone, without a warning that the module does
# not declare "missing" (Terraform's variables_undefined_in_config).
run "broken" {
  module {
    source = "./tests/broken"
  }
  variables {
    missing = "x"
  }
}
