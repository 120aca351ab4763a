resource "aws_instance" "web" {
  ami = "x"
}
resource "x" "y" {
}
data "aws_ami" "ubuntu" {}
provider "aws" {
  region = "us-east-1"
}
