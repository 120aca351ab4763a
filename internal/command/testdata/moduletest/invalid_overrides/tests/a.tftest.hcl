run "x" {
  override_resource {
    target = terraform_data.nope
  }
  override_module {
    target = module.gone
  }
}
