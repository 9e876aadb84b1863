"""A table's kernel: the router from a request to its table, Voila's request read in a preheated
kernel, the kernel's start, and the bridge that runs the same tables in the reader's browser.
"""
