"""Remote module source addresses as terraform normalises them, registry credentials, and the
archive unpacker's refusals (the expectations are terraform's and go-getter's)."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from engine.configs.versions import Version
from engine.initwd.archive import ArchiveError, archive_kind, extract
from engine.initwd.fetch import MaybeRelativePath, normalize_remote, remote_string
from engine.initwd.registry_client import credentials
from engine.initwd.remote import go_version_string, source_string

CASES = [
    ("github.com/hashicorp/terraform-cidr-subnets", "git::https://github.com/hashicorp/terraform-cidr-subnets.git", ""),
    ("github.com/hashicorp/terraform-cidr-subnets//example/foo",
     "git::https://github.com/hashicorp/terraform-cidr-subnets.git", "example/foo"),
    ("github.com/org/repo//sub?ref=v1.2", "git::https://github.com/org/repo.git?ref=v1.2", "sub"),
    ("bitbucket.org/org/repo", "git::https://bitbucket.org/org/repo.git", ""),
    ("git://example.com/code/baz.git//bleep/bloop", "git://example.com/code/baz.git", "bleep/bloop"),
    ("git::https://example.com/code/baz.git//bleep/bloop?otherthing=blah",
     "git::https://example.com/code/baz.git?otherthing=blah", "bleep/bloop"),
    ("git::ssh://git@example.com/code/baz.git", "git::ssh://git@example.com/code/baz.git", ""),
    ("git::git@example.com:code/baz.git//bleep/bloop", "git::ssh://git@example.com/code/baz.git", "bleep/bloop"),
    ("git@github.com:org/repo.git?ref=x", "git::ssh://git@github.com/org/repo.git?ref=x", ""),
    ("www.googleapis.com/storage/v1/BUCKET_NAME/PATH_TO_MODULE",
     "gcs::https://www.googleapis.com/storage/v1/BUCKET_NAME/PATH_TO_MODULE", ""),
    ("s3-eu-west-1.amazonaws.com/examplecorp-terraform-modules/vpc.zip",
     "s3::https://s3-eu-west-1.amazonaws.com/examplecorp-terraform-modules/vpc.zip", ""),
    ("https://example.com/module?archive=tar", "https://example.com/module?archive=tar", ""),
    ("/tmp/foo/example", "file:///tmp/foo/example", ""),
    ("/tmp/foo//example", "file:///tmp/foo", "example"),
]


@pytest.mark.parametrize("given,package,subdir", CASES)
def test_normalize_remote(given: str, package: str, subdir: str) -> None:
    assert normalize_remote(given) == (package, subdir)


def test_normalize_refusals() -> None:
    with pytest.raises(ValueError, match=r'subdirectory path "\.\./nope" leads outside'):
        normalize_remote("git::https://example.com/x.git//../nope")
    with pytest.raises(MaybeRelativePath):
        normalize_remote("foo/bar")


def test_recorded_source_strings() -> None:
    assert remote_string("git::https://x/y.git?ref=v1", "sub") == "git::https://x/y.git//sub?ref=v1"
    assert source_string("hashicorp/consul/aws//modules/x") == "hashicorp/consul/aws//modules/x"
    assert source_string("registry.terraform.io/hashicorp/consul/aws") == "hashicorp/consul/aws"
    assert source_string("Example.COM/a/b/c") == "example.com/a/b/c"
    assert source_string("github.com/org/repo//sub?ref=v1") == "git::https://github.com/org/repo.git//sub?ref=v1"


def test_go_version_strings() -> None:
    got = [Version.parse(t) for t in ("1.2", "v1.2.3-beta.1", "1.0.0+abc")]
    assert [go_version_string(v) for v in got if v] == ["1.2.0", "1.2.3-beta.1", "1.0.0+abc"]


def test_credentials_env_wins_over_config(tmp_path: Path) -> None:
    rc = tmp_path / "rc"
    rc.write_text('credentials "app.example.com" {\n  token = "from-config"\n}\n'
                  'credentials "other.example.com" {\n  token = "other"\n}\n')
    env = {"TF_CLI_CONFIG_FILE": str(rc), "HOME": str(tmp_path), "TF_TOKEN_app_example_com": "from-env",
           "TF_TOKEN_my__host_example_com": "dashed"}
    assert credentials(env) == {"app.example.com": "from-env", "other.example.com": "other",
                                "my-host.example.com": "dashed"}


def _tar(members: list[tuple[tarfile.TarInfo, bytes]]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for info, data in members:
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data) if data else None)
    return buf.getvalue()


def _link(name: str, target: str, kind: bytes = tarfile.SYMTYPE) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info, b""


@pytest.mark.parametrize("members,why", [
    ([(tarfile.TarInfo("../evil.tf"), b"x")], "entry contains '..': ../evil.tf"),
    ([(tarfile.TarInfo("a/../../evil.tf"), b"x")], "entry contains '..'"),
    ([(tarfile.TarInfo("/etc/evil.tf"), b"x")], "absolute path"),
    ([_link("l", "/etc")], "points outside"),
    ([_link("l", "../../etc")], "points outside"),
    ([_link("h", "../x", tarfile.LNKTYPE)], "points outside"),
    ([], "empty archive"),
])
def test_tar_refusals(tmp_path: Path, members: list[tuple[tarfile.TarInfo, bytes]], why: str) -> None:
    path = tmp_path / "a.tgz"
    path.write_bytes(_tar(members))
    with pytest.raises(ArchiveError, match=why.replace(".", r"\.")):
        extract(str(path), "tgz", str(tmp_path / "out"))
    assert not (tmp_path / "evil.tf").exists()


def test_tar_link_inside_and_zip(tmp_path: Path) -> None:
    path = tmp_path / "a.tar.gz"
    path.write_bytes(_tar([(tarfile.TarInfo("m/main.tf"), b"ok"), _link("m/alias.tf", "main.tf")]))
    extract(str(path), archive_kind(str(path)), str(tmp_path / "out"))
    assert (tmp_path / "out" / "m" / "alias.tf").read_bytes() == b"ok"
    zpath = tmp_path / "b.zip"
    with zipfile.ZipFile(zpath, "w") as zf:
        zf.writestr("../up.tf", "x")
    with pytest.raises(ArchiveError, match="entry contains"):
        extract(str(zpath), "zip", str(tmp_path / "zout"))
    assert archive_kind("x.tar.gz") == "tar.gz" and archive_kind("x.tgz") == "tgz" and archive_kind("x") == ""
