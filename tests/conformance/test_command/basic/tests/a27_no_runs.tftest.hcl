variables {
  name = "unused"
}
