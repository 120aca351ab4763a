# Creating or deleting an instance of a resource named whole in
# replace_triggered_by does not replace anything; only an update or a
# replacement does.
resource "terraform_data" "grows" {
  count = 2
  input = "g"
}

resource "terraform_data" "shrinks" {
  count = 1
  input = "s"
}

resource "terraform_data" "on_grows" {
  lifecycle {
    replace_triggered_by = [terraform_data.grows]
  }
}

resource "terraform_data" "on_shrinks" {
  lifecycle {
    replace_triggered_by = [terraform_data.shrinks]
  }
}
