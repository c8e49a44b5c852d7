"""groundplan's infrastructure-as-code engine: a library with a CLI; it knows nothing of Lambda."""
