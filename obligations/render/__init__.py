"""Rendering obligations into Coq files, with jinja2 templates from `templates/`."""
