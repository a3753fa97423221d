"""Specs: YAML files validated into typed models, and the expression language."""
