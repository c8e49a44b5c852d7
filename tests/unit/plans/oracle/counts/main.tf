resource "terraform_data" "c" {
  count = 1
  input = count.index
}
resource "terraform_data" "e" {
  for_each = toset(["b", "c"])
  input = each.key
}
