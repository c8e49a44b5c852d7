# The cause behind terraform-aws-vpc's destroy failing in an output: while everything is being
# destroyed, resources with count are empty tuples and with for_each empty objects, so outputs
# in the style `concat(x.this.*.id, [""])[0]` evaluate (terraform's evaluator), and a root
# output built from them is deleted.
module "queues" {
  source = "./queues"

  names = ["gp-destroy-a", "gp-destroy-b"]
}

output "first_queue" {
  value = module.queues.first_id
}

output "all_queues" {
  value = module.queues.ids
}
