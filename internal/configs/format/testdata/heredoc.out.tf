resource "aws_iam_policy" "p" {
  policy      = <<EOF
{
    "Version":   "2012-10-17",
  "Statement": ${jsonencode(var.statements)}
}
EOF
  description = <<-EOT
      indented   ${var.x}
        more
    EOT
  raw         = <<EOT
${var.only}
EOT
  name        = "p"
  list = [<<EOT
in a list
EOT
  , "after"]
}
