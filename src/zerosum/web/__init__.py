"""The browser front end (`zerosum serve`): a Starlette app over the engine contract.

A front-end layer like zerosum.cli: it parses requests, calls the games and agents, and
shows what they return. Nothing in the core imports it; it needs the `web` extra.
"""
