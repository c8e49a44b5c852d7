"""The provider boundary: schemas, the `Provider` protocol, and the built-in provider."""
