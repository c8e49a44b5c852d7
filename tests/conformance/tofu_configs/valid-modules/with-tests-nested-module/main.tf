
resource "test_resource" "resource" {}
