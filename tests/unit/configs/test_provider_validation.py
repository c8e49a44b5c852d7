"""validateProviderConfigs: terraform's static checks of provider configurations across the
module tree, reported when the configuration is loaded (messages and ranges as terraform's,
checked against terraform 1.11 in tests/functional/test_module_providers.py)."""

from __future__ import annotations

from pathlib import Path

from tests.unit.configs.helpers import load_here, summarize, write

REQ = 'terraform {\n  required_providers {\n    random = { source = "hashicorp/random" }\n  }\n}\n'
ALIASES = ('terraform {\n  required_providers {\n    random = {\n      source                = '
           '"hashicorp/random"\n      configuration_aliases = [random.west]\n    }\n  }\n}\n')


def diags_of(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, str, str, int | None,
                                                                   int | None]]:
    _config, diags = load_here(write(tmp_path, files))
    return summarize(diags)


def test_passing_everything_declared_is_clean(tmp_path: Path) -> None:
    got = diags_of(tmp_path, {
        "main.tf": REQ + 'provider "random" {\n  alias = "west"\n}\n'
                         'module "a" {\n  source    = "./a"\n  count     = 2\n'
                         '  providers = { random.west = random.west }\n}\n',
        "a/main.tf": ALIASES,
    })
    assert got == []


def test_configuration_alias_not_passed(tmp_path: Path) -> None:
    got = diags_of(tmp_path, {"main.tf": 'module "a" {\n  source = "./a"\n}\n',
                              "a/main.tf": ALIASES})
    assert [(g[0], g[1], g[3], g[4]) for g in got] == [
        ("error", "Missing required provider configuration", 1, 1)]
    assert got[0][2].startswith(
        "The child module requires an additional configuration for provider hashicorp/random, "
        'with the local name "random.west".\n\n')


def test_legacy_module_with_count_for_each_or_depends_on(tmp_path: Path) -> None:
    legacy = 'provider "random" {\n  version = ">= 3.0"\n}\n'
    for arg, line, col in (("count = 1", 3, 11), ('for_each = toset(["a"])', 3, 14),
                           ("depends_on = [terraform_data.x]", 3, 17)):
        got = diags_of(tmp_path / arg.split()[0], {
            "main.tf": 'resource "terraform_data" "x" {}\n'
                       f'module "a" {{\n  source = "./a"\n  {arg}\n}}\n',
            "a/main.tf": legacy,
        })
        errors = [g for g in got if g[0] == "error"]
        assert [(e[1], e[3], e[4]) for e in errors] == [
            ("Module is incompatible with count, for_each, and depends_on", line + 1, col)]
        assert 'If you also control the module "./a"' in errors[0][2]


def test_cannot_override_a_configured_block(tmp_path: Path) -> None:
    got = diags_of(tmp_path, {
        "main.tf": 'provider "random" {\n  alias = "x"\n}\n'
                   'module "a" {\n  source    = "./a"\n  providers = { random = random.x }\n}\n',
        "a/main.tf": REQ + 'provider "random" {\n  version = ">= 3.0"\n}\n',
    })
    errors = [(g[1], g[2], g[3], g[4]) for g in got if g[0] == "error"]
    assert errors == [(
        "Cannot override provider configuration",
        "The configuration of module.a has its own local configuration for random, and so it "
        "cannot accept an overridden configuration provided by the root module.", 6, 17)]


def test_undefined_and_mismatched_passed_providers(tmp_path: Path) -> None:
    got = diags_of(tmp_path, {
        "main.tf": REQ + 'module "a" {\n  source    = "./a"\n  providers = { other = random }\n}\n'
                         'module "b" {\n  source    = "./b"\n  providers = { random = random }\n}\n',
        "a/main.tf": 'terraform {\n  required_providers {\n    other = { source = '
                     '"example.com/acme/other" }\n  }\n}\n',
        "b/main.tf": "",
    })
    assert [(g[0], g[1], g[3]) for g in got] == [
        ("error", "Provider type mismatch", 8),
        ("warning", "Reference to undefined provider", 12),
    ]
    assert got[0][2].startswith(
        'The local name "random" in the root module represents provider "hashicorp/random", '
        'but "other" in module.a represents "example.com/acme/other".')
    assert got[1][2].startswith('There is no explicit declaration for local provider name '
                                '"random" in module.b, so groundplan is assuming')


def test_passing_on_a_default_configuration_not_received(tmp_path: Path) -> None:
    got = diags_of(tmp_path, {
        "main.tf": 'module "a" {\n  source    = "./a"\n  providers = {}\n}\n',
        "a/main.tf": REQ + 'module "b" {\n  source    = "../b"\n  providers = { random = random }\n'
                           '}\n',
        "b/main.tf": REQ,
    })
    assert [(g[0], g[1], g[3]) for g in got] == [
        ("warning", "Missing required provider configuration", 1)]
    assert got[0][2] == (
        "The configuration for module.a expects to inherit a configuration for provider "
        'hashicorp/random with local name "random", but the root module doesn\'t pass a '
        'configuration under that name.\n\nTo satisfy this requirement, add an entry for '
        '"random" to the "providers" argument in the module "a" block.')


def test_duplicate_required_providers(tmp_path: Path) -> None:
    got = diags_of(tmp_path, {"main.tf": (
        'terraform {\n  required_providers {\n    rnd    = { source = "hashicorp/random" }\n'
        '    random = { source = "hashicorp/random" }\n    x = { source = "hashicorp/null" }\n'
        '  }\n}\nresource "null_resource" "n" {}\n')})
    assert [(g[1], g[3], g[4]) for g in got] == [
        ("Duplicate required provider", 4, 14),
        ("Duplicate required provider", 8, 1),
    ]
    assert got[0][2] == ('Provider hashicorp/random with the local name "random" was previously '
                         'required as "rnd". A provider can only be required once within '
                         "required_providers.")
    assert got[1][2].startswith('Provider "registry.terraform.io/hashicorp/null" was implicitly '
                                'required via resource "null_resource.n", but listed in '
                                'required_providers as "x".')


def test_redundant_empty_provider_blocks(tmp_path: Path) -> None:
    got = diags_of(tmp_path, {
        "main.tf": 'module "a" {\n  source = "./a"\n}\n',
        "a/main.tf": 'provider "random" {\n  alias = "one"\n}\nprovider "random" {}\n',
    })
    assert [(g[0], g[1], g[3]) for g in got] == [
        ("warning", "Redundant empty provider block", 1)]
    assert got[0][2].endswith(
        "required_providers block of module.a:\n    random = {\n"
        '      source = "hashicorp/random"\n      configuration_aliases = [\n'
        "        random,\n        random.one,\n      ]\n    }")
