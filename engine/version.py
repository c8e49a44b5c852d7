"""The versions groundplan reports: the Terraform release whose language, files and messages
it implements (version checks, state and plan files, `version`), and its own."""

from __future__ import annotations

TERRAFORM_VERSION = "1.11.4"
GROUNDPLAN_VERSION = "0.1.0"
