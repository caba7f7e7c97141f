terraform {
  required_version = ">= 1.6.0"

  # The generated root owns state: a module must not declare a backend.
  backend "s3" {
    bucket = "team-tfstate"
    key    = "pools/workers.tfstate"
    region = "eu-west-1"
  }

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.80"
    }
  }
}

provider "aws" {
  region = var.captf_cluster_outputs.region
}
