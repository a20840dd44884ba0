"""Inputs: serial and RFID card readers, barcode decoding, HID scanners, GPIO buttons and lights.

Produces timestamped input events; the referee decides what they mean. Built by the "Cards,
registration and table hardware" issue; empty until then.
"""
