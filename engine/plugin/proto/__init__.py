"""The Terraform plugin protocol as protobuf: tfplugin5, tfplugin6 and go-plugin's controller.

The `.proto` files are groundplan's own definitions of the public protocol; the `*_pb2*`
modules are generated from them by `python -m engine.plugin.proto.generate` and committed.
Import the generated modules directly: `from engine.plugin.proto import tfplugin5_pb2`.
"""
