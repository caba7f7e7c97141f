# Control-plane and node security groups. Machine modules attach them to
# their instances through the ids published in `exports`.

resource "aws_security_group" "control_plane" {
  name_prefix = "${local.name}-control-plane-"
  description = "Kubernetes control-plane nodes of ${local.name}"
  vpc_id      = aws_vpc.this.id

  tags = merge(var.captf_tags, {
    Name = "${local.name}-control-plane"
  })

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_security_group" "nodes" {
  name_prefix = "${local.name}-nodes-"
  description = "Every Kubernetes node of ${local.name}"
  vpc_id      = aws_vpc.this.id

  tags = merge(var.captf_tags, {
    Name = "${local.name}-nodes"
  })

  lifecycle {
    create_before_destroy = true
  }
}

# API server: from the load balancer (NLB preserves client addresses, so the
# allowed client ranges plus the VPC for hairpin and health checks).
resource "aws_vpc_security_group_ingress_rule" "api_from_clients" {
  for_each = toset(concat(var.api_allowed_cidrs, [var.vpc_cidr]))

  security_group_id = aws_security_group.control_plane.id
  description       = "Kubernetes API"
  ip_protocol       = "tcp"
  from_port         = local.api_server_port
  to_port           = local.api_server_port
  cidr_ipv4         = each.value

  tags = var.captf_tags
}

resource "aws_vpc_security_group_ingress_rule" "etcd" {
  security_group_id            = aws_security_group.control_plane.id
  description                  = "etcd peer and client traffic between control-plane nodes"
  ip_protocol                  = "tcp"
  from_port                    = 2379
  to_port                      = 2380
  referenced_security_group_id = aws_security_group.control_plane.id

  tags = var.captf_tags
}

resource "aws_vpc_security_group_ingress_rule" "kubelet" {
  security_group_id            = aws_security_group.nodes.id
  description                  = "kubelet API from the control plane"
  ip_protocol                  = "tcp"
  from_port                    = 10250
  to_port                      = 10250
  referenced_security_group_id = aws_security_group.control_plane.id

  tags = var.captf_tags
}

resource "aws_vpc_security_group_ingress_rule" "node_to_node" {
  security_group_id            = aws_security_group.nodes.id
  description                  = "Pod network and node-to-node traffic"
  ip_protocol                  = "-1"
  referenced_security_group_id = aws_security_group.nodes.id

  tags = var.captf_tags
}

resource "aws_vpc_security_group_egress_rule" "all" {
  for_each = {
    control_plane = aws_security_group.control_plane.id
    nodes         = aws_security_group.nodes.id
  }

  security_group_id = each.value
  description       = "Outbound traffic"
  ip_protocol       = "-1"
  cidr_ipv4         = "0.0.0.0/0"

  tags = var.captf_tags
}
