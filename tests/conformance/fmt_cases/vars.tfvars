region="us-east-1"
instance_count  =  2
tags = {
Name = "x"
  Env="prod"
}
name = "${var.x}"
