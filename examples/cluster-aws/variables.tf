# ---------------------------------------------------------------------------
# Contract inputs (CAPTF v1alpha1, cluster role)
# ---------------------------------------------------------------------------

variable "captf_contract" {
  description = "Contract version the controller rendered the inputs for."
  type        = string
}

variable "captf_cluster" {
  description = "The owning CAPI Cluster."
  type = object({
    name      = string
    namespace = string
  })
}

variable "captf_object" {
  description = "The TerraformCluster this workspace belongs to."
  type = object({
    kind      = string
    name      = string
    namespace = string
  })
}

# Not passed to the cluster role; declared with a default so the same
# variables file can be shared with the machine modules.
variable "captf_cluster_outputs" {
  type    = any
  default = null
}

variable "captf_tags" {
  description = "Tags the controller requires on every cloud resource."
  type        = map(string)
}

variable "control_plane_endpoint" {
  description = "An endpoint this module does not own; when set, no load balancer is created."
  type = object({
    host = string
    port = number
  })
  default = null
}

variable "kubernetes_version" {
  type    = string
  default = null
}

variable "control_plane_initialized" {
  description = "True once the workload control plane has come up (latched by the controller)."
  type        = bool
}

variable "cluster_network" {
  type = object({
    pods            = list(string)
    services        = list(string)
    service_domain  = string
    api_server_port = number
  })
  default = null
}

# ---------------------------------------------------------------------------
# Module variables (spec.variables)
# ---------------------------------------------------------------------------

variable "region" {
  description = "AWS region of the cluster."
  type        = string
  default     = "eu-west-1"
}

variable "vpc_cidr" {
  description = "CIDR block of the cluster VPC; split into one public and one private subnet per zone."
  type        = string
  default     = "10.42.0.0/16"
}

variable "availability_zone_count" {
  description = "How many availability zones to spread subnets (and failure domains) across."
  type        = number
  default     = 3

  validation {
    condition     = var.availability_zone_count >= 1 && var.availability_zone_count <= 6
    error_message = "availability_zone_count must be between 1 and 6."
  }
}

variable "api_allowed_cidrs" {
  description = "Client CIDRs allowed to reach the Kubernetes API through the load balancer."
  type        = list(string)
  default     = ["0.0.0.0/0"]
}

variable "internal_load_balancer" {
  description = "Create the API load balancer in the private subnets only."
  type        = bool
  default     = false
}

variable "install_cloud_controller_manager" {
  description = "Install the AWS cloud-controller-manager once the control plane is up."
  type        = bool
  default     = true
}

variable "cloud_controller_manager_chart_version" {
  type    = string
  default = "0.0.8"
}
