# Top comment
// Slash comment
/* Block
   comment */
resource "a" "b" {   # after brace
  # leading comment
  x = 1 # trailing
  yy = 2   // trailing slash
  /* inline */ z = 3
  list = [
    1, # one
    2, # two
  ]
}
   # indented comment
variable "v" {}
