"""Vision: frame sources, marker detection, board calibration, tag-to-zone mapping, tracking.

Knows frames, tags and board zones; never rules, and never which block a tag is (the referee's
registry knows that). Built by the "Vision pipeline" issue; empty until then.
"""
