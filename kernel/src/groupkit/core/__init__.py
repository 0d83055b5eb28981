"""The contract and the runtime every request passes through: the tool declaration
(`Tool`, operations, edits), fields and schemas, errors, credentials and tokens, storage
and its units of work, rate limits, clock and time reading, credential resolution, live
updates, the render cache, the JSON API and the OpenAPI document, configuration and the
redacting request log. It imports no other layer of the kernel (nor `groupkit.hookspecs`):
what an upper layer adds (pages answering form posts, the building blocks' declarations)
reaches it through a protocol or a type-only import.
"""
