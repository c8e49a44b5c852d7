"""terraform 1.11's command help texts, served by engine.cli.help."""
