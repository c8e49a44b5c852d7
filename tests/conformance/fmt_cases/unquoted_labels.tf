resource aws_instance web {
  ami = "x"
}
module m {
  source = "./m"
}
