from __future__ import annotations

import base64
import os
import socket
import ssl
import threading

import pytest
from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import ec

from engine.plugin.sdk.relay import TLSRelay
from engine.plugin.sdk.server import handshake_line
from engine.plugin.sdk.tls import generate_server_cert, handshake_encoding, server_context


def test_certificate_is_p521_localhost_ca() -> None:
    cert = x509.load_der_x509_certificate(generate_server_cert().der)
    key = cert.public_key()
    assert isinstance(key, ec.EllipticCurvePublicKey) and key.curve.name == "secp521r1"
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert san.get_values_for_type(x509.DNSName) == ["localhost"]
    assert cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca


def test_handshake_encoding_is_unpadded_standard_base64() -> None:
    der = generate_server_cert().der
    text = handshake_encoding(der)
    assert "=" not in text
    assert base64.b64decode(text + "=" * (-len(text) % 4)) == der
    line = handshake_line("/tmp/x/plugin1", der)
    assert line.split("|")[:5] == ["1", "6", "unix", "/tmp/x/plugin1", "grpc"]
    assert line.split("|")[5] == text
    assert handshake_line("/s", None) == "1|6|unix|/s|grpc|"


def _echo_server(path: str) -> socket.socket:
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(path)
    srv.listen()

    def run() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            data = conn.recv(100)
            conn.sendall(data.upper())
            conn.close()

    threading.Thread(target=run, daemon=True).start()
    return srv


def _client_context(client: object, server_der: bytes, certdir: str) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.load_verify_locations(cadata=server_der)
    if client is not None:
        c = client  # a ServerCert used as the client's identity
        cp, kp = os.path.join(certdir, "c.pem"), os.path.join(certdir, "k.pem")
        with open(cp, "wb") as f:
            f.write(c.cert_pem)  # type: ignore[attr-defined]
        with open(kp, "wb") as f:
            f.write(c.key_pem)  # type: ignore[attr-defined]
        ctx.load_cert_chain(cp, kp)
    ctx.set_alpn_protocols(["h2"])
    return ctx


def test_relay_requires_the_client_certificate(tmp_path: object) -> None:
    d = str(tmp_path)
    server_cert, client_cert, stranger = (generate_server_cert() for _ in range(3))
    inner, public = os.path.join(d, "inner.sock"), os.path.join(d, "public.sock")
    srv = _echo_server(inner)
    relay = TLSRelay(public, inner, server_context(server_cert, client_cert.cert_pem.decode()))
    relay.start()
    try:
        ctx = _client_context(client_cert, server_cert.der, d)
        with socket.socket(socket.AF_UNIX) as raw:
            raw.connect(public)
            with ctx.wrap_socket(raw, server_hostname="localhost") as tls:
                assert tls.selected_alpn_protocol() == "h2"
                tls.sendall(b"hello")
                assert tls.recv(100) == b"HELLO"
        bad = _client_context(stranger, server_cert.der, d)
        with socket.socket(socket.AF_UNIX) as raw:
            raw.connect(public)
            with (pytest.raises((ssl.SSLError, ConnectionError)),
                  bad.wrap_socket(raw, server_hostname="localhost") as tls):
                tls.sendall(b"hello")
                if not tls.recv(100):
                    raise ConnectionError("closed")
    finally:
        relay.close()
        srv.close()
