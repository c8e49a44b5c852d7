# As the terraform-aws-iam README's examples (v4.24.1): iam-assumable-role, iam-policy, iam-user
# and iam-group-with-policies.
module "iam_assumable_role" {
  source = "../../iam-assumable-role"

  trusted_role_arns = [
    "arn:aws:iam::307990089504:root",
    "arn:aws:iam::835367859851:user/anton",
  ]

  create_role = true

  role_name         = "gp-custom"
  role_requires_mfa = true

  custom_role_policy_arns = [
    module.iam_policy.arn,
  ]
  number_of_custom_role_policy_arns = 1
}

module "iam_policy" {
  source = "../../iam-policy"

  name        = "gp-example"
  path        = "/"
  description = "My example policy"

  policy = <<EOT
{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Action": [
        "ec2:Describe*"
      ],
      "Effect": "Allow",
      "Resource": "*"
    }
  ]
}
EOT
}

module "iam_user" {
  source = "../../iam-user"

  name          = "gp-vasya.pupkin"
  force_destroy = true

  create_iam_user_login_profile = false
  create_iam_access_key         = false
}

module "iam_group_with_policies" {
  source = "../../iam-group-with-policies"

  name = "gp-superadmins"

  group_users = [
    module.iam_user.iam_user_name,
  ]

  attach_iam_self_management_policy = true

  custom_group_policy_arns = [
    module.iam_policy.arn,
  ]
}

output "iam_role_arn" {
  value = module.iam_assumable_role.iam_role_arn
}

output "iam_user_arn" {
  value = module.iam_user.iam_user_arn
}
