"""groundplan's infrastructure-as-code engine: a library with a CLI; it knows nothing of Lambda."""

from engine import dataclass_codes as _dataclass_codes

_dataclass_codes.install()  # before any of the engine's dataclasses is defined
