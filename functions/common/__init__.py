"""What the control plane's functions share: settings, AWS clients, table models, run states,
locks, artifacts, signing and redaction. Nothing here knows about a particular event shape;
each handler package adapts one kind of event to these pieces and to `engine` calls."""
