{
  "terraform": {}
}
