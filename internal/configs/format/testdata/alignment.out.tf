resource "aws_instance" "web" {
  ami           = "ami-123456"
  instance_type = "t2.micro"
  count         = 2
  subnet_id     = "subnet-1"

  tags_all   = {}
  monitoring = true
  # a comment breaks nothing
  ebs_optimized = false
  multi = [
    1,
  ]
  after_multi = 1
  x           = 1
}
