# Contract inputs (CAPTF v1alpha1, machine role)

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
  description = "The cluster module's exports (see ../aws-cluster)."
  type        = any
  default     = null
}

variable "captf_tags" {
  type = map(string)
}

variable "machine_name" {
  description = "Name of the owning CAPI Machine; becomes the instance Name tag."
  type        = string
}

variable "bootstrap_data" {
  description = "Base64 of the bootstrap Secret's value."
  type        = string
  sensitive   = true
}

variable "bootstrap_format" {
  type = string

  validation {
    condition     = contains(["cloud-config", "ignition"], var.bootstrap_format)
    error_message = "bootstrap_format must be cloud-config or ignition."
  }
}

variable "failure_domain" {
  description = "Availability zone the Machine asks for; null lets the module choose."
  type        = string
  default     = null
}

variable "kubernetes_version" {
  type    = string
  default = null
}

variable "control_plane" {
  type = bool
}

# Module variables

variable "region" {
  description = "Region to use when the cluster exports do not say."
  type        = string
  default     = "eu-west-1"
}

variable "instance_type" {
  type    = string
  default = "m6i.large"
}

variable "control_plane_instance_type" {
  type    = string
  default = "m6i.xlarge"
}

variable "root_volume_size" {
  description = "Root volume size in GiB."
  type        = number
  default     = 40
}

variable "ami_owner" {
  description = "Account that publishes the node images."
  type        = string
  default     = "258751437250"
}

variable "ami_name_prefix" {
  description = "Node images are named <prefix><kubernetes version>-<build>."
  type        = string
  default     = "capa-ami-ubuntu-24.04-"
}

variable "ssh_key_name" {
  type    = string
  default = null
}
