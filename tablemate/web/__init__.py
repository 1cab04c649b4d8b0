"""The phone page (docs/phone-page.md): the live table, fixing a hand, the score sheet, settings.

An edge around ``tablemate.app`` like ``device`` and ``cli``: it reads the
running appliance and hands every change to the service loop
(``app/actions.py``). ``server.create_app`` builds the Starlette app,
``server.WebServer`` runs it with uvicorn in a thread of ``tablemate run``
or ``tablemate demo --web``.
"""
