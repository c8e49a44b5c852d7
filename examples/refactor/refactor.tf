# The second revision of examples/resources (make demo copies this directory over it after
# the first apply): `terraform_data.network` is renamed to `terraform_data.vpc`, and an object
# created outside this configuration is adopted. Neither is replaced: the plan shows a move
# and an import, and applying it only rewrites the state.

moved {
  from = terraform_data.network
  to   = terraform_data.vpc
}

import {
  to = terraform_data.dns
  id = "dns-zone-0001"
}

resource "terraform_data" "dns" {}

output "dns_id" {
  value = terraform_data.dns.id
}
