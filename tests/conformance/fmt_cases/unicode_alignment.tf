locals {
  α = 1
  ββ = 2
  long = 3
}
