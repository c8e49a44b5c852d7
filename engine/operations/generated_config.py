"""`plan -generate-config-out=FILE`: the checks before planning and the file written after.

As terraform: the option is for normal plans only ("Invalid generate-config-out flag") and
FILE must not exist yet ("Target generated file already exists"); after the plan, the
configuration generated for imported objects (engine.plans.genconfig) is written to FILE,
which is created only when there is some, relative to the working directory.
"""

from __future__ import annotations

import os

from engine.diags import Diagnostics, error
from engine.operations.requests import PlanRequest
from engine.plans.model import Plan, PlanMode

EXISTS_DETAIL = (
    "groundplan can only write generated config into a new file. Either choose a different "
    "target location or move all existing configuration out of the target file, delete it "
    "and try again."
)


def _path(request: PlanRequest) -> str:
    return os.path.join(request.working_dir, request.generate_config_out)


def generate_target_problems(request: PlanRequest) -> Diagnostics:
    """Why `request.generate_config_out` cannot be used (empty when it can)."""
    diags = Diagnostics()
    if request.mode is not PlanMode.NORMAL:
        diags.append(error(
            "Invalid generate-config-out flag",
            "Config can only be generated during a normal plan operation, and not during a "
            "refresh-only or destroy plan."))
    elif os.path.lexists(_path(request)):
        diags.append(error("Target generated file already exists", EXISTS_DETAIL))
    return diags


def write_generated(request: PlanRequest, plan: Plan) -> tuple[str, Diagnostics]:
    """Write the plan's generated configuration to the request's file; the path written
    ("" when the plan generated none) and the diagnostics."""
    from engine.plans.genconfig import file_text

    entries = [(c.importing.id if c.importing is not None else "", c.generated_config)
               for c in plan.changes if c.generated_config]
    diags = Diagnostics()
    if not entries:
        return "", diags
    try:
        with open(_path(request), "x", encoding="utf-8") as fh:
            fh.write(file_text(entries))
    except OSError as exc:
        diags.append(error("Failed to write generated configuration",
                           f"{request.generate_config_out}: {exc.strerror or exc}"))
        return "", diags
    return request.generate_config_out, diags
