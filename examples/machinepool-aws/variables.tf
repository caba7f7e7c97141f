# Contract inputs (CAPTF v1alpha1, machinepool role)

variable "captf_contract" {
  type = string
}

variable "captf_cluster" {
  type = object({
    name      = string
    namespace = string
  })
}

variable "captf_object" {
  type = object({
    kind      = string
    name      = string
    namespace = string
  })
}

variable "captf_cluster_outputs" {
  type    = any
  default = null
}

variable "captf_tags" {
  type = map(string)
}

variable "machinepool_name" {
  type = string
}

variable "replicas" {
  description = "Desired capacity (already clamped into [min, max] when autoscaling)."
  type        = number
}

variable "bootstrap_data" {
  type      = string
  sensitive = true
}

variable "bootstrap_format" {
  type = string
}

variable "failure_domains" {
  type = list(string)
}

variable "cluster_failure_domains" {
  type = list(string)
}

variable "kubernetes_version" {
  description = "MachinePool.spec.template.spec.version; this module needs it to pick the node image."
  type        = string
  default     = null

  validation {
    condition     = can(regex("^v?[0-9]+\\.[0-9]+\\.[0-9]+", var.kubernetes_version))
    error_message = "Set spec.template.spec.version on the MachinePool (for example v1.31.4)."
  }
}

variable "node_labels" {
  type = map(string)
}

variable "autoscaling" {
  type = object({
    enabled = bool
    min     = number
    max     = number
  })
}

# Module variables

variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "instance_types" {
  description = "Instance types, in order of preference."
  type        = list(string)
  default     = ["m6i.large", "m6a.large", "m5.large"]
}

variable "on_demand_base_capacity" {
  type    = number
  default = 0
}

variable "spot_allocation_strategy" {
  type    = string
  default = "price-capacity-optimized"
}

variable "root_volume_size" {
  type    = number
  default = 50
}

variable "ami_owner" {
  type    = string
  default = "258751437250"
}

variable "ami_name_prefix" {
  type    = string
  default = "capa-ami-ubuntu-24.04-"
}
