variable "names" {
  type = list(string)
}

resource "aws_sqs_queue" "counted" {
  count = length(var.names)
  name  = var.names[count.index]
}

resource "aws_sqs_queue" "keyed" {
  for_each = toset(var.names)
  name     = "${each.key}-keyed"
}

resource "aws_sqs_queue" "single" {
  name = "gp-destroy-single"
}

resource "aws_sqs_queue" "none" {
  count = 0
  name  = "gp-destroy-none"
}

output "first_id" {
  value = concat(aws_sqs_queue.counted.*.id, [""])[0]
}

output "ids" {
  value = concat(aws_sqs_queue.counted.*.id, [for q in values(aws_sqs_queue.keyed) : q.id])
}

output "single_arn" {
  value = aws_sqs_queue.single.arn
}

output "none_id" {
  value = element(concat(aws_sqs_queue.none.*.id, [""]), 0)
}

output "keyed_names" {
  value = length(values(aws_sqs_queue.keyed)) > 0 ? keys(aws_sqs_queue.keyed) : []
}
