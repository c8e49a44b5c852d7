a = <<A
  x
A
b = <<-B
    y
    B
cc = 1
