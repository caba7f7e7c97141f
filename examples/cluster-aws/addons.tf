# In-cluster add-ons need a live workload API server: they wait for the
# control plane to come up (control_plane_initialized is latched true by the
# controller, so they are never torn down again by a later apply).

locals {
  addons_enabled = var.control_plane_initialized && var.install_cloud_controller_manager
  addons_count   = local.addons_enabled ? 1 : 0

  # The control-plane provider writes the admin kubeconfig to
  # "<cluster>-kubeconfig" in the cluster's namespace.
  workload_kubeconfig = local.addons_enabled ? yamldecode(data.kubernetes_secret.workload_kubeconfig[0].data["value"]) : null

  workload_api_server         = try(local.workload_kubeconfig.clusters[0].cluster.server, null)
  workload_ca_certificate     = try(base64decode(local.workload_kubeconfig.clusters[0].cluster["certificate-authority-data"]), null)
  workload_client_certificate = try(base64decode(local.workload_kubeconfig.users[0].user["client-certificate-data"]), null)
  workload_client_key         = try(base64decode(local.workload_kubeconfig.users[0].user["client-key-data"]), null)
}

data "kubernetes_secret" "workload_kubeconfig" {
  provider = kubernetes.management
  count    = local.addons_count

  metadata {
    name      = "${var.captf_cluster.name}-kubeconfig"
    namespace = var.captf_cluster.namespace
  }
}

resource "helm_release" "aws_cloud_controller_manager" {
  count = local.addons_count

  name       = "aws-cloud-controller-manager"
  namespace  = "kube-system"
  repository = "https://kubernetes.github.io/cloud-provider-aws"
  chart      = "aws-cloud-controller-manager"
  version    = var.cloud_controller_manager_chart_version

  values = [yamlencode({
    args = [
      "--v=2",
      "--cloud-provider=aws",
      "--configure-cloud-routes=false",
      "--cluster-name=${var.captf_cluster.name}",
    ]
    nodeSelector = {
      "node-role.kubernetes.io/control-plane" = ""
    }
  })]
}
