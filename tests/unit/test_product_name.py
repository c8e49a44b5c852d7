"""The product-name substitution conformance tests apply to terraform's output: what it
changes, what it spares, and how it re-wraps."""

from __future__ import annotations

from tests.product_name import as_groundplan, unnamed_mentions


def test_names_and_commands_are_substituted() -> None:
    assert as_groundplan(
        "Terraform has been successfully initialized!\n"
        'You may now begin working with Terraform. Try running "terraform plan" to see\n'
        "To see all of Terraform's top-level commands, run:\n  terraform -help\n"
        "Usage: terraform [global options] state list\n"
        "run `terraform refresh` first\n"
    ) == (
        "groundplan has been successfully initialized!\n"
        'You may now begin working with groundplan. Try running "groundplan plan" to see\n'
        "To see all of groundplan's top-level commands, run:\n  groundplan -help\n"
        "Usage: groundplan [global options] state list\n"
        "run `groundplan refresh` first\n"
    )


def test_phrases_about_terraform_itself_stay() -> None:
    text = ("Error: Unsupported Terraform Core version\n"
            "This configuration does not support Terraform version 1.11.4.\n"
            "HCP Terraform or Terraform Enterprise; Terraform v0.12; created by Terraform 0.11.14\n"
            "removed in a future version of Terraform.\n"
            "it may not be a Terraform provider plugin\n")
    assert as_groundplan(text) == text
    assert unnamed_mentions(text) == []


def test_user_data_is_spared() -> None:
    text = ('  # aws_vpc.this will be created\n'
            '      + tags = {\n'
            '          + "Terraform" = "true"\n'
            '          + "Name"      = "managed by Terraform"\n'
            '        }\n'
            '  on main.tf line 3, in terraform:\n'
            '   3:   description = "Terraform will assign" # Terraform comment\n'
            '    │ var.x is "Terraform"\n'
            'resource "terraform_data" "a" and terraform_remote_state, .terraform, terraform {\n')
    assert as_groundplan(text) == text


def test_wrapped_diagnostic_paragraphs_are_wrapped_again() -> None:
    terraform = (
        "\nError: Some objects will no longer be managed by Terraform\n\n"
        "If you apply this plan, Terraform will discard its tracking information for\n"
        "the following objects, but it will not delete them.\n")
    assert as_groundplan(terraform) == (
        "\nError: Some objects will no longer be managed by groundplan\n\n"
        "If you apply this plan, groundplan will discard its tracking information for\n"
        "the following objects, but it will not delete them.\n")
    full = ("Error: x\n\n"
            "The state was written by Terraform a long while ago and it now needs a fix so\n"
            "that it works.\n")
    assert as_groundplan(full) == (
        "Error: x\n\n"
        "The state was written by groundplan a long while ago and it now needs a fix\n"
        "so that it works.\n")


def test_fixed_text_keeps_its_line_breaks() -> None:
    text = ("The Terraform console allows you to experiment with Terraform interpolations.\n"
            "You may access resources in the state (if you have one) just as you would\n")
    assert as_groundplan(text) == text.replace("Terraform", "groundplan")


def test_json_is_left_alone_unless_it_is_a_message_field() -> None:
    doc = '{\n  "terraform_version": "1.11.4",\n  "detail": "run terraform init"\n}\n'
    assert as_groundplan(doc) == doc
    lines = '{"@message":"Terraform 1.11.4"}\n{"@message":"Terraform will perform"}\n'
    assert as_groundplan(lines) == lines
    assert as_groundplan('Run "terraform init".', message=True) == 'Run "groundplan init".'


def test_unnamed_mentions_finds_what_is_left() -> None:
    assert unnamed_mentions("groundplan has been successfully initialized!") == []
    found = unnamed_mentions('Terraform has no command named "x".\nrun: terraform init\n')
    assert len(found) == 2


def test_phrases_and_advice_broken_across_lines() -> None:
    assert as_groundplan(
        "Error: x\n\nThe state file uses format version 5, which is not supported by Terraform\n"
        '1.11.4. To view the available instances, use "terraform\nstate list".\n'
    ) == (
        "Error: x\n\nThe state file uses format version 5, which is not supported by Terraform\n"
        '1.11.4. To view the available instances, use "groundplan\nstate list".\n')
