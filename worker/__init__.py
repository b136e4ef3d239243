"""Task memory for a fleet of Claude Code bots."""

__version__ = "0.1.0"
