resource "aws_instance" "web" {
  ebs_block_device {
    device_name = "/dev/sda"
    volume_size = 10
  }
  lifecycle {
  create_before_destroy = true
  ignore_changes = [tags]
  }
}
