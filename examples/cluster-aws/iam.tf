# Instance roles for the cloud-controller-manager (control plane) and the
# kubelet (every node). Machine modules use the instance profile names from
# `exports`.

data "aws_iam_policy_document" "ec2_assume_role" {
  statement {
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["ec2.amazonaws.com"]
    }
  }
}

data "aws_iam_policy_document" "control_plane" {
  statement {
    sid = "CloudControllerManager"
    actions = [
      "autoscaling:DescribeAutoScalingGroups",
      "autoscaling:DescribeLaunchConfigurations",
      "autoscaling:DescribeTags",
      "ec2:Describe*",
      "ec2:CreateSecurityGroup",
      "ec2:CreateTags",
      "ec2:CreateRoute",
      "ec2:DeleteRoute",
      "ec2:DeleteSecurityGroup",
      "ec2:AuthorizeSecurityGroupIngress",
      "ec2:RevokeSecurityGroupIngress",
      "ec2:ModifyInstanceAttribute",
      "elasticloadbalancing:*",
      "kms:DescribeKey",
    ]
    resources = ["*"]
  }
}

resource "aws_iam_role" "control_plane" {
  name_prefix        = "${substr(local.name, 0, 24)}-cp-"
  assume_role_policy = data.aws_iam_policy_document.ec2_assume_role.json

  tags = var.captf_tags
}

resource "aws_iam_role_policy" "control_plane" {
  name   = "cloud-controller-manager"
  role   = aws_iam_role.control_plane.id
  policy = data.aws_iam_policy_document.control_plane.json
}

resource "aws_iam_role" "nodes" {
  name_prefix        = "${substr(local.name, 0, 24)}-node-"
  assume_role_policy = data.aws_iam_policy_document.ec2_assume_role.json

  tags = var.captf_tags
}

resource "aws_iam_role_policy_attachment" "nodes" {
  for_each = toset([
    "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly",
    "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore",
  ])

  role       = aws_iam_role.nodes.name
  policy_arn = each.value
}

resource "aws_iam_instance_profile" "control_plane" {
  name_prefix = "${substr(local.name, 0, 24)}-cp-"
  role        = aws_iam_role.control_plane.name

  tags = var.captf_tags
}

resource "aws_iam_instance_profile" "nodes" {
  name_prefix = "${substr(local.name, 0, 24)}-node-"
  role        = aws_iam_role.nodes.name

  tags = var.captf_tags
}
