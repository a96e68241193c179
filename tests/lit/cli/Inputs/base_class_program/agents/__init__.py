"""Agents of the base-class program."""
