# The bootstrap payload is opaque. To register node_labels with the kubelet
# without touching it, the payload and a kubelet drop-in travel as two parts
# of one multipart cloud-config message. Ignition payloads cannot be merged
# that way, so they are passed through untouched and must come without
# node labels (see the precondition on the launch template).

locals {
  # The kubelet refuses to self-assign labels in these namespaces
  # (NodeRestriction); leave them to the cluster's own controllers.
  kubelet_node_labels = {
    for key, value in var.node_labels : key => value
    if !can(regex("^(node-role\\.kubernetes\\.io|node-restriction\\.kubernetes\\.io)/", key))
  }

  kubelet_labels_flag = join(",", [for key in sort(keys(local.kubelet_node_labels)) : "${key}=${local.kubelet_node_labels[key]}"])

  merge_node_labels = var.bootstrap_format == "cloud-config" && length(local.kubelet_node_labels) > 0
}

data "cloudinit_config" "node" {
  count = local.merge_node_labels ? 1 : 0

  gzip          = false
  base64_encode = true

  part {
    content_type = "text/cloud-config"
    # Decoded only so that it travels as an unmodified text part.
    content = base64decode(var.bootstrap_data)
  }

  part {
    content_type = "text/cloud-config"
    merge_type   = "list(append)+dict(no_replace,recurse_list)+str()"
    content = yamlencode({
      write_files = [{
        path        = "/etc/systemd/system/kubelet.service.d/20-captf-node-labels.conf"
        permissions = "0644"
        content     = <<-EOT
          [Service]
          Environment="KUBELET_EXTRA_ARGS=--node-labels=${local.kubelet_labels_flag}"
        EOT
      }]
    })
  }
}

locals {
  # Both branches are base64, as the launch template expects.
  launch_user_data = local.merge_node_labels ? data.cloudinit_config.node[0].rendered : var.bootstrap_data
}
