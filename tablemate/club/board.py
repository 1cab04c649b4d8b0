"""The standings board: one page for a projector and phones, live over server-sent events.

Served by the club service (Starlette + uvicorn + Jinja2, autoescaped). The
page and its JSON twin (``/board.json``) come from the same data,
``Store.board``. ``/events`` sends the rendered board at once and again
whenever the service stored something (``id:`` is the service's change
counter), so a phone that reconnects simply gets the current board. English
or German: ``?lang=de``, else the browser's Accept-Language, else the
service's default.
"""
from __future__ import annotations

import threading
from datetime import datetime
from typing import Callable

from jinja2 import DictLoader, Environment, select_autoescape

from ..web.sse import version_stream
from .i18n import LANGS, t
from .store import Store

MCR_HANDS = 16

_BOARD = """<!doctype html>
<html lang="{{ lang }}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ _('board') }} · {{ board.club }}</title>
<link rel="alternate" type="application/json" href="board.json">
<style>
body{font-family:system-ui,sans-serif;margin:1rem;background:#111;color:#eee}
table{border-collapse:collapse;margin:.5rem 0 1.5rem;width:100%;max-width:60rem}
td,th{padding:.25rem .6rem;border-bottom:1px solid #333;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.offline{color:#f77}.finished{color:#8c8}.playing{color:#fd6}
h1 small{font-size:.5em;color:#888} nav a{color:#9cf;margin-right:.6rem}
</style></head>
<body>
<nav><a href="?lang=en">English</a><a href="?lang=de">Deutsch</a></nav>
<div id="board">{% include "_board.html" %}</div>
<script>
const es = new EventSource("events?lang={{ lang }}");
es.addEventListener("board", e => { document.getElementById("board").innerHTML = e.data; });
</script>
</body></html>
"""

_FRAGMENT = """<h1>{{ _('board') }} · {{ board.tournament.name if board.tournament else board.club }}
<small>{{ _('live') }} {{ now }}</small></h1>
<h2>{{ _('tables') }}</h2>
<table><tr><th>{{ _('table') }}</th><th>{{ _('player') }}</th><th></th></tr>
{% for tb in tables %}<tr><td>{{ tb.table_id }}</td><td>{{ tb.players }}</td>
<td class="{{ tb.css }}">{{ tb.state }}</td></tr>{% endfor %}
</table>
<h2>{{ _('overall') }}</h2>
{% if board.overall %}
<table><tr><th class="n">{{ _('rank') }}</th><th>{{ _('player') }}</th>
{% if method == 'mcr' %}<th class="n">{{ _('table_points') }}</th>{% endif %}
<th class="n">{{ _('score') }}</th><th class="n">{{ _('played') }}</th>
{% if ema %}<th class="n">{{ _('ranking_points') }}</th>{% endif %}</tr>
{% for r in board.overall %}<tr><td class="n">{{ r.rank }}</td><td>{{ r.player }}</td>
{% if method == 'mcr' %}<td class="n">{{ '%g' % r.table_points }}</td>{% endif %}
<td class="n">{{ '%+d' % r.score }}</td><td class="n">{{ r.played }}</td>
{% if ema %}<td class="n">{{ '%g' % r.ranking_points }}</td>{% endif %}</tr>{% endfor %}
</table>
{% else %}<p>{{ _('no_results') }}</p>{% endif %}
{% for number, rows in board.rounds.items() %}
<h2>{{ _('round_n', n=number) }}</h2>
<table><tr><th class="n">{{ _('rank') }}</th><th>{{ _('player') }}</th>
{% if method == 'mcr' %}<th class="n">{{ _('table_points') }}</th>{% endif %}<th class="n">{{ _('score') }}</th></tr>
{% for r in rows %}<tr><td class="n">{{ r.rank }}</td><td>{{ r.player }}</td>
{% if method == 'mcr' %}<td class="n">{{ '%g' % r.table_points }}</td>{% endif %}
<td class="n">{{ '%+d' % r.score }}</td></tr>{% endfor %}</table>
{% endfor %}
{% if board.seating %}<p>{{ _('repeats', n=board.tournament.repeats) }}</p>{% endif %}
{% for number, tables_ in board.seating.items() %}
<h2>{{ _('seating') }} · {{ _('round_n', n=number) }}</h2>
<table>{% for table, four in tables_.items() %}<tr><td>{{ table }}</td><td>{{ four | join(', ') }}</td></tr>{% endfor %}</table>
{% endfor %}
"""

_env = Environment(loader=DictLoader({"board.html": _BOARD, "_board.html": _FRAGMENT}),
                   autoescape=select_autoescape(default=True, default_for_string=True))


def table_state(tb: dict, lang: str) -> tuple[str, str]:
    """(text, css class) of one table: finished, offline since 19:42, playing hand 7/16, waiting.

    A finished match stays "finished" when the table goes away afterwards
    (the Pi shut down for the evening): that is what the room needs to know.
    """
    m = tb.get("match")
    if m is not None and m["finished"]:
        return t("finished", lang), "finished"
    # "stopped" is a publisher that said goodbye (shut down, club mode turned off): not connected either
    if tb.get("available") in ("offline", "stopped") and tb.get("available_since"):
        since = datetime.fromisoformat(tb["available_since"]).astimezone()
        return t("offline_since", lang, time=since.strftime("%H:%M")), "offline"
    if m is None:
        return t("waiting", lang), ""
    n = m["hands_played"] + 1
    if m["rules"] == "mcr":
        return t("playing_hand", lang, n=n, total=MCR_HANDS), "playing"
    return t("playing_hand_open", lang, n=n), "playing"


def render_fragment(board: dict, lang: str) -> str:
    tables = []
    for tb in board["tables"]:
        text, css = table_state(tb, lang)
        tables.append({"table_id": tb["table_id"], "state": text, "css": css,
                       "players": ", ".join(tb["match"]["players"]) if tb.get("match") else ""})
    tour = board.get("tournament") or {}
    ctx = {"board": board, "tables": tables, "lang": lang, "method": tour.get("method", "mcr"),
           "ema": bool(tour.get("ema")), "now": datetime.now().astimezone().strftime("%H:%M:%S"),
           "_": lambda key, **kw: t(key, lang, **kw)}
    return _env.get_template("_board.html").render(ctx), ctx


def create_app(db_url: str, club: str, *, lang: str = "en", version: Callable[[], int] | None = None):
    """The board's ASGI app; ``version`` says when the data changed (the service's counter)."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse
    from starlette.routing import Route

    lock = threading.Lock()
    cache: dict = {}
    version = version or (lambda: 0)

    def snapshot() -> dict:
        v = version()
        with lock:
            if cache.get("version") == v and v != 0:
                return cache["board"]
            store = Store(db_url)
            try:
                board = store.board(club)
            finally:
                store.close()
            cache.update(version=v, board=board)
            return board

    def pick_lang(request: Request) -> str:
        asked = request.query_params.get("lang")
        if asked in LANGS:
            return asked
        if request.headers.get("accept-language", "").lower().startswith("de"):
            return "de"
        return lang

    async def page(request: Request):
        lg = pick_lang(request)
        board = await run_in_threadpool(snapshot)
        fragment, ctx = render_fragment(board, lg)
        html = _env.get_template("board.html").render({**ctx, "board": board})
        return HTMLResponse(html, headers={"Link": '<board.json>; rel="alternate"; type="application/json"'})

    async def board_json(request: Request):
        return JSONResponse(await run_in_threadpool(snapshot))

    async def events(request: Request):
        lg = pick_lang(request)

        async def fragment() -> str:
            return render_fragment(await run_in_threadpool(snapshot), lg)[0]

        return version_stream(request, version, fragment, "board", 0.25)

    return Starlette(routes=[Route("/", page), Route("/board.json", board_json), Route("/events", events)])


def serve_board(service, host: str, port: int, lang: str = "en") -> None:
    """Run the board in this thread (uvicorn handles SIGINT/SIGTERM) next to a running service."""
    import uvicorn

    app = create_app(service.db_url, service.club, lang=lang, version=lambda: service.version)
    uvicorn.run(app, host=host, port=port, log_level="warning", lifespan="off")
