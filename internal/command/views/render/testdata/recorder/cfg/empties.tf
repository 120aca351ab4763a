resource "tp_thing" "a" {
  name = ""
  tags = {}
  list = []
  set = []
  nlist = []
  nmap = {}
}
