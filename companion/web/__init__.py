"""Web: the Flask app factory, blueprints and templates for the tablet and the players' phones.

Serves only per-role views from the engine. Built by "The tablet" issue; empty until then.
"""
