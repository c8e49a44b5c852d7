resource "a\u0041" "tab\there" {
}
