# The control-plane endpoint. A non-null `control_plane_endpoint` input means
# somebody else owns the endpoint, so nothing is created in that case.

locals {
  create_load_balancer = var.control_plane_endpoint == null

  # By convention the API server listens on cluster_network.api_server_port
  # when it is set, else on 6443 (the kubeadm default bind port).
  api_server_port = coalesce(try(var.cluster_network.api_server_port, null), 6443)
}

resource "aws_lb" "api" {
  count = local.create_load_balancer ? 1 : 0

  name_prefix        = "kapi-"
  load_balancer_type = "network"
  internal           = var.internal_load_balancer
  subnets            = [for zone in local.availability_zones : var.internal_load_balancer ? aws_subnet.private[zone].id : aws_subnet.public[zone].id]

  enable_cross_zone_load_balancing = true

  tags = merge(var.captf_tags, {
    Name = "${local.name}-api"
  })

  # CAPI never updates Cluster.spec.controlPlaneEndpoint once set: a new load
  # balancer (new DNS name) would strand every kubeconfig and certificate.
  lifecycle {
    prevent_destroy = true
  }
}

resource "aws_lb_target_group" "api" {
  count = local.create_load_balancer ? 1 : 0

  name_prefix = "kapi-"
  port        = local.api_server_port
  protocol    = "TCP"
  target_type = "instance"
  vpc_id      = aws_vpc.this.id

  # The first control-plane node reaches the API through this load balancer
  # while it is itself the only target.
  preserve_client_ip = "false"

  health_check {
    protocol            = "TCP"
    port                = "traffic-port"
    interval            = 10
    healthy_threshold   = 2
    unhealthy_threshold = 2
  }

  tags = merge(var.captf_tags, {
    Name = "${local.name}-api"
  })

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_lb_listener" "api" {
  count = local.create_load_balancer ? 1 : 0

  load_balancer_arn = aws_lb.api[0].arn
  port              = 6443
  protocol          = "TCP"

  default_action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.api[0].arn
  }

  tags = var.captf_tags
}
