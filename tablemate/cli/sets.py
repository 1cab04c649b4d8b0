"""`tablemate sets list | show NAME | remove NAME`: the learned tile sets (docs/enrollment.md).

Sets live in ``$TABLEMATE_SETS`` if set, else ``sets/`` beside the ledger.
Exit codes: 0 done, 1 no such set or a damaged one, 2 usage.
"""
from __future__ import annotations

import argparse
import sys
import time


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sets", help="list, show or remove the tile sets learned with 'tablemate enroll'")
    p.add_argument("--sets", metavar="DIR", help="where sets are kept (default $TABLEMATE_SETS or sets/ beside the ledger)")
    what = p.add_subparsers(dest="action", metavar="ACTION")
    what.required = True
    what.add_parser("list", help="every learned set")
    s = what.add_parser("show", help="what a set holds")
    s.add_argument("name", metavar="NAME")
    r = what.add_parser("remove", help="forget a set")
    r.add_argument("name", metavar="NAME")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from tablemate.rules.errors import TablemateError
    from tablemate.vision.tile_set import SUFFIX, list_sets, load_file, load_set, remove_set, sets_dir

    from tablemate.app.i18n_errors import localize
    from tablemate.locale import gettext, known

    lang = known(args.lang)
    folder = args.sets or sets_dir()
    try:
        if args.action == "list":
            paths = list_sets(folder)
            if not paths:
                print(gettext(lang, "no tile sets in {folder}; learn one with 'tablemate enroll IMAGE --name NAME'")
                      .format(folder=folder))
            for p in paths:
                name = p.name.removesuffix(SUFFIX)
                try:
                    load_file(p, name)
                    state = ""
                except TablemateError as e:
                    state = "  " + gettext(lang, "(unusable: {why})").format(why=localize(str(e), lang))
                print(f"{name}{state}")
            return 0
        if args.action == "remove":
            print(gettext(lang, "removed {path}").format(path=remove_set(args.name, folder)))
            return 0
        ts = load_set(args.name, folder)
    except TablemateError as e:
        print(f"tablemate sets: {e}", file=sys.stderr)
        return 1
    created = time.strftime("%Y-%m-%d %H:%M", time.localtime(ts.created))
    print(gettext(lang, "set {name}, learned {created}, for reader {reader}").format(
        name=ts.name, created=created, reader=ts.reader_sha256[:12]))
    faces = (gettext(lang, "faces: {n}; back colour {colour}") if ts.bonus else
             gettext(lang, "faces: {n} (no flowers and seasons); back colour {colour}"))
    print(faces.format(n=len(ts.classes) - 1, colour=ts.back_hex))
    size = gettext(lang, "{w} x {h} px of 640").format(w=f"{ts.tile_px[0]:.0f}", h=f"{ts.tile_px[1]:.0f}")
    if ts.tile_cm:
        size += f" ({ts.tile_cm[0]:.1f} x {ts.tile_cm[1]:.1f} cm)"
    print(gettext(lang, "tile size: {size}; blend weight {weight}, temperature {temperature}").format(
        size=size, weight=ts.weight, temperature=ts.temperature))
    weak = sorted(ts.margins.items(), key=lambda kv: kv[1][0])[:5]
    print(gettext(lang, "weakest faces: {faces}").format(faces=", ".join(
        f"{c} {m:+.3f} " + gettext(lang, "(like {other})").format(other=n) for c, (m, n) in weak)))
    return 0
