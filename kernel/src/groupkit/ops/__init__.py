"""Running the service: the application assembled from every layer (`create_app`), the
plugin manager that loads tools, the command line, the supervisor of worker processes,
the ASGI entry, metrics and the retention sweep. It may import every other layer; no layer
imports it.
"""
