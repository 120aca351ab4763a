bad_block {
}

terraform {
    bad_attribute = "string"
}