locals {
  members = flatten([
    for zone, found in data.aws_instances.members : [
      for index, id in found.ids : {
        id         = id
        zone       = zone
        private_ip = found.private_ips[index]
      }
    ]
  ])

  desired_capacity = aws_autoscaling_group.pool.desired_capacity
  at_capacity      = length(local.members) >= local.desired_capacity
}

output "provider_id" {
  value = aws_autoscaling_group.pool.arn
}

output "provider_id_list" {
  value = sort([for member in local.members : "aws:///${member.zone}/${member.id}"])
}

output "replicas" {
  # What the group wants right now (read back on every refresh), not what
  # was asked for: the autoscaler may have moved it.
  value = local.desired_capacity
}

output "instances" {
  value = [for member in local.members : {
    provider_id    = "aws:///${member.zone}/${member.id}"
    instance_id    = member.id
    failure_domain = member.zone
    addresses = [
      { type = "InternalIP", address = member.private_ip },
    ]
  }]
}

output "health" {
  value = {
    state   = "running"
    healthy = local.at_capacity
    message = local.at_capacity ? null : "${length(local.members)} of ${local.desired_capacity} instances are up"
    reasons = local.at_capacity ? [] : ["WaitingForCapacity"]
  }
}
