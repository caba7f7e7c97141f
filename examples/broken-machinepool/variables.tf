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
  type = number
}

# Not marked sensitive: the join token ends up in plan output.
variable "bootstrap_data" {
  type = string
}

variable "bootstrap_format" {
  type = string
}

# Two arguments on one line: Terraform refuses to parse this block.
variable "failure_domains" { type = list(string) default = [] }

variable "cluster_failure_domains" {
  type = list(string)
}

variable "kubernetes_version" {
  type    = string
  default = null
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

# The captf_ prefix is reserved for inputs the controller injects.
variable "captf_instance_type" {
  type    = string
  default = "m6i.large"
}

# A user variable without a default: any TerraformMachinePool that does not
# set it fails to apply.
variable "key_name" {
  type = string
}
