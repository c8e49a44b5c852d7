"""Reference checking across a module tree (expectations recorded from terraform 1.11.4
`validate -json` on the same files, after `terraform init`)."""

from __future__ import annotations

from pathlib import Path

from tests.unit.configs.helpers import summarize, validate_here, write


def _files(main: str, child: str) -> dict[str, str]:
    return {"main.tf": main, "m/main.tf": child}


CHILD_DECLS = 'variable "req" {}\nvariable "opt" {\n  default = 1\n}\noutput "x" {\n  value = var.req\n}\n'


def test_module_call_arguments(tmp_path: Path) -> None:
    write(
        tmp_path,
        _files(
            'module "a" {\n  source = "./m"\n  nope   = 1\n  reqx   = 2\n}\noutput "o" {\n  value = module.a.zzz\n}\n',
            CHILD_DECLS,
        ),
    )
    diags = validate_here(tmp_path)
    assert summarize(diags) == [
        ("error", "Missing required argument", 'The argument "req" is required, but no definition was found.', 1, 12),
        ("error", "Unsupported argument", 'An argument named "nope" is not expected here. Did you mean "opt"?', 3, 3),
        ("error", "Unsupported argument", 'An argument named "reqx" is not expected here. Did you mean "req"?', 4, 3),
    ]
    missing = next(d for d in diags if d.summary == "Missing required argument")
    assert missing.subject is not None and missing.subject.end.column == 13


def test_undeclared_module_output(tmp_path: Path) -> None:
    write(
        tmp_path,
        _files(
            'module "a" {\n  source = "./m"\n  req    = 1\n}\noutput "o" {\n  value = module.a.zzz\n}\noutput "p" {\n  value = module.a.x\n}\n',
            CHILD_DECLS,
        ),
    )
    assert summarize(validate_here(tmp_path)) == [
        ("error", "Unsupported attribute", 'This object does not have an attribute named "zzz".', 6, 19)
    ]


def test_child_module_references_name_the_module(tmp_path: Path) -> None:
    child = CHILD_DECLS + 'output "y" {\n  value = aws_instance.nope.id\n}\noutput "z" {\n  value = module.zz.q\n}\n'
    write(
        tmp_path,
        _files(
            'module "a" {\n  source = "./m"\n  req    = 1\n}\noutput "o" {\n  value = module.a.zzz\n}\n',
            child,
        ),
    )
    diags = validate_here(tmp_path)
    assert summarize(diags) == [
        (
            "error",
            "Reference to undeclared resource",
            'A managed resource "aws_instance" "nope" has not been declared in module.a.',
            9,
            11,
        ),
        ("error", "Reference to undeclared module", 'No module call named "zz" is declared in module.a.', 12, 11),
    ]
    assert {d.subject.filename for d in diags if d.subject} == {"m/main.tf"}


def test_references_in_every_context(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "main.tf": """
variable "names" {
  default = []
}

resource "terraform_data" "a" {
  for_each = toset(var.names)
  input    = each.value

  lifecycle {
    postcondition {
      condition     = self.output != null
      error_message = "x"
    }
  }
}

resource "terraform_data" "b" {
  input = {for k, v in terraform_data.a : k => v.id if v.id != var.undeclared}

  provisioner "local-exec" {
    command = "echo ${self.id}"
  }
}

module "m" {
  source = "./m"
  req    = count.index
}

check "c" {
  assert {
    condition     = terraform_data.b.id != ""
    error_message = "b"
  }
}
""",
            "m/main.tf": CHILD_DECLS,
        },
    )
    assert summarize(validate_here(tmp_path)) == [
        (
            "error",
            "Reference to undeclared input variable",
            'An input variable with the name "undeclared" has not been declared. This variable '
            'can be declared with a variable "undeclared" {} block.',
            19,
            64,
        ),
    ]
