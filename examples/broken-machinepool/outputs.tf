output "provider_id" {
  value = aws_autoscaling_group.pool.arn
}

# Unsorted, and only running members: CAPI deletes the Node of every
# instance that is still starting.
output "provider_id_list" {
  value = [for id, member in data.aws_instance.member : "aws:///${member.availability_zone}/${id}" if member.instance_state == "running"]
}

# Echoes the input instead of reading the group's desired capacity back.
output "replicas" {
  value = var.replicas
}

output "instances" {
  value = [for id, member in data.aws_instance.member : {
    provider_id = "aws:///${member.availability_zone}/${id}"
    instance_id = id
    state       = member.instance_state == "running" ? "running" : "pending"
  }]
}

# "ok" is not a health state the controller knows (pending, running,
# degraded, stopped, terminated, unknown): OutputsInvalid.
output "health" {
  value = {
    state   = "ok"
    healthy = true
  }
}
