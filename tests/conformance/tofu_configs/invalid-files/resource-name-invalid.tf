resource "test resource" "test_resource" {

}

data "test resource" "test_resource" {

}
