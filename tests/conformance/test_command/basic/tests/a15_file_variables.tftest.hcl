variables {
  name  = "fromfile"
  limit = 1
}

run "one" {
  assert {
    condition     = output.o == "fromfile"
    error_message = "file variable not used"
  }
}

run "override" {
  variables {
    name = "fromrun"
  }
  assert {
    condition     = output.o == "fromrun" && output.checked == 1
    error_message = "run variable not used"
  }
}
