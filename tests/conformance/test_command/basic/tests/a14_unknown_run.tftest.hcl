run "uses_missing" {
  variables {
    name = run.nowhere.o
  }
}
