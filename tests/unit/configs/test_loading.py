"""Loading: the typed model built from configuration files, module trees, overrides, JSON."""

from __future__ import annotations

import os
from pathlib import Path

from engine.configs import (
    DATA,
    MANAGED,
    PARSE_HCL,
    PARSE_LITERAL,
    Config,
    ProviderAddr,
    load_config,
    load_module,
    module_files,
    parse_provider_source,
)
from engine.configs.provider_reqs import provider_requirements
from engine.diags import Diagnostics
from engine.hcl.ast import traversal_str
from engine.values import NUMBER, STRING, ListType, ObjectType, Value
from tests.modules_init import init_modules
from tests.unit.configs.helpers import load_here, summarize, validate_here, write

MAIN = """
terraform {
  required_version = ">= 1.5, < 2.0"
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      version               = "~> 5.0"
      configuration_aliases = [aws.west]
    }
    corp = {
      source = "example.com/Corp/Thing"
    }
  }
  backend "s3" {
    bucket = "b"
  }
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = "x"
    }
  }
}

provider "aws" {
  region = "us-east-1"
}

provider "aws" {
  alias  = "east"
  region = "us-east-2"
}

variable "names" {
  type        = list(string)
  default     = ["a"]
  description = "the names"
  sensitive   = true
  nullable    = false
  validation {
    condition     = length(var.names) > 0
    error_message = "need names"
  }
}

variable "n" {
  type = number
}

variable "obj" {
  type    = object({a = optional(string, "dflt"), b = number})
  default = {b = 1}
}

locals {
  first = var.names[0]
  two   = 2
}

resource "aws_instance" "web" {
  count      = 2
  provider   = aws.east
  ami        = "ami-1"
  depends_on = [aws_instance.db, module.child]

  tags = {
    Name = local.first
  }

  ebs_block_device {
    device_name = "x"
  }

  dynamic "ingress" {
    for_each = var.names
    content {
      port = ingress.value
    }
  }

  lifecycle {
    create_before_destroy = true
    prevent_destroy       = false
    ignore_changes        = [tags["Name"], ami]
    replace_triggered_by  = [aws_instance.db.id]
    precondition {
      condition     = var.n > 0
      error_message = "n must be positive"
    }
    postcondition {
      condition     = self.ami != ""
      error_message = "ami"
    }
  }

  connection {
    host = self.public_ip
  }

  provisioner "local-exec" {
    command    = "echo ${self.id}"
    when       = destroy
    on_failure = continue
  }

  provisioner "remote-exec" {
    inline = ["x"]
  }
}

resource "aws_instance" "db" {
  for_each = toset(var.names)
  ami      = each.key
  lifecycle {
    ignore_changes = all
  }
}

data "aws_ami" "ubuntu" {
  most_recent = true
}

module "child" {
  source = "./modules/child"
  input  = local.two
  providers = {
    aws = aws.east
  }
}

output "ids" {
  value       = aws_instance.web[*].id
  description = "ids"
  sensitive   = true
  depends_on  = [aws_instance.db]
}

moved {
  from = aws_instance.old
  to   = aws_instance.web
}

import {
  to = aws_instance.db["a"]
  id = "i-123"
}

removed {
  from = aws_instance.gone
  lifecycle {
    destroy = false
  }
}

check "health" {
  data "aws_ami" "probe" {
    owners = ["self"]
  }
  assert {
    condition     = data.aws_ami.probe.id != ""
    error_message = "no ami"
  }
}
"""

CHILD = """
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}

variable "input" {
  type = number
}

output "doubled" {
  value = var.input * 2
}

module "grandchild" {
  source = "../grandchild"
}
"""

GRANDCHILD = """
output "leaf" {
  value = "leaf"
}
"""


def _full(tmp_path: Path) -> Path:
    return write(
        tmp_path,
        {
            "main.tf": MAIN,
            "modules/child/main.tf": CHILD,
            "modules/grandchild/main.tf": GRANDCHILD,
        },
    )


def test_full_module_loads_without_diagnostics(tmp_path: Path) -> None:
    _full(tmp_path)
    assert summarize(validate_here(tmp_path)) == []


def test_terraform_block(tmp_path: Path) -> None:
    config, _ = load_here(_full(tmp_path))
    m = config.module
    assert [v.text for v in m.required_versions] == [">= 1.5, < 2.0"]
    assert m.required_versions[0].allows("1.11.4")
    assert not m.required_versions[0].allows("2.0.0")
    aws = m.required_providers["aws"]
    assert aws.addr == ProviderAddr("registry.terraform.io", "hashicorp", "aws")
    assert str(aws.addr) == "registry.terraform.io/hashicorp/aws"
    assert aws.requirement is not None and aws.requirement.text == "~> 5.0"
    assert aws.requirement.allows("5.9.1") and not aws.requirement.allows("6.0.0")
    assert [a for a, _ in aws.configuration_aliases] == ["west"]
    assert str(m.required_providers["corp"].addr) == "example.com/corp/thing"
    assert m.backend is not None and m.backend.type == "s3"
    assert "bucket" in m.backend.config.attributes
    assert m.encryption is not None
    assert [b.type for b in m.encryption.body.blocks] == ["key_provider"]


def test_providers_and_variables(tmp_path: Path) -> None:
    config, _ = load_here(_full(tmp_path))
    m = config.module
    assert sorted(m.provider_configs) == ["aws", "aws.east"]
    assert m.provider_configs["aws.east"].alias == "east"
    assert "alias" not in m.provider_configs["aws.east"].config.attributes
    names = m.variables["names"]
    assert names.type == ListType(STRING)
    assert names.default == Value(ListType(STRING), [Value(STRING, "a")])
    assert names.description == "the names" and names.sensitive and not names.nullable
    assert names.parsing_mode == PARSE_HCL
    assert len(names.validations) == 1
    assert names.validations[0].error_message is not None
    n = m.variables["n"]
    assert n.required and n.type == NUMBER and n.parsing_mode == PARSE_LITERAL
    obj = m.variables["obj"]
    assert isinstance(obj.type, ObjectType)
    assert obj.default is not None and obj.default.v["a"] == Value(STRING, "dflt")
    assert list(m.locals) == ["first", "two"]
    assert m.locals["first"].decl_range.start.line == MAIN.splitlines().index("  first = var.names[0]") + 1


def test_resource_model(tmp_path: Path) -> None:
    config, _ = load_here(_full(tmp_path))
    m = config.module
    assert sorted(m.managed_resources) == ["aws_instance.db", "aws_instance.web"]
    assert sorted(m.data_resources) == ["data.aws_ami.probe", "data.aws_ami.ubuntu"]
    web = m.managed_resources["aws_instance.web"]
    assert web.mode == MANAGED and web.count is not None and web.for_each is None
    assert str(web.provider) == "aws.east"
    assert m.resource_provider(web) == ProviderAddr("registry.terraform.io", "hashicorp", "aws")
    assert [traversal_str(t) for t in web.depends_on] == ["aws_instance.db", "module.child"]
    assert sorted(web.config.attributes) == ["ami", "tags"]
    assert [b.type for b in web.config.blocks] == ["ebs_block_device", "dynamic"]
    assert [b.labels for b in web.dynamic_blocks()] == [["ingress"]]
    lc = web.lifecycle
    assert lc.create_before_destroy and lc.create_before_destroy_set
    assert not lc.prevent_destroy and lc.prevent_destroy_set
    assert [traversal_str(t) for t in lc.ignore_changes] == ['tags["Name"]', "ami"]
    assert len(lc.replace_triggered_by) == 1
    assert len(web.preconditions) == 1 and len(web.postconditions) == 1
    assert web.connection is not None and "host" in web.connection.config.attributes
    assert [(p.type, p.when, p.on_failure) for p in web.provisioners] == [
        ("local-exec", "destroy", "continue"),
        ("remote-exec", "create", "fail"),
    ]
    assert "when" not in web.provisioners[0].config.attributes
    db = m.managed_resources["aws_instance.db"]
    assert db.for_each is not None and db.lifecycle.ignore_all_changes
    ubuntu = m.data_resources["data.aws_ami.ubuntu"]
    assert ubuntu.mode == DATA and ubuntu.key == "data.aws_ami.ubuntu"
    assert m.data_resources["data.aws_ami.probe"].container == "health"


def test_other_blocks(tmp_path: Path) -> None:
    config, _ = load_here(_full(tmp_path))
    m = config.module
    call = m.module_calls["child"]
    assert call.source == "./modules/child" and call.is_local
    assert list(call.config.attributes) == ["input"]
    assert [(str(p.in_child), str(p.in_parent)) for p in call.providers] == [("aws", "aws.east")]
    out = m.outputs["ids"]
    assert out.sensitive and out.description == "ids" and out.expr is not None
    assert [traversal_str(t) for t in out.depends_on] == ["aws_instance.db"]
    assert [(mv.from_.text, mv.to.text) for mv in m.moved if mv.from_ and mv.to] == [
        ("aws_instance.old", "aws_instance.web")
    ]
    assert m.imports[0].to_key == 'aws_instance.db["a"]' and m.imports[0].id is not None
    assert m.removed[0].from_ is not None and m.removed[0].from_.text == "aws_instance.gone"
    assert m.removed[0].destroy is False and m.removed[0].destroy_set
    chk = m.checks["health"]
    assert chk.data_resource is not None and len(chk.asserts) == 1


def test_module_tree(tmp_path: Path) -> None:
    config, diags = load_here(_full(tmp_path))
    assert not diags.has_errors
    assert config.module_paths() == [(), ("child",), ("child", "grandchild")]
    child = config.children["child"]
    assert child.source_dir == "modules/child"
    assert child.call is config.module.module_calls["child"]
    grand = config.descendant(("child", "grandchild"))
    assert grand is not None and grand.path_str == "module.child.module.grandchild"
    assert grand.source_dir == "modules/grandchild" and grand.root is config
    assert list(grand.module.outputs) == ["leaf"]
    assert grand.module.outputs["leaf"].decl_range.filename == "modules/grandchild/main.tf"


def test_remote_module_not_installed(tmp_path: Path) -> None:
    write(tmp_path, {"main.tf": 'module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "5.0.0"\n}\n'})
    config, diags = load_here(tmp_path)
    assert summarize(diags) == [
        (
            "error",
            "Module not installed",
            'This module is not yet installed. Run "groundplan init" to install all modules '
            "required by this configuration.",
            1,
            1,
        )
    ]
    assert config.children == {}
    assert config.module.module_calls["vpc"].version is not None


def test_installed_module_from_manifest(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "main.tf": 'module "vpc" {\n  source = "terraform-aws-modules/vpc/aws"\n}\n',
            ".terraform/modules/modules.json": '{"Modules":[{"Key":"","Source":"","Dir":"."},'
            '{"Key":"vpc","Source":"terraform-aws-modules/vpc/aws",'
            '"Dir":".terraform/modules/vpc"}]}',
            ".terraform/modules/vpc/main.tf": 'output "id" {\n  value = "x"\n}\n',
        },
    )
    config, diags = load_here(tmp_path)
    assert not diags
    assert list(config.children["vpc"].module.outputs) == ["id"]


def test_files_in_lexical_order_and_ignored_files(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "b.tf": 'variable "b" {}\n',
            "a.tf": 'variable "a" {}\n',
            "c.tf.json": '{"variable": {"c": {}}}',
            ".hidden.tf": "this is not parsed",
            "backup.tf~": "neither is this",
            "notes.txt": "nor this",
            "override.tf": 'variable "a" {\n  default = 1\n}\n',
            "x_override.tf": 'variable "b" {\n  default = 2\n}\n',
        },
    )
    primary, overrides, diags = module_files(str(tmp_path))
    assert [Path(p).name for p in primary] == ["a.tf", "b.tf", "c.tf.json"]
    assert [Path(p).name for p in overrides] == ["override.tf", "x_override.tf"]
    mod, diags = load_module(str(tmp_path))
    assert not diags
    assert list(mod.variables) == ["a", "b", "c"]
    assert mod.variables["a"].default == Value(NUMBER, 1)
    assert mod.variables["b"].default == Value(NUMBER, 2)


def test_override_merging(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "main.tf": """
resource "aws_instance" "a" {
  count = 2
  ami   = "base"
  tags  = {}
  ebs_block_device {
    device_name = "one"
  }
  ebs_block_device {
    device_name = "two"
  }
}

output "o" {
  value = 1
}

locals {
  l = "base"
}

variable "v" {
  type    = string
  default = "base"
}
""",
            "main_override.tf": """
resource "aws_instance" "a" {
  for_each = {}
  ami      = "over"
  ebs_block_device {
    device_name = "three"
  }
}

output "o" {
  sensitive = true
}

locals {
  l = "over"
}

variable "v" {
  default = "over"
}
""",
        },
    )
    mod, diags = load_module(str(tmp_path))
    assert not diags
    r = mod.managed_resources["aws_instance.a"]
    assert r.count is None and r.for_each is not None
    assert sorted(r.config.attributes) == ["ami", "tags"]
    assert r.config.attributes["ami"].expr.range.text() == '"over"'
    assert [b.body.attributes["device_name"].expr.range.text() for b in r.config.blocks] == ['"three"']
    assert mod.outputs["o"].sensitive and mod.outputs["o"].expr is not None
    assert mod.locals["l"].expr.range.text() == '"over"'
    assert mod.variables["v"].default == Value(STRING, "over")


def test_override_of_missing_objects(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "main.tf": 'variable "v" {\n  type = number\n  default = 1\n}\n',
            "override.tf": 'variable "w" {}\n\nresource "aws_instance" "a" {}\n\nvariable "v" {\n  default = "x"\n}\n\nmoved {\n  from = a.b\n  to   = a.c\n}\n',
        },
    )
    _, diags = load_here(tmp_path)
    # as terraform 1.11.4 validate reports it
    assert [(d.summary, str(d.subject)) for d in diags] == [
        ("Missing base variable declaration to override", "override.tf:1,1-13"),
        ("Invalid default value for variable", "override.tf:5,1-13"),
        ("Missing resource to override", "override.tf:3,1-28"),
        ("Cannot override 'moved' blocks", "override.tf:9,1-6"),
    ]
    assert diags.items[1].detail == (
        "The overridden default value for this variable is not compatible with the variable's "
        "type constraint: a number is required."
    )


def test_json_configuration(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "main.tf.json": """{
  "variable": {"a": {"type": "list(string)", "default": ["x"]}},
  "resource": {"terraform_data": {
    "r": {"count": 2, "input": "${var.a}", "depends_on": ["terraform_data.q"],
          "lifecycle": {"ignore_changes": ["input"]}},
    "q": {}}},
  "output": {"o": {"value": "${terraform_data.r[0].id}"}},
  "locals": {"l": 1},
  "bogus": 1
}"""
        },
    )
    config, diags = load_here(tmp_path)
    assert [(d.summary, d.detail, str(d.subject)) for d in diags] == [
        (
            "Extraneous JSON object property",
            'No argument or block type is named "bogus".',
            "main.tf.json:9,3-10",
        )
    ]
    m = config.module
    assert m.variables["a"].type == ListType(STRING)
    r = m.managed_resources["terraform_data.r"]
    assert [traversal_str(t) for t in r.depends_on] == ["terraform_data.q"]
    assert [traversal_str(t) for t in r.lifecycle.ignore_changes] == ["input"]
    assert list(r.config.attributes) == ["input"]
    assert list(m.locals) == ["l"]


def test_provider_source_parsing() -> None:
    assert parse_provider_source("hashicorp/aws") == (
        ProviderAddr("registry.terraform.io", "hashicorp", "aws"),
        None,
    )
    assert parse_provider_source("aws")[0] == ProviderAddr("registry.terraform.io", "hashicorp", "aws")
    assert parse_provider_source("Example.COM/Acme/Widget")[0] == ProviderAddr(
        "example.com", "acme", "widget"
    )
    addr, problem = parse_provider_source("a/b/c/d")
    assert addr is None and problem is not None
    assert problem.summary == "Invalid provider source string"
    assert "[hostname/][namespace/]name" in problem.detail
    addr, problem = parse_provider_source("hashicorp/terraform-provider-aws")
    assert addr is None and problem is not None and problem.summary == "Invalid provider type"
    assert 'Did you mean "hashicorp/aws"?' in problem.detail
    addr, problem = parse_provider_source("hashicorp/terraform-aws")
    assert addr is None and problem is not None and problem.summary == "Invalid provider type"
    assert 'Provider source "registry.terraform.io/hashicorp/terraform-aws"' in problem.detail


_NOT_YET = ('This module is not yet installed. Run "groundplan init" to install all modules '
            "required by this configuration.")


def _local_call(tmp_path: Path, source: str = "./child") -> Path:
    return write(tmp_path, {
        "main.tf": f'module "child" {{\n  source = "{source}"\n}}\n',
        "child/main.tf": 'output "o" {\n  value = 1\n}\n',
        "other/main.tf": 'output "p" {\n  value = 2\n}\n',
    })


def _raw_load(root: Path) -> tuple[Config, Diagnostics]:
    """Load without running init first (load_here installs the modules)."""
    old = os.getcwd()
    os.chdir(root)
    try:
        return load_config(".")
    finally:
        os.chdir(old)


def test_local_module_needs_init(tmp_path: Path) -> None:
    config, diags = _raw_load(_local_call(tmp_path))
    assert summarize(diags) == [("error", "Module not installed", _NOT_YET, 1, 1)]
    assert config.children == {}
    assert not init_modules(tmp_path).has_errors
    config, diags = _raw_load(tmp_path)
    assert not diags and list(config.children["child"].module.outputs) == ["o"]


def test_local_module_source_changed_since_init(tmp_path: Path) -> None:
    _local_call(tmp_path)
    assert not init_modules(tmp_path).has_errors
    write(tmp_path, {"main.tf": 'module "child" {\n  source = "./child/"\n}\n'})
    assert not _raw_load(tmp_path)[1]  # the same path, written differently
    write(tmp_path, {"main.tf": 'module "child" {\n  source = "./other/../other"\n}\n'})
    config, diags = _raw_load(tmp_path)
    assert summarize(diags) == [(
        "error", "Module source has changed",
        "The source address was changed since this module was installed. Run \"groundplan "
        'init" to install all modules required by this configuration.', 2, 12)]
    # terraform still loads the installed directory
    assert list(config.children["child"].module.outputs) == ["o"]


def test_installed_module_directory_gone(tmp_path: Path) -> None:
    _local_call(tmp_path)
    assert not init_modules(tmp_path).has_errors
    (tmp_path / "child" / "main.tf").rename(tmp_path / "other" / "moved.tf")
    (tmp_path / "child").rmdir()
    _config, diags = _raw_load(tmp_path)
    assert summarize(diags) == [(
        "error", "Module not installed",
        "This module's local cache directory child could not be read. Run \"groundplan init\" "
        "to install all modules required by this configuration.", 1, 1)]


def test_import_targets_not_declared_require_their_providers(tmp_path: Path) -> None:
    write(tmp_path, {"main.tf": """
terraform {
  required_providers {
    tmpl = { source = "example.com/acme/template" }
  }
}
resource "aws_instance" "declared" {}
import {
  to = aws_instance.declared
  id = "i-1"
}
import {
  to = local_file.generated["a"]
  id = "f"
}
import {
  provider = tmpl.foo
  to       = other_thing.x
  id       = "y"
}
moved {
  from = null_resource.a
  to   = null_resource.b
}
"""})
    config, diags = load_here(tmp_path)
    assert not diags.has_errors
    reqs, rdiags = provider_requirements(config)
    assert not rdiags.has_errors
    assert [str(p) for p in reqs] == [
        "example.com/acme/template",
        "registry.terraform.io/hashicorp/aws",
        "registry.terraform.io/hashicorp/local",
    ]


def test_import_provider_must_agree_with_its_declared_target(tmp_path: Path) -> None:
    """terraform's "Invalid import provider argument" (at the `provider` argument) for an
    import block naming a provider while its declared target names none or another one."""
    write(tmp_path, {"main.tf": """
provider "terraform" {
  alias = "x"
}
resource "terraform_data" "none" {}
resource "terraform_data" "other" {
  provider = terraform
}
resource "terraform_data" "same" {
  provider = terraform.x
}
import {
  to       = terraform_data.none
  id       = "a"
  provider = terraform.x
}
import {
  to       = terraform_data.other
  id       = "b"
  provider = terraform.x
}
import {
  to       = terraform_data.same
  id       = "c"
  provider = terraform.x
}
"""})
    config, diags = load_here(tmp_path)
    assert not diags.has_errors
    _, rdiags = provider_requirements(config)
    assert [(d.summary, d.subject.start.line if d.subject else None) for d in rdiags] == [
        ("Invalid import provider argument", 15),
        ("Invalid import provider argument", 20),
    ]
