locals {
  name = "${var.captf_cluster.name}-${var.machinepool_name}"

  # Zones: the ones the MachinePool asks for, else every failure domain of
  # the cluster, else every zone the cluster has subnets in.
  availability_zones = sort(
    length(var.failure_domains) > 0 ? var.failure_domains : (
      length(var.cluster_failure_domains) > 0 ? var.cluster_failure_domains : keys(var.captf_cluster_outputs.private_subnet_ids)
    )
  )
  subnet_ids = [for zone in local.availability_zones : var.captf_cluster_outputs.private_subnet_ids[zone]]

  # Image lookups use the plain version; a "+rke2r1"-style suffix is dropped.
  image_kubernetes_version = split("+", var.kubernetes_version)[0]

  tags = merge(var.captf_tags, {
    Name                                              = local.name
    "kubernetes.io/cluster/${var.captf_cluster.name}" = "owned"
  })
}

data "aws_ami" "node" {
  most_recent = true
  owners      = [var.ami_owner]

  filter {
    name   = "name"
    values = ["${var.ami_name_prefix}${local.image_kubernetes_version}-*"]
  }
}

resource "aws_launch_template" "node" {
  name_prefix = "${local.name}-"
  image_id    = data.aws_ami.node.id

  # A new bootstrap token only creates a new template version: the group
  # follows $Latest, so new members get it and existing ones are left alone.
  user_data = local.launch_user_data

  update_default_version = true
  vpc_security_group_ids = [var.captf_cluster_outputs.node_security_group]

  iam_instance_profile {
    name = var.captf_cluster_outputs.node_instance_profile
  }

  metadata_options {
    http_tokens                 = "required"
    http_put_response_hop_limit = 2
  }

  block_device_mappings {
    device_name = "/dev/sda1"

    ebs {
      volume_type           = "gp3"
      volume_size           = var.root_volume_size
      encrypted             = true
      delete_on_termination = true
    }
  }

  dynamic "tag_specifications" {
    for_each = toset(["instance", "volume", "network-interface"])

    content {
      resource_type = tag_specifications.value
      tags          = local.tags
    }
  }

  tags = local.tags

  lifecycle {
    precondition {
      condition     = var.bootstrap_format == "cloud-config" || length(local.kubelet_node_labels) == 0
      error_message = "node_labels can only be rendered for cloud-config bootstrap data; remove the MachinePool template labels or use a cloud-config bootstrap provider."
    }
  }
}

resource "aws_autoscaling_group" "pool" {
  name_prefix         = "${local.name}-"
  vpc_zone_identifier = local.subnet_ids

  # With autoscaling off, min = max = replicas pins the group to the
  # requested size even though desired_capacity is ignored below.
  min_size         = var.autoscaling.enabled ? var.autoscaling.min : var.replicas
  max_size         = var.autoscaling.enabled ? var.autoscaling.max : var.replicas
  desired_capacity = var.replicas

  health_check_type         = "EC2"
  health_check_grace_period = 300
  capacity_rebalance        = true
  protect_from_scale_in     = false

  mixed_instances_policy {
    instances_distribution {
      on_demand_base_capacity                  = var.on_demand_base_capacity
      on_demand_percentage_above_base_capacity = 100
      spot_allocation_strategy                 = var.spot_allocation_strategy
    }

    launch_template {
      launch_template_specification {
        launch_template_id = aws_launch_template.node.id
        version            = "$Latest"
      }

      dynamic "override" {
        for_each = var.instance_types

        content {
          instance_type = override.value
        }
      }
    }
  }

  # A Kubernetes version change is the one thing that replaces members:
  # the version tag changes and the "tag" trigger starts a rolling refresh.
  instance_refresh {
    strategy = "Rolling"
    triggers = ["tag"]

    preferences {
      min_healthy_percentage = 90
      instance_warmup        = 120
    }
  }

  dynamic "tag" {
    for_each = merge(local.tags, {
      "captf.io/kubernetes-version" = var.kubernetes_version
    })

    content {
      key                 = tag.key
      value               = tag.value
      propagate_at_launch = true
    }
  }

  lifecycle {
    # The cloud (or the cluster autoscaler's policies) owns the desired
    # count when autoscaling is enabled.
    ignore_changes = [desired_capacity]
  }
}

# Every member that has not been terminated, whatever its health: CAPI
# deletes the Node of any provider ID that leaves the list. Read per zone so
# that each provider ID can carry its zone.
data "aws_instances" "members" {
  for_each = toset(local.availability_zones)

  instance_state_names = ["pending", "running", "stopping", "stopped"]

  filter {
    name   = "tag:aws:autoscaling:groupName"
    values = [aws_autoscaling_group.pool.name]
  }

  filter {
    name   = "availability-zone"
    values = [each.key]
  }
}
