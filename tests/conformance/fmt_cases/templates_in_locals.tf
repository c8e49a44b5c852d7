locals {
x = <<-EOT
    %{ for k, v in var.m ~}
    ${k} = ${ v }
    %{ endfor ~}
    EOT
y = templatefile("f.tpl", {
a = 1
bb = 2
})
z = [
"${join(",", [
for x in var.l : x
])}",
]
w = merge(
  var.a,   # first
  var.bbb, # second
)
v = {
   for k, v in var.m :
   k => v
   if v != null
}
}
