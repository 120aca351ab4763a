resource "aws_security_group" "sg" {
name = "sg"
ingress {
from_port = 80
to_port = 80
    cidr_blocks = ["0.0.0.0/0"]
        dynamic "rule" {
      for_each = var.rules
      content {
      port = rule.value
        }
    }
}
  lifecycle {
create_before_destroy = true
  }
}

module "m" {
      source = "./m"
  providers = {
 aws = aws.west
  }
}
