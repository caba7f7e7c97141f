locals {
  cluster_outputs = var.captf_cluster_outputs

  # The Machine's failure domain is an availability zone; without one the
  # first zone the cluster spans is used.
  availability_zone = var.failure_domain != null ? var.failure_domain : local.cluster_outputs.availability_zones[0]
  subnet_id         = local.cluster_outputs.private_subnet_ids[local.availability_zone]

  # Image names carry the plain Kubernetes version: drop a distro suffix
  # such as "+rke2r1" before the lookup.
  image_kubernetes_version = var.kubernetes_version == null ? null : split("+", var.kubernetes_version)[0]

  security_group_ids = var.control_plane ? [
    local.cluster_outputs.control_plane_security_group,
    local.cluster_outputs.node_security_group,
  ] : [local.cluster_outputs.node_security_group]

  api_target_group_arn = try(local.cluster_outputs.api_target_group_arn, null)

  tags = merge(var.captf_tags, {
    Name = var.machine_name
  })
}

data "aws_ami" "node" {
  most_recent = true
  owners      = [var.ami_owner]

  filter {
    name   = "name"
    values = ["${var.ami_name_prefix}${local.image_kubernetes_version}-*"]
  }

  filter {
    name   = "architecture"
    values = ["x86_64"]
  }

  lifecycle {
    precondition {
      condition     = var.kubernetes_version != null
      error_message = "The Machine has no spec.version; this module needs it to pick the node image."
    }
  }
}

resource "aws_instance" "this" {
  ami                    = data.aws_ami.node.id
  instance_type          = var.control_plane ? var.control_plane_instance_type : var.instance_type
  availability_zone      = local.availability_zone
  subnet_id              = local.subnet_id
  vpc_security_group_ids = local.security_group_ids
  iam_instance_profile   = var.control_plane ? local.cluster_outputs.control_plane_instance_profile : local.cluster_outputs.node_instance_profile
  key_name               = var.ssh_key_name

  # bootstrap_data is already base64: hand it to the base64 argument as is.
  user_data_base64 = var.bootstrap_data

  metadata_options {
    http_tokens                 = "required"
    http_put_response_hop_limit = 2
  }

  root_block_device {
    volume_type = "gp3"
    volume_size = var.root_volume_size
    encrypted   = true
    tags        = local.tags
  }

  tags = local.tags

  lifecycle {
    # A Machine is immutable: CAPI replaces it instead of editing it, so a
    # newer AMI published later must not show up as a planned change.
    ignore_changes = [ami]
  }
}

# Control-plane machines join the API load balancer before kubeadm runs on
# them (the attachment is created in the same apply as the instance).
resource "aws_lb_target_group_attachment" "api" {
  count = var.control_plane && local.api_target_group_arn != null ? 1 : 0

  target_group_arn = local.api_target_group_arn
  target_id        = aws_instance.this.id
  port             = try(local.cluster_outputs.api_server_port, 6443)
}
