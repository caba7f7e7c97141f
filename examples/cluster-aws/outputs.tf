output "control_plane_endpoint" {
  description = "The API endpoint: the caller's when given, else the load balancer's."
  value = var.control_plane_endpoint != null ? var.control_plane_endpoint : {
    host = aws_lb.api[0].dns_name
    port = 6443
  }
}

output "failure_domains" {
  description = "One failure domain per availability zone, all eligible for control-plane machines."
  value = [for zone in local.availability_zones : {
    name          = zone
    control_plane = true
    attributes = {
      private_subnet_id = aws_subnet.private[zone].id
      public_subnet_id  = aws_subnet.public[zone].id
    }
  }]
}

output "exports" {
  description = "Handed to machine and machinepool modules as captf_cluster_outputs."
  value = {
    region                         = var.region
    vpc_id                         = aws_vpc.this.id
    availability_zones             = local.availability_zones
    private_subnet_ids             = { for zone, subnet in aws_subnet.private : zone => subnet.id }
    public_subnet_ids              = { for zone, subnet in aws_subnet.public : zone => subnet.id }
    control_plane_security_group   = aws_security_group.control_plane.id
    node_security_group            = aws_security_group.nodes.id
    control_plane_instance_profile = aws_iam_instance_profile.control_plane.name
    node_instance_profile          = aws_iam_instance_profile.nodes.name
    # Control-plane machines register themselves here; null when the
    # endpoint is owned by someone else.
    api_target_group_arn = one(aws_lb_target_group.api[*].arn)
    api_server_port      = local.api_server_port
  }
}

output "health" {
  # Nothing here has a state worth watching once the apply succeeded: the
  # VPC, subnets and load balancer either exist or the apply failed.
  value = {
    state   = "running"
    healthy = true
    message = null
    reasons = []
  }
}
