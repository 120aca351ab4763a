region="us-east-1"
instance_count    =    3
name = "${var_not_allowed_but_formatted}"
tags = {
Environment = "dev"
    Owner="team"
}
zones = [ "a" , "b",  "c" ]
