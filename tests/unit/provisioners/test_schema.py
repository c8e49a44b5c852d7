"""Decoding provisioner arguments against the local-exec schema, with Terraform's messages."""

from __future__ import annotations

from engine.diags import Diagnostics
from engine.lang import EvalContext
from engine.lang.functions import function_table
from engine.provisioners import LOCAL_EXEC_SCHEMA, decode_config
from engine.values import BOOL, SENSITIVE, STRING, ListType, MapType, Value, object_, string
from tests.unit.provisioners.conftest import LoadFn


def _decode(load: LoadFn, body: str, **names: Value) -> tuple[Value, Diagnostics]:
    cfg = load(
        'resource "terraform_data" "a" {\n  provisioner "local-exec" {\n' + body + "\n  }\n}\n"
    )
    ctx = EvalContext(dict(names), function_table(str(cfg.directory)))
    return decode_config(cfg.provisioners[0].config, LOCAL_EXEC_SCHEMA, ctx)


def test_schema_types_match_terraform() -> None:
    t = LOCAL_EXEC_SCHEMA.implied_type()
    assert t.attrs == {
        "command": STRING,
        "interpreter": ListType(STRING),
        "working_dir": STRING,
        "environment": MapType(STRING),
        "quiet": BOOL,
    }


def test_full_config_decodes_with_absent_arguments_null(load: LoadFn) -> None:
    val, diags = _decode(load, '    command = "echo ${1 + 1}"\n    environment = { A = 1 }')
    assert not diags
    assert val.v["command"].v == "echo 2"
    assert val.v["environment"].v["A"].v == "1"
    assert val.v["interpreter"].is_null and val.v["quiet"].is_null


def test_missing_command_points_at_opening_brace(load: LoadFn) -> None:
    _, diags = _decode(load, '    working_dir = "/tmp"')
    (d,) = diags.errors
    assert d.summary == "Missing required argument"
    assert d.detail == 'The argument "command" is required, but no definition was found.'
    assert d.subject is not None and (d.subject.start.line, d.subject.start.column) == (2, 28)


def test_type_errors_worded_as_terraform(load: LoadFn) -> None:
    _, diags = _decode(
        load,
        '    command = ["a"]\n    environment = "x"\n    interpreter = "sh"\n'
        '    quiet = "maybe"\n    bogus = 1',
    )
    got = [(d.summary, d.detail) for d in diags.errors]
    assert got == [
        ("Incorrect attribute value type", 'Inappropriate value for attribute "command": string required.'),
        ("Incorrect attribute value type", 'Inappropriate value for attribute "environment": map of string required.'),
        ("Incorrect attribute value type", 'Inappropriate value for attribute "interpreter": list of string required.'),
        ("Incorrect attribute value type", 'Inappropriate value for attribute "quiet": a bool is required.'),
        ("Unsupported argument", 'An argument named "bogus" is not expected here.'),
    ]
    cmd = diags.errors[0]
    assert cmd.subject is not None
    assert (cmd.subject.start.line, cmd.subject.start.column, cmd.subject.end.column) == (3, 15, 20)


def test_nested_element_errors(load: LoadFn) -> None:
    _, diags = _decode(load, '    command = "x"\n    environment = { A = [1] }\n    interpreter = [["a"]]')
    assert [d.detail for d in diags.errors] == [
        'Inappropriate value for attribute "environment": element "A": string required.',
        'Inappropriate value for attribute "interpreter": element 0: string required.',
    ]


def test_sensitive_marks_are_kept(load: LoadFn) -> None:
    secret = object_({"s": string("x").mark(SENSITIVE)})
    val, diags = _decode(load, '    command = "echo ${var.s}"', var=secret)
    assert not diags
    assert val.v["command"].is_sensitive
