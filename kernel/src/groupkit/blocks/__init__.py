"""The building blocks tools share, each behind a public module: sign-up boards and
their slots (`groupkit.signups`), entries with a private token (`groupkit.entries`),
calendars, private calendar feeds and chat webhooks (`groupkit.integrations`). A block
declares models, operations and replies; it imports only `groupkit.core`, so a page or the
app never has to be loaded for a block to be used.
"""
