"""Server-sent events that follow a version counter: the phone page's live views and the club's board.

Why one piece: both pages poll a number that moves whenever what they show
changed, send the freshly rendered fragment when it moves and a keep-alive
comment when nothing happened for a while, and stop when the browser goes;
a fix to that loop (framing, keep-alive, disconnects) belongs to both.
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

#: Seconds without an event after which a comment keeps proxies and browsers from closing the stream.
KEEP_ALIVE = 15.0


def version_stream(request: Any, version: Callable[[], Any], render: Callable[[], Awaitable[str]], event: str,
                   poll: float, *, retry_ms: int | None = None, stop: Any = None):
    """A ``text/event-stream`` response: ``render()``'s HTML as event ``event`` each time ``version()`` moves.

    ``retry_ms`` tells the browser how soon to reconnect; ``stop`` (an
    event with ``is_set()``) ends the stream when the server shuts down.
    """
    from starlette.responses import StreamingResponse

    async def stream():
        seen = None
        quiet = 0.0
        if retry_ms is not None:
            yield f"retry: {retry_ms}\n\n"
        while stop is None or not stop.is_set():
            if await request.is_disconnected():
                return
            v = version()
            if v != seen:
                seen = v
                html = await render()
                data = "\n".join("data: " + line for line in html.splitlines())
                yield f"event: {event}\nid: {v}\n{data}\n\n"
                quiet = 0.0
            elif quiet > KEEP_ALIVE:
                yield ": keep-alive\n\n"
                quiet = 0.0
            await asyncio.sleep(poll)
            quiet += poll

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
