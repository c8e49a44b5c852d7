varyable "whoops" {
}
