"""A match's score sheet as CSV, one row per ledger event with running totals.

Why one function for the CLI (``tablemate match export --csv``) and the
phone page's download: players compare the two, so they must be the same
columns and rows, byte for byte.
"""
from __future__ import annotations

import csv
from typing import Any, TextIO


def write_csv(match: Any, stream: TextIO) -> None:
    """Write ``match`` (a ledger ``Match``) to ``stream`` as CSV."""
    players = match.state.players
    out = csv.writer(stream, lineterminator="\n")
    out.writerow(["seq", "kind", "hand_number", "winner", "discarder", "detail",
                  *[f"net {p}" for p in players], *[f"total {p}" for p in players], "position", "recorded"])
    totals = [0, 0, 0, 0]
    for ev in match.events:
        totals = [t + n for t, n in zip(totals, ev.nets)]
        r = ev.result
        if ev.kind == "hand":
            winner = "" if r.get("winner_player") is None else players[r["winner_player"]]
            discarder = "" if r.get("discarder_player") is None else players[r["discarder_player"]]
            detail = "draw" if r.get("drawn") else ("self-drawn" if not discarder else "discard")
        else:
            winner, discarder = "", ""
            detail = f"{r['kind']}: {players[r['player']]} {r['detail']}".strip()
        out.writerow([ev.seq, ev.kind, ev.hand_number or "", winner, discarder, detail,
                      *ev.nets, *totals, ev.position, ev.recorded])
