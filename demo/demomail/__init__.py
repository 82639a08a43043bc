"""Building blocks of the demo mailbox generator (see ../generate.py)."""
