"""The lock file's name, importable without the lock-file parser."""

LOCK_FILE = ".terraform.lock.hcl"
