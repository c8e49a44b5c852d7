data "null_resource" "foo_${interpolations_invalid_here}" {
}
