resource "tp_thing" "a" {
  name = "$${x} %%{y} back\\slash ctrl\u0001 nbsp\u00a0 emoji😀 zw\u200b"
  description = "  lead\n\n  EOT\nlast  \n"
  tags = { "a.b" = "1", "1x" = "2", "_" = "3", "ok-key" = "4", "$${k}" = "5", "" = "6" }
}
