provider "random" {}

provider "random" {
  alias = "other"
}

run "apply" {
  assert {
    condition     = length(random_string.alt.result) == 4
    error_message = "alias"
  }
}
