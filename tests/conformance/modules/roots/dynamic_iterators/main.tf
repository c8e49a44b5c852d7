# The cause behind terraform-aws-s3-bucket's "Reference to undeclared resource": references to a
# `dynamic` block's iterator (its label, or the name `iterator` gives), inside a function call,
# nested dynamic blocks, and a label that is also a resource type's name elsewhere.
module "bucket" {
  source = "./bucket"

  name       = "gp-iterators"
  versioning = { enabled = true }
  rules = [
    { id = "logs", prefix = "logs/", days = 30, transitions = [{ days = 10, class = "STANDARD_IA" }] },
    { id = "tmp", prefix = "tmp/", days = 1, transitions = [] },
  ]
}

output "bucket" {
  value = module.bucket.id
}
