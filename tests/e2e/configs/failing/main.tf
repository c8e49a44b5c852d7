resource "terraform_data" "base" {
  input = "base"
}

resource "terraform_data" "ok" {
  count = 2
  input = "${terraform_data.base.output}-${count.index}"
}

resource "terraform_data" "broken" {
  input = terraform_data.base.output

  provisioner "local-exec" {
    command = "echo failing on purpose >&2; exit 3"
  }
}

resource "terraform_data" "after_broken" {
  input = terraform_data.broken.output
}
