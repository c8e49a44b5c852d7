// top
resource "a" "b" {
  // inside
  x = 1 // t
  long = "v" // t2
}
