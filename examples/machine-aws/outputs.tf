locals {
  # EC2 instance states mapped onto the contract's health states.
  health_states = {
    "pending"       = "pending"
    "running"       = "running"
    "stopping"      = "stopped"
    "stopped"       = "stopped"
    "shutting-down" = "terminated"
    "terminated"    = "terminated"
  }
  health_state = lookup(local.health_states, aws_instance.this.instance_state, "unknown")
}

output "provider_id" {
  # The format the AWS cloud-controller-manager writes to Node.spec.providerID.
  value = "aws:///${aws_instance.this.availability_zone}/${aws_instance.this.id}"
}

output "addresses" {
  value = concat(
    [
      { type = "InternalIP", address = aws_instance.this.private_ip },
      { type = "InternalDNS", address = aws_instance.this.private_dns },
    ],
    aws_instance.this.public_ip != "" ? [{ type = "ExternalIP", address = aws_instance.this.public_ip }] : [],
    aws_instance.this.public_dns != "" ? [{ type = "ExternalDNS", address = aws_instance.this.public_dns }] : [],
  )
}

output "failure_domain" {
  # Equals var.failure_domain whenever that is set: the instance is placed there.
  value = aws_instance.this.availability_zone
}

output "interruptible" {
  value = false
}

output "health" {
  value = {
    state   = local.health_state
    healthy = local.health_state == "running"
    message = local.health_state == "running" ? null : "EC2 instance ${aws_instance.this.id} is ${aws_instance.this.instance_state}"
    reasons = local.health_state == "running" ? [] : ["InstanceState=${aws_instance.this.instance_state}"]
  }
}
