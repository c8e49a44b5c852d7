variable "project" {
  type        = string
  description = "Short name of the project; used as a prefix everywhere."
  default     = "groundplan"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{2,20}$", var.project))
    error_message = "The project name must be 3-21 lowercase letters, digits or dashes, starting with a letter."
  }
}

variable "environment" {
  type    = string
  default = "dev"
}

variable "instance_count" {
  type    = number
  default = 3
}

variable "tags" {
  type = map(string)
  default = {
    owner = "platform-team"
    cost  = "shared"
  }
}

variable "db_password" {
  type      = string
  default   = "correct-horse-battery-staple"
  sensitive = true
}
