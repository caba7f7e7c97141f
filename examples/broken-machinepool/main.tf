locals {
  name = "${var.captf_cluster.name}-${var.machinepool_name}"
}

data "aws_ami" "node" {
  most_recent = true
  owners      = ["258751437250"]

  filter {
    name = "name"
    # "v1.31.4+rke2r1" finds no image: the distro suffix is not stripped.
    values = ["capa-ami-ubuntu-24.04-${var.kubernetes_version}-*"]
  }
}

resource "aws_launch_template" "node" {
  name_prefix   = "${local.name}-"
  image_id      = data.aws_ami.node.id
  instance_type = var.captf_instance_type
  key_name      = var.key_name

  # bootstrap_data is already base64: encoding it again breaks cloud-init.
  user_data = base64encode(var.bootstrap_data)

  tags = var.captf_tags
}

# Keeps the last bootstrap payload so that the group can be "refreshed" when
# it changes: every token rotation would replace every instance.
resource "terraform_data" "bootstrap" {
  input = var.bootstrap_data
}

resource "aws_autoscaling_group" "pool" {
  name_prefix         = "${local.name}-"
  vpc_zone_identifier = values(var.captf_cluster_outputs.private_subnet_ids)

  # With autoscaling disabled both are 0: the group scales to nothing.
  min_size         = var.autoscaling.min
  max_size         = var.autoscaling.max
  desired_capacity = var.replicas

  launch_template {
    id      = aws_launch_template.node.id
    version = aws_launch_template.node.latest_version
  }

  tag {
    key                 = "captf.io/applied-at"
    value               = timestamp()
    propagate_at_launch = false
  }

  # No ignore_changes = [desired_capacity]: every scale-out by the cloud
  # shows up as drift and the next apply undoes it.
  lifecycle {
    replace_triggered_by = [terraform_data.bootstrap]
  }
}

data "aws_instances" "members" {
  instance_tags = {
    "aws:autoscaling:groupName" = aws_autoscaling_group.pool.name
  }
  instance_state_names = ["pending", "running", "stopping", "stopped"]
}

data "aws_instance" "member" {
  for_each    = toset(data.aws_instances.members.ids)
  instance_id = each.value
}
