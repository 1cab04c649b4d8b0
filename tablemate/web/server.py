"""The phone page's ASGI app (Starlette) and the uvicorn thread that serves it beside the appliance.

Why server-rendered pages with a little plain JavaScript: the Pi renders a
few kilobytes of HTML faster than a phone parses a framework, there is no
build step, and nothing is fetched from the internet. Reads come straight
from the running :class:`~tablemate.app.service.Appliance` (its ``match`` is
an immutable replay of the ledger, ``seen`` the latest camera image); every
change is :meth:`~tablemate.app.service.Appliance.submit`\\ ted to the
service loop, which runs it as it runs a button press (``app/actions.py``).
Every page has a JSON twin (``/table.json``, ``/scores.json``) built from
the same data.
"""
from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from jinja2 import Environment, FileSystemLoader, select_autoescape

from ..app import actions
from ..app.i18n_errors import localize
from ..rules.errors import TablemateError
from . import views
from .auth import COOKIE, Guard, Locked
from ..locale import install_jinja2
from .i18n import LANGS, _
from .sse import version_stream

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
LANG_COOKIE = "tablemate_lang"
#: How long a page waits for the service loop to run its action (a still and its vision take ~1 s on a Pi).
ACTION_TIMEOUT = 30.0
#: How often the live stream looks for a change (the page must follow a new frame within a second).
POLL = 0.2


def environment(lang: str) -> Environment:
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")), extensions=["jinja2.ext.i18n"],
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      trim_blocks=True, lstrip_blocks=True)
    install_jinja2(env, lang)  # the project's catalogs (docs/translations.md)
    env.globals["json"] = lambda v: json.dumps(v, ensure_ascii=False).replace("</", "<\\/")
    return env


def create_app(appliance: Any, *, guard: Guard | None = None, lang: str = "en", url: str | None = None):
    """The page for one running appliance (its loop must be stepping in another thread)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    guard = guard or Guard()
    envs = {lg: environment(lg) for lg in LANGS}
    frame_cache: dict = {}
    frame_lock = threading.Lock()
    closing = threading.Event()

    def pick_lang(request: Request) -> str:
        asked = request.query_params.get("lang") or request.cookies.get(LANG_COOKIE)
        if asked in LANGS:
            return asked
        if request.headers.get("accept-language", "").lower().startswith("de"):
            return "de"
        return lang

    def session_of(request: Request):
        return guard.session(request.cookies.get(COOKIE))

    def page(request: Request, template: str, **ctx: Any) -> HTMLResponse:
        lg = pick_lang(request)
        session = session_of(request)
        fresh = session is None
        if fresh:
            session = guard.new_session()
        match = appliance.match
        ctx.update(lang=lg, path=request.url.path, csrf=session.csrf,
                   may_change=guard.may_change(session, match.id), locked=round(guard.locked_for()),
                   page_url=url)
        html = envs[lg].get_template(template).render(**ctx)
        response = HTMLResponse(html, headers={"Cache-Control": "no-store", "X-Frame-Options": "DENY",
                                               "Referrer-Policy": "same-origin",
                                               "Content-Security-Policy":
                                                   "default-src 'self'; img-src 'self' data:; "
                                                   "style-src 'self'; script-src 'self'; frame-ancestors 'none'"})
        if fresh:
            response.set_cookie(COOKIE, session.id, httponly=True, samesite="strict", path="/")
        return response

    # -- pages ----------------------------------------------------------------------------

    async def table(request: Request):
        lg = pick_lang(request)
        return page(request, "table.html", live=views.live(appliance, lg), view="live")

    async def hand(request: Request):
        lg = pick_lang(request)
        return page(request, "hand.html", editor=views.editor(appliance, lg), view="hand")

    async def scores(request: Request):
        lg = pick_lang(request)
        return page(request, "scores.html", sheet=views.sheet(appliance, lg), view="scores")

    async def settings(request: Request):
        lg = pick_lang(request)
        return page(request, "settings.html", setup=views.setup(appliance, lg), live=views.live(appliance, lg),
                    view="settings")

    async def table_json(request: Request):
        return JSONResponse(views.live(appliance, pick_lang(request), for_json=True))

    async def scores_json(request: Request):
        return JSONResponse(views.sheet(appliance, pick_lang(request), for_json=True))

    async def scores_csv(request: Request):
        return Response(views.csv_text(appliance.match), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="match-{appliance.match.id}.csv"'})

    async def frame(request: Request):
        seen = appliance.seen
        if seen is None:
            return Response(status_code=404)

        def encode() -> bytes:
            with frame_lock:
                if frame_cache.get("seq") != seen.seq:
                    frame_cache.update(seq=seen.seq, jpeg=views.jpeg(seen.image))
                return frame_cache["jpeg"]

        from starlette.concurrency import run_in_threadpool
        return Response(await run_in_threadpool(encode), media_type="image/jpeg",
                        headers={"Cache-Control": "no-cache"})

    async def set_lang(request: Request):
        to = request.query_params.get("to", "en")
        back = request.query_params.get("back", "/")
        if not back.startswith("/") or back.startswith("//"):
            back = "/"
        response = RedirectResponse(back, status_code=303)
        if to in LANGS:
            response.set_cookie(LANG_COOKIE, to, httponly=True, samesite="strict", path="/", max_age=86400 * 365)
        return response

    async def events(request: Request):
        """Server-sent events: the view's fragment at once and whenever the appliance changed."""
        lg = pick_lang(request)
        which = request.query_params.get("view", "live")
        render = {"live": lambda: envs[lg].get_template("_live.html").render(live=views.live(appliance, lg), lang=lg),
                  "scores": lambda: envs[lg].get_template("_sheet.html").render(
                      sheet=views.sheet(appliance, lg), lang=lg,
                      may_change=guard.may_change(session_of(request), appliance.match.id))}.get(which)
        if render is None:
            return Response(status_code=404)

        async def fragment() -> str:
            return render()

        return version_stream(request, lambda: appliance.version, fragment, "update", POLL, retry_ms=1000,
                              stop=closing)

    # -- changes --------------------------------------------------------------------------

    async def body_of(request: Request) -> dict:
        raw = await request.body()
        if request.headers.get("content-type", "").startswith("application/json"):
            try:
                data = json.loads(raw or b"{}")
            except ValueError:
                return {}
            return data if isinstance(data, dict) else {}
        return {k: v[-1] for k, v in parse_qs(raw.decode("utf-8", "replace")).items()}

    def refuse(status: int, message: str, **extra: Any) -> JSONResponse:
        return JSONResponse({"ok": False, "error": message, **extra}, status_code=status)

    def foreign(request: Request) -> bool:
        """A browser's request sent from another site (Origin names another host)."""
        origin = request.headers.get("origin")
        if not origin or origin == "null":
            return origin == "null"
        return origin.split("://", 1)[-1].rstrip("/") != request.headers.get("host", "")

    async def guarded(request: Request, body: dict) -> tuple[Any, JSONResponse | None]:
        lg = pick_lang(request)
        session = session_of(request)
        token = request.headers.get("x-csrf-token") or body.get("csrf")
        if foreign(request) or not guard.csrf_ok(session, token):
            return session, refuse(403, _(lg, "This change did not come from this page (its security token is "
                                              "missing or old). Reload the page and try again."))
        wait = guard.locked_for()
        if wait > 0:
            return session, refuse(423, _(lg, "Too many wrong PINs: changes are locked for %(s)d more seconds.",
                                          s=int(wait + 0.999)), locked=True)
        if not guard.may_change(session, appliance.match.id):
            return session, refuse(401, _(lg, "Enter the table's PIN first (the display shows it)."),
                                   need_pin=True)
        return session, None

    async def run(request: Request, name: str, work, done=None) -> JSONResponse:
        lg = pick_lang(request)
        body = await body_of(request)
        session, refused = await guarded(request, body)
        if refused is not None:
            return refused
        try:
            future = appliance.submit(name, lambda app: work(app, body))
            result = await asyncio.wait_for(asyncio.wrap_future(future), ACTION_TIMEOUT)
        except asyncio.TimeoutError:
            return refuse(503, _(lg, "The table did not answer in time; nothing was changed. Try again."))
        except TablemateError as err:
            return refuse(400, localize(str(err), lg))
        except (TypeError, ValueError, KeyError) as err:
            log.info("page %s: bad input: %r", name, err)
            return refuse(400, _(lg, "The page sent something the table cannot use; reload the page."))
        if done is not None:
            done(session, result)
        return JSONResponse({"ok": True})

    async def pin(request: Request):
        lg = pick_lang(request)
        body = await body_of(request)
        session = session_of(request)
        token = request.headers.get("x-csrf-token") or body.get("csrf")
        if foreign(request) or not guard.csrf_ok(session, token):
            return refuse(403, _(lg, "This change did not come from this page (its security token is "
                                     "missing or old). Reload the page and try again."))
        try:
            right = guard.enter(session, appliance.match.id, str(body.get("pin", "")))
        except Locked as err:
            return refuse(423, _(lg, "Too many wrong PINs: changes are locked for %(s)d more seconds.",
                                 s=int(err.seconds + 0.999)), locked=True)
        if not right:
            return refuse(401, _(lg, "Wrong PIN. The display over the table shows the right one."), need_pin=True)
        return JSONResponse({"ok": True})

    async def score(request: Request):
        """The live score of a hand being edited: changes nothing, so it needs no PIN."""
        body = await body_of(request)
        return JSONResponse(actions.preview(appliance.match.state, body.get("edit") or {}, pick_lang(request)))

    def confirm(app, body):
        edit = body.get("edit")
        table = actions.table_from_edit(app.match.state, edit)
        return actions.confirm(app, table, "page")

    def penalty(app, body):
        kind, detail = str(body.get("kind", "")), str(body.get("detail", "")).strip()
        if kind == "false_mahjong" and body.get("reason"):  # the form's choice of reason, not a typed code
            detail = str(body["reason"])
        return actions.penalty(app, str(body.get("player", "")), kind, detail)

    def new_match(app, body):
        players = body.get("players")
        if isinstance(players, str):
            players = players.split(",")
        return actions.new_match(app, str(body.get("rules", "")), list(players or []), body.get("options"))

    def renewed(session, match):  # who started the match may change it without the new PIN
        if session is not None:
            session.match_id = match.id

    def enroll(app, body):
        do = body.get("do")
        if do == "start":
            return actions.start_enroll(app)
        if do == "still":
            return actions.enroll_still(app)
        if do == "back":
            return actions.leave_enroll(app)
        raise actions.ActionError("enrollment: start, still or back")

    def language(app, body):
        if body.get("lang") not in LANGS:
            raise actions.ActionError(f"unknown language {body.get('lang')!r}: choose one of en, de")
        return actions.set_language(app, body["lang"])

    async def action(request: Request):
        what = request.path_params["what"]
        handlers = {
            "confirm": (confirm, None),
            "undo": (lambda app, body: actions.undo(app), None),
            "penalty": (penalty, None),
            "match": (new_match, renewed),
            "calibrate": (lambda app, body: actions.calibrate(app, body.get("corners"), body.get("image_size")), None),
            "enroll": (enroll, None),
            "language": (language, None),
        }
        if what not in handlers:
            return refuse(404, "no such action")
        work, done = handlers[what]
        return await run(request, what, work, done)

    routes = [
        Route("/", table), Route("/hand", hand), Route("/scores", scores), Route("/settings", settings),
        Route("/table.json", table_json), Route("/scores.json", scores_json), Route("/scores.csv", scores_csv),
        Route("/frame.jpg", frame), Route("/events", events), Route("/lang", set_lang),
        Route("/api/pin", pin, methods=["POST"]), Route("/api/score", score, methods=["POST"]),
        Route("/api/{what}", action, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    asgi = Starlette(routes=routes)
    asgi.state.guard = guard
    asgi.state.closing = closing
    return asgi


# -- serving beside the service loop --------------------------------------------------------------------

def lan_address() -> str:
    """This machine's address on the local network, as a phone there reaches it.

    A UDP socket "connected" to a private address picks the interface the
    route to the LAN goes through; connect() on UDP sends no packet.
    """
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


class WebServer:
    """uvicorn in a daemon thread; ``start()`` returns once it listens, ``stop()`` ends it."""

    def __init__(self, asgi: Any, host: str = "0.0.0.0", port: int = 8080) -> None:
        import uvicorn

        self.asgi = asgi
        self.host = host
        config = uvicorn.Config(asgi, host=host, port=port, log_level="warning", lifespan="off",
                                access_log=False, timeout_graceful_shutdown=2)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="tablemate-web", daemon=True)

    def start(self, timeout: float = 15.0) -> "WebServer":
        self.thread.start()
        end = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive():
                raise OSError(f"the phone page could not listen on {self.host}:{self.server.config.port}")
            if time.monotonic() > end:
                raise OSError("the phone page did not start in time")
            time.sleep(0.02)
        return self

    @property
    def port(self) -> int:
        for server in self.server.servers:
            for sock in server.sockets:
                return sock.getsockname()[1]
        return self.server.config.port

    def url(self, host: str | None = None) -> str:
        shown = host or (self.host if self.host not in ("0.0.0.0", "::", "") else lan_address())
        return f"http://{shown}:{self.port}/"

    def stop(self) -> None:
        closing = getattr(getattr(self.asgi, "state", None), "closing", None)
        if closing is not None:
            closing.set()
        self.server.should_exit = True
        self.thread.join(5)
