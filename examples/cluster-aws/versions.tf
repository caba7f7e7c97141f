terraform {
  required_version = ">= 1.6.0"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.80"
    }
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = "~> 2.35"
    }
    helm = {
      source  = "hashicorp/helm"
      version = "~> 2.17"
    }
  }
}

# Credentials come from the TerraformCluster's identity (environment and
# web-identity token mounted by the runner); nothing secret lives here.
provider "aws" {
  region = var.region

  default_tags {
    tags = var.captf_tags
  }
}

# The management cluster the apply Job runs in (in-cluster service account):
# used only to read the workload kubeconfig Secret that the control-plane
# provider writes once the API server is up.
provider "kubernetes" {
  alias = "management"
}

provider "helm" {
  kubernetes {
    host                   = local.workload_api_server
    cluster_ca_certificate = local.workload_ca_certificate
    client_certificate     = local.workload_client_certificate
    client_key             = local.workload_client_key
  }
}
