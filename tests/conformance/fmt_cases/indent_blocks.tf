resource "a" "b" {
x = 1
    nested {
  y = 2
        }
}
