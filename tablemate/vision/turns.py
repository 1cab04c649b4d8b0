"""Whose turn it is, from a sequence of recognitions taken during play.

Why a separate, pure module: the seat LEDs must follow the game from what the
camera sees (docs/architecture.md "The service loop"), but a single frame is often
wrong (a hand over the table, a tile in flight, a misread). So the tracker
works on *counts* per seat (how many discards lie in front of it, how many
exposed melds) and accepts a frame only if the change from the last accepted
frame is one that play can produce (docs/table-setup.md "During play"):

- a new discard in front of a seat ends that seat's turn: the turn passes to
  the next side in play order (bottom -> right -> top -> left);
- a new exposed meld at a seat is a claim (or a kong of its own): the turn
  moves to that seat; the claimed discard may leave the centre at the same
  time (one discard fewer at another seat). A meld counts even when its
  tiles are misread: every three laid-out tiles of a seat's meld rows that
  vision could not make into melds count as one;
- an exposed pung that becomes a kong of the same tile, nothing else
  changing, is a *promoted kong* (the player on turn added the fourth tile):
  the turn stays with that seat, which draws the kong's replacement tile, and
  the robbing-the-kong window opens (``kong_window``): until the next
  accepted change any other player may go out on the added tile. Only a kong
  read tile by tile counts, since the meld count does not change;
- a discard gone from one seat while exactly one new discard lies at
  another, no meld seen: that seat claimed the discard and has discarded,
  its meld not (yet) read (big tiles crowd a meld row). The turn passes on
  from it, as for any discard; when the meld is read later it is that
  claim's, not a new one. Without this one unread meld would leave every
  later frame uncertain and the turn stuck;
- a frame that is ordinary play compared with the frame before a claim
  whose meld was never read undoes the claim (``TurnTracker._undone``): a
  discard missed in one frame looked like a claimed one, and came back.
  This is asked before the frame is read as play after the claim, which
  it may also be (the returned discard and the next one as a run);
- after an uncertain frame, one new discard since that frame, the table
  having only grown since the accepted one, is that discard: the accepted
  frame was out of date (a discard missed when it was played), and the
  seat that discarded last is known (``TurnTracker._caught_up``);
- several new discards that are a run in play order from the turn plus one
  at a seat off that run: the accepted frame missed that seat's discard
  (played before the run: off the run, it cannot be the latest), and the
  turn passes on from the run's last seat (``seen_late`` in the event).
  Without this, every later frame held that discard as one more than play
  allows, and the tracker stayed on a wrong seat for the rest of the hand;
- a frame none of these read is told as the shortest stories of play from
  the accepted frame (discards, claims, kongs, one discard seen late),
  and followed if they all end on one seat (``_replayed``);
- a frame that not even a story reads, after a change that told a discard
  as seen late, is read from the frame before that change: the discard
  was made up (one tile outlined twice), not missed (``TurnTracker._made_up``);
- a frame nothing above reads, one discard or claim after the frame before
  it (itself uncertain), is that play: two frames that agree with each
  other are trusted over an accepted frame that failed them both (a phantom
  discard accepted with a play; ``TurnTracker._agreed``). A hand over
  discards in those two frames looks the same, so the accepted frame is
  kept, and the hidden tiles coming back are read against it;
- a seat's row showing the accepted one with tiles missing from inside it
  shows them as accepted (``_discards_kept``): play adds and claims take
  only at its end, so those were missed by vision;
- a side showing fewer melds than accepted shows them as accepted: melds
  never leave the table, so one missed is vision's doing (``_melds_kept``);
- anything else (discards vanishing without a claim, no
  story of up to ``MAX_PLAYS`` plays or stories ending on different seats,
  no table seen, no recognition at all) is an *uncertain* frame and
  changes nothing.

A change must be seen in ``confirm`` consecutive frames before it counts, so
one misread frame cannot move the turn. ``next_turn()`` is the NEXT button:
the players correct the tracker by hand, and the next accepted frame is
compared with what the tracker last accepted, so a correction is never undone
by an old difference.

No I/O, no models: the same code runs on ground-truth recognitions in tests.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

SIDES = ("bottom", "right", "top", "left")  # play order, counter-clockwise from above


def next_side(side: str) -> str:
    return SIDES[(SIDES.index(side) + 1) % 4]


@dataclass(frozen=True)
class Counts:
    """What the tracker compares between frames: per side, discards and exposed melds.

    ``unread`` counts, per side, the tiles of its meld rows that vision could
    not make into melds (role ``unknown`` with a group): a misread tile must
    not make a meld vanish, so every three of them count as one meld. They
    are counted per seat, not per group: a claimed tile misread as upright
    looks narrower than it lies and splits its meld into two groups. A group
    of more than four backs, more backs than faces, is left out: no meld
    shows more backs than a concealed kong's four, and such a row is a
    hidden hand or the wall taken for lying tiles because one back among
    them was read as a face (on a held-out look, a blank white dragon), which
    counted as four or five claims at once and left the turn on a wrong seat
    for the rest of the hand.
    """

    discards: tuple[tuple[str, ...], ...]
    melds: tuple[tuple[tuple[str, ...], ...], ...]
    unread: tuple[int, ...] = (0, 0, 0, 0)

    @classmethod
    def of(cls, recognition: dict | None) -> "Counts | None":
        """The counts of a recognition; None when the frame shows no table."""
        if not recognition or not isinstance(recognition.get("seats"), dict):
            return None
        seats = recognition["seats"]
        discards, melds = [], []
        for side in SIDES:
            seat = seats.get(side) or {}
            discards.append(tuple(seat.get("discards") or ()))
            melds.append(tuple(tuple(m.get("tiles") or ()) for m in seat.get("melds") or ()))
        tiles = recognition.get("tiles") or ()
        groups: dict[tuple, list[dict]] = {}
        for t in tiles:
            if t.get("role") == "unknown" and t.get("group"):
                groups.setdefault((t.get("side"), t["group"]), []).append(t)
        unread = tuple(sum(len(g) for (s, _), g in groups.items() if s == side and not _backs_row(g))
                       for side in SIDES)
        if not any(discards) and not any(melds) and not tiles and not any(
                (seats.get(s) or {}).get("hand_hidden") for s in SIDES):
            return None  # nothing at all seen: no table in view, not an empty table
        return cls(tuple(discards), tuple(melds), unread)

    def meld_counts(self) -> tuple[int, ...]:
        return tuple(len(m) + u // 3 for m, u in zip(self.melds, self.unread))

    def key(self) -> tuple:
        return tuple(len(d) for d in self.discards) + self.meld_counts()

    def kongs(self) -> tuple[int, ...]:
        """Per side, the melds read as four of one tile."""
        return tuple(sum(1 for m in melds if len(m) == 4 and len(set(m)) == 1) for melds in self.melds)


@dataclass
class TurnTracker:
    """Follows the turn; feed it one recognition per frame with :meth:`update`."""

    turn: str = "bottom"
    confirm: int = 1
    accepted: Counts | None = None
    #: True when the last frame given to :meth:`update` was uncertain.
    last_uncertain: bool = False
    #: After a promoted kong, until the next accepted change: ``{"side", "tile"}``
    #: of the kong that another player may rob by going out on its added tile.
    kong_window: dict | None = None
    _pending: tuple | None = field(default=None, repr=False)
    _seen: int = field(default=0, repr=False)
    #: Per side, claims accepted before their meld was read (see the module docstring).
    _unread_claims: tuple[int, ...] = field(default=(0, 0, 0, 0), repr=False)
    #: The last frame's counts, and whether it was uncertain (see ``_caught_up``).
    _last: Counts | None = field(default=None, repr=False)
    _stale: bool = field(default=False, repr=False)
    #: Before the last accepted claim whose meld was not read: (accepted counts, turn, unread claims), see ``_undone``.
    _before_unread_claim: tuple | None = field(default=None, repr=False)
    #: Before the last accepted change that told a discard as seen late: the same, see ``_made_up``.
    _before_seen_late: tuple | None = field(default=None, repr=False)
    #: Before the last change accepted from two frames that agree with each other only: the same, see ``_agreed``.
    _before_agreed: tuple | None = field(default=None, repr=False)
    #: The accepted counts before the last accepted change: the discards that lay before it (``_discards_kept``).
    _settled: Counts | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.turn not in SIDES:
            raise ValueError(f"unknown side {self.turn!r}: expected one of {', '.join(SIDES)}")
        if self.confirm < 1:
            raise ValueError("confirm must be at least 1 frame")

    def next_turn(self) -> dict:
        """The NEXT button: pass the turn by hand."""
        self.turn = next_side(self.turn)
        self._pending, self._seen = None, 0
        self._before_unread_claim = None  # the players' word stands: no claim is undone behind it
        self._before_agreed = None
        self.kong_window = None
        return {"kind": "next", "side": self.turn}

    def update(self, recognition: dict | None) -> dict | None:
        """Take one frame; return the event it caused, or None.

        An uncertain frame returns None and changes nothing; ``last_uncertain``
        tells the caller so it can say so. See ``_caught_up`` for frames
        after uncertain ones.
        """
        self.last_uncertain = False
        counts = Counts.of(recognition)
        if counts is None:
            self.last_uncertain = True
            return None
        if self.accepted is None:  # the first table seen is the baseline
            self.accepted = counts
            return None
        counts = _discards_kept(self.accepted, _melds_kept(self.accepted, counts), self._settled)
        key = counts.key()
        if key == self.accepted.key():
            change = _promoted_kong(self.accepted, counts)
            if change is None:
                self._pending, self._seen = None, 0
                self._last, self._stale = counts, False
                return None
            key = key + ("kong",) + counts.kongs()
        else:
            # a claim inferred from a vanished discard is undone before the frame is read as play after
            # it: the discard is back, so it was missed, not claimed (``_undone``)
            played = _interpret(self.accepted, counts, self.turn, self._unread_claims)
            change = (self._caught_up(counts)
                      or (played if played and played["kind"] == "melds_read" else None) or self._undone(counts)
                      or played or _interpret(self.accepted, counts, self.turn, self._unread_claims, one_late=True)
                      or _replayed(self.accepted, counts, self.turn, self._unread_claims)
                      or self._made_up(counts)
                      or self._agreed(counts))
        self._last = counts
        if change is None:
            self.last_uncertain = True
            self._stale = True
            return None
        self._stale = False
        late = change.pop("late_melds", (0, 0, 0, 0))
        undone = change.pop("undone", None)
        agreed = change.pop("agreed", False)
        if change["kind"] == "melds_read":  # only the melds of claims already followed: nothing happened
            self.accepted = counts
            self._unread_claims = tuple(u - k for u, k in zip(self._unread_claims, late))
            self._pending, self._seen = None, 0
            self._before_unread_claim = None
            return None
        if key == self._pending:
            self._seen += 1
        else:
            self._pending, self._seen = key, 1
        if self._seen < self.confirm:
            return None
        before = (self.accepted, self.turn, self._unread_claims)
        if undone is not None:
            self._unread_claims = undone
        self._settled = self.accepted
        self.accepted = counts
        self._pending, self._seen = None, 0
        unread = [u - k for u, k in zip(self._unread_claims, late)]
        meld_unread = change.pop("meld_unread", False)
        if meld_unread:
            unread[SIDES.index(change["side"])] += 1
        self._before_unread_claim = before if meld_unread else None
        self._before_seen_late = before if _tells_seen_late(change) else None
        self._before_agreed = before if agreed else None
        self._unread_claims = tuple(unread)
        self.turn = change.pop("turn")
        self.kong_window = ({"side": change["side"], "tile": change["tile"]}
                            if change["kind"] == "promoted_kong" else None)
        return change

    def _caught_up(self, counts: Counts) -> dict | None:
        """After an uncertain frame, one new discard since it (nothing gone since the accepted frame): that discard.

        Why: a discard missed in the one frame that showed it comes back
        only together with a later play, two changes at once, out of play
        order; every later frame then differed from the accepted one by
        more than play allows (or by a run in play order that named the
        wrong seat last), and the tracker stayed on a wrong seat for the
        rest of the hand. One discard between two frames names the seat that
        played last. Only while the table grows: where discards vanished
        (a hand over them) the accepted frame is kept, and the tiles that
        come back when the hand leaves are compared with it.
        """
        if self._last is None or not _grown(self.accepted, self._last):
            return None
        return self._one_play_since_last(counts, ("discard",))

    def _agreed(self, counts: Counts) -> dict | None:
        """A frame nothing reads from the accepted one, one play after the frame before it: that play.

        Why: ``_caught_up`` asks the same only while the table grows since
        the accepted frame. A phantom discard (an outline on the mat read as
        a tile) at the seat on turn's neighbour, seen in the frame of that
        seat's discard, is a run in play order and was accepted; every later
        frame then showed that seat one discard fewer than accepted, no play
        explains that, and the tracker stayed on a wrong seat until the hand
        ended. Two frames that are play between themselves are trusted over
        the accepted one, after it failed them both. A hand over discards for
        two frames while a seat plays looks the same; the accepted frame is
        kept for that (``_before_agreed``): when the hidden tiles come back,
        the frame is read from it, as ``_undone`` does.
        """
        change = self._one_play_since_last(counts, ("discard", "claim"))
        if change is not None:
            change["agreed"] = True
        return change

    def _one_play_since_last(self, counts: Counts, kinds: tuple[str, ...]) -> dict | None:
        """The play of one of ``kinds`` that takes the last frame, itself uncertain, to this one; None if none.

        A claim inferred only from a vanished discard (``meld_unread``) is none:
        between two frames it is as likely a discard missed in one of them.
        Shared by ``_caught_up`` and ``_agreed``, which differ in what they ask
        of the accepted frame.
        """
        last = self._last
        if not self._stale or last is None or not _grown(last, counts):
            return None
        change = _interpret(last, counts, self.turn, self._unread_claims)
        if change is None or change["kind"] not in kinds or change.get("meld_unread"):
            return None
        return change

    def _made_up(self, counts: Counts) -> dict | None:
        """A frame that makes no sense after a discard told as seen late, but does from the frame before it.

        Why: a discard seen late is one the accepted frame missed; but one
        tile outlined twice (a 4 cm discard lying sideways, outlined upright
        and sideways, each read at 0.5) also shows a seat one discard more
        than it played, and a story with a discard seen late tells that too.
        Its seat then showed one discard fewer in every later frame than the
        accepted one held, no play explains that, and the tracker stayed on
        a wrong seat for nine frames of a hand. Asked only when nothing else
        reads the frame: compared with the frame before that story, from the
        turn then, it is play, and the discard seen late was made up.
        """
        if self._before_seen_late is None:
            return None
        before, turn, unread = self._before_seen_late
        change = (_interpret(before, counts, turn, unread) or _interpret(before, counts, turn, unread, one_late=True)
                  or _replayed(before, counts, turn, unread))
        if change is None or change["kind"] == "melds_read":
            return None
        change["undone"] = unread
        return change

    def _undone(self, counts: Counts) -> dict | None:
        """A frame that makes no sense after a claim whose meld was never read, but does without that claim.

        Why: that claim was inferred from a discard gone from one seat while
        one new discard lay at another. A discard missed in one frame (an
        unusual set's nearly blank dragon) looks the same, and when it is
        seen again every later frame differed from the accepted one by more
        than play allows, leaving the tracker on a wrong seat until the next
        single discard. Compared with the frame before that claim, from the
        turn then, the new frame is ordinary play: the claim is undone and
        that play followed. So too after a change followed from two frames
        that agreed (``_agreed``) while a hand hid discards: when they come
        back, the frame is play from the frame before that change.
        """
        for stored in (self._before_unread_claim, self._before_agreed):
            if stored is None:
                continue
            before, turn, unread = stored
            change = _interpret(before, counts, turn, unread)
            if change is None or change["kind"] == "melds_read" or change.get("meld_unread"):
                continue
            change["undone"] = unread
            return change
        return None


#: The most backs a meld shows: a concealed kong laid face down.
MELD_BACKS = 4


def _backs_row(group: list[dict]) -> bool:
    """Whether tiles vision grouped but could not make into melds are mostly backs, more than any meld shows."""
    backs = sum(1 for t in group if t.get("code") == "back")
    return backs > MELD_BACKS and backs > len(group) - backs


#: The most plays one frame is read as beyond the accepted one (``_replayed``).
MAX_PLAYS = 4


def _replayed(before: Counts, after: Counts, turn: str, unread_claims: tuple[int, ...] = (0, 0, 0, 0)) -> dict | None:
    """The shortest stories of play from ``before`` and the turn to ``after``; their event if they agree on the turn.

    Why: the rules above read one play, a run of discards, or a run with
    one discard seen late. A frame that holds more (a discard missed, then
    a claim of the next one and the claimer's discard, all first seen
    together) fitted none of them, and since every later frame differed
    from the accepted one by still more, the tracker stayed on a wrong
    seat until the players pressed NEXT. Here such a frame is told as
    plays in order: a discard by the seat on turn, a claim of the last
    discard by another seat (which then plays), a kong of the seat's own
    (it plays again), and at most one discard the accepted frame missed.
    Only the shortest stories count, those without a missed discard before
    those with one, and only if every one of them ends on the same seat;
    else the frame stays uncertain. New melds at a side with claims followed
    before their meld was read are those claims' melds, as in ``_interpret``.
    """
    goal_d = tuple(len(d) for d in after.discards)
    late = _late_melds(_new_melds(before, after), unread_claims)
    goal_m = tuple(a - k for a, k in zip(after.meld_counts(), late))
    start = (tuple(len(d) for d in before.discards), before.meld_counts(), SIDES.index(turn), None, False)
    if any(m < b for m, b in zip(goal_m, start[1])) or sum(goal_m) - sum(start[1]) > MAX_PLAYS:
        return None
    layer = [(start, ())]
    for depth in range(MAX_PLAYS):
        left = MAX_PLAYS - depth - 1  # plays still to tell after this one: each moves one discard count by
        # one at most, and one meld count by one at most, so a state further off than that cannot end a story
        nxt: dict[tuple, tuple] = {}  # state -> the first story reaching it (stories alike from there on)
        ends: dict[bool, dict] = {False: {}, True: {}}  # by whether a discard seen late is told: turn -> a story
        for (d, m, t, last, late_used), story in layer:
            for state, play in _plays(d, m, t, last, late_used):
                if (any(a > b for a, b in zip(state[1], goal_m))
                        or sum(abs(a - b) for a, b in zip(state[0], goal_d)) > left
                        or sum(goal_m) - sum(state[1]) > left):
                    continue
                if state[0] == goal_d and state[1] == goal_m:
                    ends[state[4]].setdefault(state[2], story + (play,))
                nxt.setdefault(state, story + (play,))
        told = ends[False] or ends[True]  # a story without a missed discard, where there is one
        if len(told) > 1:
            return None
        if told:
            (t, found), = told.items()
            event = {"kind": "plays", "plays": [dict(p) for p in found], "turn": SIDES[t]}
            if any(late):
                event["late_melds"] = late
            return event
        layer = list(nxt.items())
    return None


def _plays(d: tuple, m: tuple, t: int, last: int | None, late_used: bool):
    """Each play that may follow a state (discards, melds, turn, last discarder, late discard used): (state, play)."""
    side = SIDES[t]
    dd = list(d)
    dd[t] += 1
    yield (tuple(dd), m, (t + 1) % 4, t, late_used), (("kind", "discard"), ("side", side))
    if last is not None and d[last] > 0:
        for x in range(4):
            if x != last:
                dd, mm = list(d), list(m)
                dd[last] -= 1
                mm[x] += 1
                yield (tuple(dd), tuple(mm), x, None, late_used), (("kind", "claim"), ("side", SIDES[x]),
                                                                   ("from", SIDES[last]))
    mm = list(m)
    mm[t] += 1
    yield (d, tuple(mm), t, None, late_used), (("kind", "kong"), ("side", side))
    if not late_used:
        for x in range(4):
            dd = list(d)
            dd[x] += 1
            yield (tuple(dd), m, t, last, True), (("kind", "seen_late"), ("side", SIDES[x]))


def _tells_seen_late(change: dict) -> bool:
    """Whether an accepted change tells a discard as seen late (``_interpret``'s run, or a story of ``_replayed``)."""
    return bool(change.get("seen_late")) or any(p.get("kind") == "seen_late" for p in change.get("plays", ()))


def _melds_kept(accepted: Counts, counts: Counts) -> Counts:
    """The frame with each side's melds as accepted where it shows fewer: melds never leave the table.

    Why: a meld missed in one frame (a hand over it, its tiles misread) made
    the frame uncertain ("melds vanishing"), so a discard played in that
    frame was read only with the next one, and a meld that appeared wrongly
    and went again left every later frame uncertain. Discards are not kept
    so: a claim takes one away, and a phantom discard kept would stay.
    """
    fewer = [len(c) + u // 3 < len(a) + ua // 3
             for a, c, u, ua in zip(accepted.melds, counts.melds, counts.unread, accepted.unread)]
    if not any(fewer):
        return counts
    return Counts(counts.discards,
                  tuple(a if f else c for a, c, f in zip(accepted.melds, counts.melds, fewer)),
                  tuple(ua if f else u for u, ua, f in zip(counts.unread, accepted.unread, fewer)))


def _discards_kept(accepted: Counts, counts: Counts, settled: Counts | None) -> Counts:
    """The frame with discards missed from inside a seat's row shown as accepted.

    Why: a seat's discards are read in the order they lie (rows from the
    centre out, each along the edge), so a discard played lies at the end,
    and a claim takes the end too. A row that shows the accepted one with
    tiles missing from inside it, its last tile still there, lost those
    tiles to vision (a faint tile, a sleeve over it), not to play. Counted
    as they were seen, two such misses in one frame, or one beside a play,
    made the frame uncertain or a claim, and the turn stayed behind or went
    wrong; ``turn_tracker_faults.py`` lost a tenth of its frames to a
    discard missed in 2 % of frames. Kept only where it is surely a miss:
    the frame shows that seat fewer tiles than accepted, what it shows
    matches the accepted row in order up to its last tile (any tile after
    it is new, and none of them is a tile it misses: a row read in another
    order is not refilled), and the missing tiles lay there before the last
    accepted change (``_settled``): a second outline of a discard, accepted
    with it, that vanishes is not kept.
    """
    if settled is None:
        return counts
    rows, changed = [], False
    for a, c, old in zip(accepted.discards, counts.discards, settled.discards):
        kept = _row_kept(a, c, old) if len(c) < len(a) else None  # a seat showing as many: nothing missing
        rows.append(c if kept is None else kept)
        changed |= kept is not None
    return Counts(tuple(rows), counts.melds, counts.unread) if changed else counts


def _row_kept(accepted: tuple, seen: tuple, settled: tuple) -> tuple | None:
    """The accepted row and the new tiles after it, where ``seen`` misses tiles from inside it (``_discards_kept``)."""
    matched = _matched(seen, accepted)
    if not matched or _holds(accepted[:-1], matched):
        return None
    missing, new = Counter(accepted) - Counter(matched), seen[len(matched):]
    if missing & Counter(new) or missing - Counter(settled):
        return None
    return accepted + new


def _matched(seen: tuple, row: tuple) -> tuple:
    """The longest start of ``seen`` that is a subsequence of ``row``."""
    k = 0
    for n, code in enumerate(seen):
        while k < len(row) and row[k] != code:
            k += 1
        if k == len(row):
            return seen[:n]
        k += 1
    return seen


def _holds(row: tuple, seen: tuple) -> bool:
    """Whether ``seen`` is a subsequence of ``row``."""
    return len(_matched(seen, row)) == len(seen)


def _grown(before: Counts, after: Counts) -> bool:
    """Whether every side has at least the discards and melds it had."""
    return (all(len(a) >= len(b) for a, b in zip(after.discards, before.discards))
            and all(a >= b for a, b in zip(after.meld_counts(), before.meld_counts())))


def _promoted_kong(before: Counts, after: Counts) -> dict | None:
    """A pung grown into a kong of its tile at one side, every other meld and
    discard as before; the event (the turn stays there), or None."""
    found = None
    for i, side in enumerate(SIDES):
        if after.discards[i] != before.discards[i] or len(after.melds[i]) != len(before.melds[i]):
            return None
        gone = list(before.melds[i])
        new = []
        for meld in after.melds[i]:
            if meld in gone:
                gone.remove(meld)
            else:
                new.append(meld)
        if not new:
            continue
        if found is not None or len(new) != 1 or len(gone) != 1:
            return None
        pung, kong = gone[0], new[0]
        if len(pung) != 3 or len(set(pung)) != 1 or len(kong) != 4 or set(kong) != set(pung):
            return None
        found = {"kind": "promoted_kong", "side": side, "tile": pung[0], "meld": list(kong),
                 "replacement_draw": side, "robbing_window": True, "turn": side}
    return found


def _interpret(before: Counts, after: Counts, turn: str, unread_claims: tuple[int, ...] = (0, 0, 0, 0),
               one_late: bool = False) -> dict | None:
    """The event that takes ``before`` to ``after`` (plus the new turn), or None.

    ``one_late``: several discards may be a run from the turn plus one seen
    late (module docstring); asked last, after a claim is undone, so a
    missed discard that looked like a claim is read as what it was.

    New melds at a side with claims followed before their meld was read are
    those claims' melds (``late_melds`` in the event); if nothing else
    changed the event is ``melds_read``.
    """
    dd = [len(a) - len(b) for a, b in zip(after.discards, before.discards)]
    raw = _new_melds(before, after)
    late = _late_melds(raw, unread_claims)
    dm = [d - k for d, k in zip(raw, late)]
    event = _event(before, after, turn, dd, dm, one_late)
    if event is not None and any(late):
        event["late_melds"] = late
    return event


def _new_melds(before: Counts, after: Counts) -> list[int]:
    """Per side, how many more melds ``after`` shows than ``before`` (fewer: negative)."""
    return [a - b for a, b in zip(after.meld_counts(), before.meld_counts())]


def _late_melds(new: list[int], unread_claims: tuple[int, ...]) -> tuple[int, ...]:
    """Per side, the ``new`` melds (``_new_melds``) that are those of claims followed before their meld was read."""
    return tuple(min(max(d, 0), u) for d, u in zip(new, unread_claims))


def _event(before: Counts, after: Counts, turn: str, dd: list[int], dm: list[int], one_late: bool) -> dict | None:
    if not any(dd) and not any(dm):
        return {"kind": "melds_read"}
    if any(d < 0 for d in dm) or sum(dm) > 1:
        return None
    if any(d < -1 for d in dd) or sum(1 for d in dd if d < 0) > 1:
        return None
    if sum(dm) == 1:  # a claim, or a kong of one's own
        claimer = SIDES[dm.index(1)]
        c = SIDES.index(claimer)
        lost = [SIDES[i] for i, d in enumerate(dd) if d < 0]
        if lost and lost[0] == claimer:
            return None
        if any(d > 0 for i, d in enumerate(dd) if i != c) or dd[c] > 1:
            return None
        read = len(after.melds[c]) > len(before.melds[c])  # else the new meld's tiles were misread
        event = {"kind": "claim", "side": claimer, "meld": list(after.melds[c][-1]) if read else None,
                 "from": lost[0] if lost else None}
        if dd[c] == 1:
            event["discard"] = after.discards[c][-1]
            event["turn"] = next_side(claimer)
        else:
            event["turn"] = claimer
        return event
    if any(d < 0 for d in dd):
        lost = [i for i, d in enumerate(dd) if d < 0]
        gained = [i for i, d in enumerate(dd) if d > 0]
        if len(lost) == 1 and len(gained) == 1 and dd[gained[0]] == 1:  # claimed, discarded, meld unread
            c = gained[0]
            return {"kind": "claim", "side": SIDES[c], "meld": None, "from": SIDES[lost[0]],
                    "discard": after.discards[c][-1], "turn": next_side(SIDES[c]), "meld_unread": True}
        return None  # a discard left the centre but no meld appeared (yet)
    gained = [i for i, d in enumerate(dd) if d > 0]
    if any(dd[i] > 1 for i in gained):
        return None
    if len(gained) == 1:
        side = SIDES[gained[0]]
        return {"kind": "discard", "side": side, "tile": after.discards[gained[0]][-1], "turn": next_side(side)}
    # several discards since the last accepted frame: a run in play order from the turn ...
    start = SIDES.index(turn)
    run = [(start + k) % 4 for k in range(len(gained))]
    late: list[int] = []
    if sorted(run) != gained:
        if not one_late:
            return None
        # ... or such a run and one seat off it, whose discard the accepted frame missed (module docstring)
        run = run[:-1]
        late = [i for i in gained if i not in run]
        if not set(run) <= set(gained):  # then exactly one seat of the gained is off the run
            return None
    last = SIDES[run[-1]]
    event = {"kind": "discards", "sides": [SIDES[i] for i in late + run],
             "tiles": [after.discards[i][-1] for i in late + run], "turn": next_side(last)}
    if late:
        event["seen_late"] = SIDES[late[0]]
    return event
