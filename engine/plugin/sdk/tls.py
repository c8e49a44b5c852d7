"""go-plugin's AutoMTLS, server side: the certificate a plugin presents and the TLS context
that requires terraform's client certificate.

As go-plugin's `generateCert`: a self-signed ECDSA P-521 certificate for `localhost` (CN and
DNS SAN), CA true, key usages digital signature, key encipherment and certificate signing,
extended key usages server and client auth, valid from 30 seconds ago for 30 years. The
handshake line carries it as standard base64 of the DER **without padding**
(`handshake_encoding`).

`server_context(cert, client_cert_pem)` is an OpenSSL context (Python's ssl, which offers the
`ecdsa_secp521r1_sha512` signature scheme that grpcio's TLS stack lacks) that presents our
certificate, requires a client certificate and trusts exactly the one terraform passed in
PLUGIN_CLIENT_CERT, TLS 1.2 or newer, and negotiates ALPN `h2` as gRPC-Go insists on.
"""

from __future__ import annotations

import base64
import datetime as dt
import os
import ssl
import tempfile
from dataclasses import dataclass

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

__all__ = ["ServerCert", "generate_server_cert", "handshake_encoding", "server_context"]


@dataclass(frozen=True, slots=True)
class ServerCert:
    """A certificate and its private key, PEM encoded, and the certificate's DER."""

    cert_pem: bytes
    key_pem: bytes
    der: bytes


def generate_server_cert(now: dt.datetime | None = None) -> ServerCert:
    """A fresh self-signed P-521 certificate as go-plugin generates (see the module docstring)."""
    key = ec.generate_private_key(ec.SECP521R1())
    now = now or dt.datetime.now(dt.UTC)
    name = x509.Name([
        x509.NameAttribute(NameOID.COMMON_NAME, "localhost"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "HashiCorp"),
    ])
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(seconds=30))
        .not_valid_after(now + dt.timedelta(hours=262980))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True, content_commitment=False, key_encipherment=True,
                data_encipherment=False, key_agreement=False, key_cert_sign=True,
                crl_sign=False, encipher_only=False, decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH,
                                   ExtendedKeyUsageOID.SERVER_AUTH]),
            critical=False,
        )
        .sign(key, hashes.SHA512())
    )
    return ServerCert(
        cert_pem=cert.public_bytes(serialization.Encoding.PEM),
        key_pem=key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
        der=cert.public_bytes(serialization.Encoding.DER),
    )


def handshake_encoding(der: bytes) -> str:
    """The handshake line's certificate field: base64 (standard alphabet) without padding."""
    return base64.b64encode(der).decode().rstrip("=")


def server_context(cert: ServerCert, client_cert_pem: str) -> ssl.SSLContext:
    """The TLS server context for mutual TLS with terraform (see the module docstring)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    # load_cert_chain reads files only: write them to a private directory and remove it
    with tempfile.TemporaryDirectory(prefix="gp-tls-") as d:
        os.chmod(d, 0o700)
        cpath, kpath = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
        with open(cpath, "wb") as f:
            f.write(cert.cert_pem)
        fd = os.open(kpath, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(cert.key_pem)
        ctx.load_cert_chain(cpath, kpath)
    ctx.verify_mode = ssl.CERT_REQUIRED
    ctx.load_verify_locations(cadata=client_cert_pem)
    ctx.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN
    ctx.set_alpn_protocols(["h2"])
    return ctx
