"""`tablemate enroll IMAGE [--calibration FILE] --name NAME [--no-bonus]`: learn the players' own tile set.

See docs/enrollment.md. The photo shows the grid laid out as that page
says; a grid with a tile missing, doubled, swapped or upside down is
refused with one message naming the row and column, and nothing is stored.
Exit codes: 0 learned and stored, 1 the photo or grid is refused, 2 usage.
"""
from __future__ import annotations

import argparse
import sys

from ..locale import gettext, known


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("enroll", help="learn your own tile set from one photo of it laid out as a grid",
                       description="Learn a tile set from a photo of its 42 faces and two backs laid out in "
                                   "6 rows of 8 (docs/enrollment.md), and store it as NAME.")
    p.add_argument("image", metavar="IMAGE", help="a photo of the grid (JPEG or PNG), taken by the table's camera")
    p.add_argument("--calibration", metavar="FILE", help="play-area corners (docs/table-setup.md); found automatically if absent")
    p.add_argument("--name", required=True, help="what to call the set (letters, digits, - and _)")
    p.add_argument("--no-bonus", action="store_true", help="the set has no flowers and seasons (rows 5-6 short)")
    p.add_argument("--area-cm", type=float, default=None, metavar="CM",
                   help="the play area's side in cm, to give the tile size in cm too")
    p.add_argument("--sets", metavar="DIR", help="where sets are kept (default $TABLEMATE_SETS or sets/ beside the ledger)")
    p.set_defaults(func=run)


def describe(en, lang: str = "en") -> str:
    """What was learned, for a player in ``lang``: tile size, back colour, how well each face is told apart."""
    lang = known(lang)
    ts = en.tile_set
    w, h = ts.tile_px
    size = gettext(lang, "{w} x {h} px of the 640 px play area ({share} of its side)").format(
        w=f"{w:.0f}", h=f"{h:.0f}", share=f"{w / 640:.1%}")
    if ts.tile_cm:
        size += f", {ts.tile_cm[0]:.1f} x {ts.tile_cm[1]:.1f} cm"
    learned = (gettext(lang, "learned the set {name}: {n} faces and the back") if ts.bonus else
               gettext(lang, "learned the set {name}: {n} faces (no flowers and seasons) and the back"))
    lines = [learned.format(name=ts.name, n=en.faces),
             gettext(lang, "tile size: {size}").format(size=size),
             gettext(lang, "back colour: {colour}").format(colour=ts.back_hex),
             gettext(lang, "grid read right: {before}/{n} by the trained reader, {after}/{n} with the set").format(
                 before=en.read_before, after=en.read_after, n=en.faces),
             gettext(lang, "blend: prototype weight {weight}, temperature {temperature}").format(
                 weight=ts.weight, temperature=ts.temperature),
             gettext(lang, "took {seconds} s").format(seconds=f"{en.seconds:.1f}"),
             gettext(lang, "margin to the nearest other face (1 - its distance to its own face / to the nearest "
                           "other, on grid crops the set was not fitted on; below 0 the set cannot tell them apart):")]
    for code in sorted(ts.margins, key=lambda c: ts.margins[c][0]):
        m, near = ts.margins[code]
        lines.append(f"  {code:>3}  {m:+.3f}  " + gettext(lang, "nearest {code}").format(code=near))
    weak = ", ".join(gettext(lang, "{code} (like {other})").format(code=c, other=n) for c, _, n in en.weakest(3))
    lines.append(gettext(lang, "weakest faces: {faces}").format(faces=weak))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from tablemate.rules.errors import TablemateError
    from tablemate.vision.enroll import enroll_image
    from tablemate.vision.tile_set import check_name, set_path

    try:
        check_name(args.name)
        en = enroll_image(args.image, args.calibration, name=args.name, bonus=not args.no_bonus, area_cm=args.area_cm)
        path = en.tile_set.save(set_path(args.name, args.sets))
    except TablemateError as e:
        print(f"tablemate enroll: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"tablemate enroll: cannot store the set: {e.strerror or e}", file=sys.stderr)
        return 1
    print(describe(en, args.lang))
    print(gettext(known(args.lang), "stored in {path}").format(path=path))
    return 0
