"""Player-facing error messages in German, translated where they are shown.

Why at the boundary: errors are raised in English deep in ``rules/``,
``vision/`` and ``device/`` (``str(err)`` is the message), and the language
is only known where a message reaches a person: the CLI's stderr and the
display. Each entry is a message id with the English template exactly as
raised and its German template; a shown message that fits an English
template is given in German with the same fields. The ids are the keys a
later move to gettext/Babel keeps (English template = msgid). A message with
no entry stays English, so a new error is never lost, only untranslated.
"""
from __future__ import annotations

import contextlib
import re
import sys
from typing import Iterator, TextIO

#: id: (English template as raised, German template). Fields are ``{name}``.
#: Terms (as in i18n.py and i18n_classical.py): Stein/Steine (tile), Gewinnstein, Meldung (meld),
#: Satz (a set of four tiles; Steinsatz for the players' own set), Pung/Kong/Chow, Blumen und
#: Jahreszeiten, Spiel (one hand of a match), Hand (a player's tiles), Partie (match),
#: Spielbuch (ledger), Platz (seat), Ost/Süd/West/Nord, Remis (drawn hand), selbst gezogen.
MESSAGES: dict[str, tuple[str, str]] = {
    # notation (rules/notation.py, rules/tiles.py)
    "notation.no_tiles": ("no tiles given", "keine Steine angegeben"),
    "notation.needs_suit": ("'{text}': the numbers {digits} need a suit letter m, p or s",
                            "'{text}': die Zahlen {digits} brauchen einen Farbbuchstaben m, p oder s"),
    "notation.numbers_first": ("{ch} in {text} needs the numbers before it, as in 123{letter}",
                               "{ch} in {text} braucht die Zahlen davor, wie in 123{letter}"),
    "notation.flowers": ("'{text}': flowers and seasons are written h1 .. h8",
                         "'{text}': Blumen und Jahreszeiten schreibt man h1 .. h8"),
    "notation.not_a_meld": ("'{text}' is not a meld: a meld has three or four tiles",
                            "'{text}' ist keine Meldung: eine Meldung hat drei oder vier Steine"),
    "notation.concealed_kong": ("{text}: braces mark a concealed kong, which has four identical tiles",
                                "{text}: geschweifte Klammern stehen für einen verdeckten Kong, und der hat vier "
                                "gleiche Steine"),
    "notation.unmatched_bracket": ("'{token}' has an unmatched bracket", "'{token}' hat eine offene Klammer"),
    "notation.one_winning_tile": ("only one winning tile may be marked with +",
                                  "nur ein Gewinnstein darf mit + markiert sein"),
    "notation.mark_one": ("{token}: mark exactly one winning tile, as in +5p",
                          "{token}: genau einen Gewinnstein markieren, wie in +5p"),
    "notation.winning_twice": ("the winning tile is given twice, differently",
                               "der Gewinnstein ist zweimal angegeben, und zwar verschieden"),
    "notation.not_a_tile": ("'{ch}' in '{text}' is not part of a tile (use 1-9 with m/p/s, E S W N, C F P, h1-h8)",
                            "'{ch}' in '{text}' gehört zu keinem Stein (1-9 mit m/p/s, E S W N, C F P, h1-h8 verwenden)"),
    "tiles.not_a_code": ("{code} is not a tile code (use 1m-9m, 1p-9p, 1s-9s, E S W N, C F P, h1-h8)",
                         "{code} ist kein Steincode (1m-9m, 1p-9p, 1s-9s, E S W N, C F P, h1-h8 verwenden)"),
    "tiles.not_a_wind": ("{code} is not a wind (use E, S, W or N)", "{code} ist kein Wind (E, S, W oder N verwenden)"),
    "rules.unknown_rule_set": ("unknown rule set {rules} (use {known})", "unbekanntes Regelwerk {rules} ({known} verwenden)"),
    # hands (rules/hand.py)
    "hand.tile_count": ("{what} has {want} tiles{kongs}, but this one has {size}",
                        "{what} hat {want} Steine{kongs}, diese hat aber {size}"),
    "hand.what_winning": ("a winning hand", "eine Gewinnhand"),
    "hand.what_not_out": ("a hand that did not go out", "eine Hand, die nicht gewonnen hat,"),
    "hand.kongs": (" (a kong counts as three)", " (ein Kong zählt als drei)"),
    "hand.five_of_a_tile": ("there are {n} of {tile} in this hand (melds included), but a set has only four",
                            "in dieser Hand liegen {n}-mal {tile} (Meldungen mitgezählt), ein Satz hat aber nur vier"),
    "hand.bonus_twice": ("there is only one of each flower and season, but {tiles} appears twice",
                         "jede Blume und Jahreszeit gibt es nur einmal, aber {tiles} kommt doppelt vor"),
    "hand.robbing_self_drawn": ("robbing the kong means winning on another player's tile, so it cannot be self-drawn",
                                "Kong-Raub heißt, mit dem Stein eines anderen Spielers zu gewinnen; der Gewinn kann "
                                "also nicht selbst gezogen sein"),
    "hand.replacement_self_drawn": ("a kong's replacement tile is drawn from the wall, so that win is self-drawn",
                                    "der Ersatzstein eines Kongs wird von der Mauer gezogen, dieser Gewinn ist also "
                                    "selbst gezogen"),
    "hand.replacement_no_kong": ("winning on a kong's replacement tile needs a declared kong, and this hand has none",
                                 "ein Gewinn mit dem Ersatzstein eines Kongs braucht einen angesagten Kong, und diese "
                                 "Hand hat keinen"),
    "hand.robbing_and_replacement": ("a win cannot both rob a kong and come from a kong's replacement tile",
                                     "ein Gewinn kann nicht zugleich ein Kong-Raub sein und vom Ersatzstein eines Kongs "
                                     "kommen"),
    "hand.robbing_fourth": ("robbing the kong: the other three {tile} are in the pung being extended, so this hand "
                            "cannot hold another {tile2}",
                            "Kong-Raub: die anderen drei {tile} liegen im Pung, der erweitert wird, also kann diese "
                            "Hand kein weiteres {tile2} halten"),
    "hand.not_object": ("a hand must be a JSON object with 'concealed' tiles",
                        "eine Hand muss ein JSON-Objekt mit verdeckten Steinen ('concealed') sein"),
    "hand.concealed_list": ("'concealed' must be a list of tile codes", "'concealed' muss eine Liste von Steincodes sein"),
    "hand.melds_list": ("'melds' must be a list", "'melds' muss eine Liste sein"),
    "hand.flowers_list": ("'flowers' must be a list of tile codes", "'flowers' muss eine Liste von Steincodes sein"),
    "hand.bonus_in_hand": ("{tile} is a flower or season; it goes with the flowers, not in the hand",
                           "{tile} ist eine Blume oder Jahreszeit; sie gehört zu den Blumen, nicht in die Hand"),
    "hand.not_bonus": ("{tile} is not a flower or season (those are h1-h8)",
                       "{tile} ist keine Blume und keine Jahreszeit (das sind h1-h8)"),
    "hand.wind": ("{name} must be E, S, W or N, not {wind}", "{name} muss E, S, W oder N sein, nicht {wind}"),
    "hand.flag": ("{name} must be true or false", "{name} muss true oder false sein"),
    # melds (rules/melds.py)
    "meld.kind": ("{kind} is not a kind of meld (chow, pung or kong)",
                  "{kind} ist keine Art von Meldung (chow, pung oder kong)"),
    "meld.bonus": ("flowers and seasons cannot be part of a meld ({tiles})",
                   "Blumen und Jahreszeiten können nicht Teil einer Meldung sein ({tiles})"),
    "meld.concealed": ("only a kong can be declared concealed; a concealed {kind} stays in the hand",
                       "nur ein Kong kann verdeckt angesagt werden; ein verdeckter {kind} bleibt in der Hand"),
    "meld.claimed_from": ("claimed_from must be left, opposite or right, not {value}",
                          "claimed_from muss left, opposite oder right sein, nicht {value}"),
    "meld.not_object": ("each meld must be an object with 'kind' and 'tiles'",
                        "jede Meldung muss ein Objekt mit 'kind' und 'tiles' sein"),
    "meld.no_tiles": ("a meld needs a list of 'tiles'", "eine Meldung braucht eine Liste 'tiles'"),
    "meld.no_kind": ("a meld needs a 'kind' (chow, pung or kong)", "eine Meldung braucht eine Art 'kind' (chow, pung oder kong)"),
    "meld.chow_size": ("a chow has three tiles, not {n} ({tiles})", "ein Chow hat drei Steine, nicht {n} ({tiles})"),
    "meld.chow_run": ("a chow is three tiles in a row of one suit; {tiles} is not",
                      "ein Chow sind drei aufeinanderfolgende Steine einer Farbe; {tiles} ist keiner"),
    "meld.identical": ("a {kind} is {want} identical tiles; {tiles} is not", "ein {kind} sind {want} gleiche Steine; {tiles} ist keiner"),
    "meld.claimed_tile": ("the claimed tile {tile} is not in the meld {tiles}",
                          "der genommene Stein {tile} ist nicht in der Meldung {tiles}"),
    # tables (rules/table.py)
    "table.seat_number": ("{name} must be a seat number 0-3 (0 is East) or null",
                          "{name} muss eine Platznummer 0-3 (0 ist Ost) oder null sein"),
    "table.win_and_discard": ("{seat} cannot both win and discard the winning tile; leave out the discarder for a "
                              "self-drawn win",
                              "{seat} kann nicht zugleich gewinnen und den Gewinnstein abgeworfen haben; für einen "
                              "selbst gezogenen Gewinn den Abwerfer weglassen"),
    "table.two_going_out": ("only one player can go out in a hand, but {names} both have a winning tile",
                            "nur ein Spieler kann in einem Spiel gewinnen, aber {names} haben beide einen Gewinnstein"),
    "table.winner_tile": ("{seat} won, so their hand needs its winning tile",
                          "{seat} hat gewonnen, also braucht die Hand ihren Gewinnstein"),
    "table.four_seats": ("a table has four seats, not {n}", "ein Tisch hat vier Plätze, nicht {n}"),
    "table.not_object": ("a table must be a JSON object with 'seats'", "ein Tisch muss ein JSON-Objekt mit 'seats' sein"),
    "table.rules": ("a table needs 'rules': mcr, classical or beginner",
                    "ein Tisch braucht 'rules': mcr, classical oder beginner"),
    "table.options": ("'options' must be a JSON object", "'options' muss ein JSON-Objekt sein"),
    "table.prevailing_wind": ("'prevailing_wind' must be E, S, W or N", "'prevailing_wind' muss E, S, W oder N sein"),
    "table.seats": ("a table has 'seats': a list of the four players' hands, East first",
                    "ein Tisch hat 'seats': eine Liste der Hände der vier Spieler, Ost zuerst"),
    "table.two_winners": ("only one player can go out in a hand, but the table names two winners",
                          "nur ein Spieler kann in einem Spiel gewinnen, aber der Tisch nennt zwei Gewinner"),
    "table.drawn_discarder": ("a drawn hand (no winner) has nobody who discarded the winning tile",
                              "in einem Remis (ohne Gewinner) hat niemand den Gewinnstein abgeworfen"),
    "table.nobody_won": ("the table says nobody won, but {seat} has a winning tile",
                         "laut Tisch hat niemand gewonnen, aber {seat} hat einen Gewinnstein"),
    "table.too_many": ("there are {n} of {tile} on the table ({seats}), but a set has only {limit}",
                       "auf dem Tisch liegen {n}-mal {tile} ({seats}), ein Satz hat aber nur {limit}"),
    "table.seat_object": ("seat {i} ({seat}) must be a JSON object", "Platz {i} ({seat}) muss ein JSON-Objekt sein"),
    "table.seat_order": ("seats are listed in play order from East, so seat {i} is {seat} ({wind}), but it says "
                         "seat_wind {value}",
                         "die Plätze stehen in Spielreihenfolge ab Ost, Platz {i} ist also {seat} ({wind}), dort "
                         "steht aber seat_wind {value}"),
    "table.self_drawn_vs_discarder": ("{seat}'s hand says self-drawn, but the table says {other} discarded the "
                                      "winning tile",
                                      "die Hand von {seat} sagt selbst gezogen, laut Tisch hat aber {other} den "
                                      "Gewinnstein abgeworfen"),
    "table.hand_of": ("{who}'s hand: {error}", "Hand von {who}: {error}"),
    # MCR (rules/mcr/*)
    "mcr.not_winning": ("these tiles are not a winning hand: they form neither four sets and a pair nor a special "
                        "hand (seven pairs, thirteen orphans, knitted tiles)",
                        "diese Steine sind keine Gewinnhand: weder vier Sätze und ein Paar noch eine Sonderhand "
                        "(sieben Paare, dreizehn Waisen, verstreute Steine)"),
    "mcr.winner_only": ("MCR scores only the winner: give the winning tile",
                        "MCR wertet nur den Gewinner: den Gewinnstein angeben"),
    "options.unknown_mcr": ("unknown MCR option(s): {names} (known: {known})",
                            "unbekannte MCR-Option(en): {names} (bekannt: {known})"),
    "options.kong_combination": ("kong_combination must be one of {known}", "kong_combination muss eins von {known} sein"),
    "options.concealed_form": ("concealed_form_self_drawn must be one of {known}",
                               "concealed_form_self_drawn muss eins von {known} sein"),
    "options.minimum_fans": ("minimum_fans must be a whole number of 0 or more", "minimum_fans muss eine ganze Zahl ab 0 sein"),
    "options.minimum_fans_whole": ("minimum_fans must be a whole number", "minimum_fans muss eine ganze Zahl sein"),
    # classical and beginner (rules/classical/*)
    "classical.unknown_rule_set": ("unknown classical rule set {ruleset} (use classical or beginner)",
                                   "unbekanntes klassisches Regelwerk {ruleset} (classical oder beginner verwenden)"),
    "classical.other_options": ("these are options of another rule set, not of {ruleset}",
                                "das sind Optionen eines anderen Regelwerks, nicht von {ruleset}"),
    "classical.not_winning": ("these tiles are not a Mah-Jongg: a win needs four sets (chows, pungs, kongs) and a pair",
                              "diese Steine sind kein Mah-Jongg: ein Gewinn braucht vier Sätze (Chows, Pungs, Kongs) "
                              "und ein Paar"),
    "classical.not_winning_limit": ("these tiles are not a Mah-Jongg: a win needs four sets (chows, pungs, kongs) and "
                                    "a pair, or a special limit hand this table plays",
                                    "diese Steine sind kein Mah-Jongg: ein Gewinn braucht vier Sätze (Chows, Pungs, "
                                    "Kongs) und ein Paar oder ein Limit-Spiel, das an diesem Tisch gilt"),
    "options.one_of": ("option {name} must be one of {known}, not {value}",
                       "Option {name} muss eins von {known} sein, nicht {value}"),
    "options.must_be": ("option {name} must be {what}, not {value}", "Option {name} muss {what} sein, nicht {value}"),
    "options.flag": ("option {name} must be true or false, not {value}", "Option {name} muss true oder false sein, nicht {value}"),
    "options.not_object": ("options must be a JSON object of option names and values",
                           "Optionen müssen ein JSON-Objekt aus Optionsnamen und Werten sein"),
    "options.unknown": ("unknown {ruleset} option(s): {names} (known: {known})",
                        "unbekannte {ruleset}-Option(en): {names} (bekannt: {known})"),
    "options.unknown_limit_hands": ("unknown limit hand(s): {names} (known: {known})",
                                    "unbekannte(s) Limit-Spiel(e): {names} (bekannt: {known})"),
    "options.undefined_limit_hand": ("{names} (Himmelsleiter) has no agreed definition yet, so it cannot be switched on",
                                     "{names} (Himmelsleiter) hat noch keine vereinbarte Definition und kann daher "
                                     "nicht eingeschaltet werden"),
    "options.limit_hands_list": ('option limit_hands must be a list of limit-hand names, e.g. ["nine_gates"]',
                                 'Option limit_hands muss eine Liste von Namen von Limit-Spielen sein, z. B. ["nine_gates"]'),
    "options.whole": ("option {key} must be a whole number of 0 or more", "Option {key} muss eine ganze Zahl ab 0 sein"),
    "classical.no_bonus_tiles": ("this table plays without flowers and seasons (option bonus_tiles is off), but this "
                                 "hand has {tiles}",
                                 "an diesem Tisch wird ohne Blumen und Jahreszeiten gespielt (Option bonus_tiles ist "
                                 "aus), diese Hand hat aber {tiles}"),
    "classical.beginner_bonus": ("the beginners' table plays without flowers and seasons, but this hand has {tiles}",
                                 "am Anfängertisch wird ohne Blumen und Jahreszeiten gespielt, diese Hand hat aber {tiles}"),
    "classical.both_blessings": ("a hand cannot have both the Heavenly and the Earthly Blessing",
                                 "eine Hand kann nicht zugleich den Segen des Himmels und den Segen der Erde haben"),
    "classical.flags_no_win": ("{flags} describes a win, but this hand has no winning tile",
                               "{flags} beschreibt einen Gewinn, diese Hand hat aber keinen Gewinnstein"),
    "classical.heavenly_east": ("only East can have the Heavenly Blessing (winning with the dealt tiles)",
                                "nur Ost kann den Segen des Himmels haben (Gewinn mit den ausgeteilten Steinen)"),
    "classical.heavenly_self_drawn": ("the Heavenly Blessing is a win with East's own dealt tiles, so it is self-drawn",
                                      "der Segen des Himmels ist ein Gewinn mit Osts eigenen ausgeteilten Steinen, "
                                      "also selbst gezogen"),
    "classical.heavenly_kong": ("the Heavenly Blessing is a win with the fourteen dealt tiles; a declared kong does "
                                "not qualify",
                                "der Segen des Himmels ist ein Gewinn mit den vierzehn ausgeteilten Steinen; ein "
                                "angesagter Kong zählt nicht"),
    "classical.earthly_east": ("the Earthly Blessing is a win on East's first discard, so East cannot have it",
                               "der Segen der Erde ist ein Gewinn auf Osts ersten Abwurf, Ost selbst kann ihn also "
                               "nicht haben"),
    "classical.earthly_self_drawn": ("the Earthly Blessing is a win on East's first discard, so it is not self-drawn",
                                     "der Segen der Erde ist ein Gewinn auf Osts ersten Abwurf, also nicht selbst gezogen"),
    "classical.earthly_melds": ("the Earthly Blessing is a win on East's first discard with the dealt tiles, so it "
                                "has no declared melds",
                                "der Segen der Erde ist ein Gewinn auf Osts ersten Abwurf mit den ausgeteilten "
                                "Steinen, also ohne angesagte Meldungen"),
    # matches and settlement (rules/match.py, rules/settlement.py)
    "match.false_mahjong_kind": ("a false mahjong is {kinds}, not {kind}", "ein falsches Mahjong ist {kinds}, nicht {kind}"),
    "match.over": ("the match is over after {n} hands; start a new one with 'tablemate match new'",
                   "die Partie ist nach {n} Spielen vorbei; eine neue mit 'tablemate match new' beginnen"),
    "match.position_text": ("a match position must be text", "eine Partiestellung muss Text sein"),
    "match.position_fields": ("a match position has 8 fields, this one {n}: {text}",
                              "eine Partiestellung hat 8 Felder, diese {n}: {text}"),
    "match.position": ("{text} is not a match position", "{text} ist keine Partiestellung"),
    "match.payments": ("a hand's payments must be four amounts adding up to zero",
                       "die Zahlungen eines Spiels müssen vier Beträge mit der Summe null sein"),
    "match.winner_seat": ("the winner must be player 0-3", "der Gewinner muss Spieler 0-3 sein"),
    "match.names": ("a match needs four players with different names",
                    "eine Partie braucht vier Spieler mit verschiedenen Namen"),
    "match.standings_zero": ("standings must add up to zero", "die Stände müssen zusammen null ergeben"),
    "match.round_range": ("round and hand in round must be 0-3", "Runde und Spiel in der Runde müssen 0-3 sein"),
    "match.negative": ("counts cannot be negative", "Zähler können nicht negativ sein"),
    "match.empty_name": ("a player's name cannot be empty", "der Name eines Spielers darf nicht leer sein"),
    "match.each_once": ("each of the four {what} must belong to exactly one player",
                        "jeder der vier {what} muss genau einem Spieler gehören"),
    "match.no_player": ("no player called {name} in this match ({players})",
                        "in dieser Partie gibt es keinen Spieler namens {name} ({players})"),
    "settlement.fouls": ("fouls are counted from 1", "Fouls werden ab 1 gezählt"),
    # ledger and match (app/ledger.py, cli/match.py)
    "match.none": ("no match in the ledger yet; start one with 'tablemate match new'",
                   "noch keine Partie im Spielbuch; eine mit 'tablemate match new' beginnen"),
    "match.not_found": ("there is no match {id} in the ledger", "im Spielbuch gibt es keine Partie {id}"),
    "match.nothing_to_undo": ("nothing to undo: no hand or penalty has been recorded in this match",
                              "nichts rückgängig zu machen: in dieser Partie wurde noch kein Spiel und keine Strafe eingetragen"),
    "match.options_differ": ("the table's options differ from the match's in {detail}; leave them out to use the match's",
                             "die Optionen des Tisches weichen von denen der Partie ab bei {detail}; weglassen, "
                             "um die der Partie zu verwenden"),
    "match.rules_differ": ("this match is played under {rules}, but the table says {table}",
                           "diese Partie wird nach {rules} gespielt, der Tisch sagt aber {table}"),
    "match.round_differs": ("hand {n} is played in the {wind} round, but the table says prevailing wind {table}",
                            "Spiel {n} wird in der Runde {wind} gespielt, der Tisch sagt aber Rundenwind {table}"),
    "match.record_table": ("a hand to record is a table: a JSON object with 'seats'",
                           "ein einzutragendes Spiel ist ein Tisch: ein JSON-Objekt mit 'seats'"),
    "match.false_win": ("{who}'s hand is no valid win ({reason}); record it with 'tablemate match penalty {who2} "
                        "--false-mahjong'",
                        "die Hand von {who} ist kein gültiger Gewinn ({reason}); als 'tablemate match penalty {who2} "
                        "--false-mahjong' eintragen"),
    "match.penalty_kind": ("a penalty is a foul or a false mahjong, not {kind}",
                           "eine Strafe ist ein Foul oder ein falsches Mahjong, nicht {kind}"),
    "match.who_won": ("say who won with --winner PLAYER (or --draw)",
                      "sag mit --winner SPIELER (oder --draw), wer gewonnen hat"),
    "match.how_won": ("say how the hand was won: --discarder PLAYER or --self-drawn",
                      "sag, wie gewonnen wurde: --discarder SPIELER oder --self-drawn"),
    "match.drawn_hands": ("a drawn hand has no winner and no hands to give",
                          "ein Remis hat keinen Gewinner, also sind keine Hände anzugeben"),
    "match.stdin_json": ("the table on stdin is not JSON ({reason} at line {line})",
                         "der Tisch auf stdin ist kein JSON ({reason} in Zeile {line})"),
    "match.hand_twice": ("{name}'s hand is given twice", "die Hand von {name} ist zweimal angegeben"),
    "match.winner_tiles": ('give the winner\'s tiles: --hand {name} "123m ... +5p"',
                           'die Steine des Gewinners angeben: --hand {name} "123m ... +5p"'),
    "match.mark_winning": ("mark the winning tile in {name}'s hand with +, as in +5p",
                           "den Gewinnstein in der Hand von {name} mit + markieren, wie in +5p"),
    "match.every_hand": ("{rules} scores every player: give --hand for {names} too",
                         "{rules} wertet jeden Spieler: auch für {names} --hand angeben"),
    "ledger.not_ledger": ("{path} is not a tablemate ledger (not an SQLite database, or damaged); it is left as it is",
                          "{path} ist kein tablemate-Spielbuch (keine SQLite-Datenbank oder beschädigt); "
                          "die Datei bleibt unverändert"),
    "ledger.unreadable": ("cannot read the ledger {path}: {reason}", "das Spielbuch {path} ist nicht lesbar: {reason}"),
    "ledger.missing": ("there is no ledger at {path} yet; start a match with 'tablemate match new'",
                       "unter {path} gibt es noch kein Spielbuch; eine Partie mit 'tablemate match new' beginnen"),
    "ledger.migrated": ("ledger {path} migrated to schema {n}", "Spielbuch {path} auf Schema {n} umgestellt"),
    "ledger.newer": ("the ledger {path} was written by a newer tablemate (schema {version}, this one knows up to "
                     "{known}); update tablemate, the ledger is left as it is",
                     "das Spielbuch {path} stammt von einem neueren tablemate (Schema {version}, dieses kennt bis "
                     "{known}); tablemate aktualisieren, das Spielbuch bleibt unverändert"),
    "ledger.other_database": ("{path} is an SQLite database but not a tablemate ledger; it is left as it is",
                              "{path} ist eine SQLite-Datenbank, aber kein tablemate-Spielbuch; sie bleibt unverändert"),
    "ledger.damaged": ("the ledger {path} is damaged ({check}); it is left as it is",
                       "das Spielbuch {path} ist beschädigt ({check}); es bleibt unverändert"),
    "ledger.damaged_or_not": ("the ledger {path} is damaged or not a database ({reason}); it is left as it is",
                              "das Spielbuch {path} ist beschädigt oder keine Datenbank ({reason}); es bleibt unverändert"),
    "ledger.busy": ("the ledger is busy or read-only ({reason})", "das Spielbuch ist belegt oder schreibgeschützt ({reason})"),
    "ledger.cannot_open": ("cannot open the ledger {path}: {reason}", "das Spielbuch {path} lässt sich nicht öffnen: {reason}"),
    # the score and recognize commands, scoring a photo (cli/score.py, cli/recognize.py, app/photo_hand.py)
    "cli.give_hand": ("give a hand in notation (or a photo), or --jsonl to read JSON lines",
                      "gib eine Hand in Notation (oder ein Foto) an, oder --jsonl, um JSON-Zeilen zu lesen"),
    "cli.option_syntax": ("option '{pair}' must look like KEY=VALUE",
                          "Option '{pair}' muss die Form KEY=WERT haben"),
    "cli.line_json": ("this line is not JSON ({reason} at column {column})",
                      "diese Zeile ist kein JSON ({reason} in Spalte {column})"),
    "cli.overlay": ("cannot write the overlay {path}", "das Overlay-Bild {path} lässt sich nicht schreiben"),
    "cli.overlay_reason": ("cannot write the overlay {path}: {reason}",
                           "das Overlay-Bild {path} lässt sich nicht schreiben: {reason}"),
    "photo.which_side": ("say which side went out with --winner bottom|right|top|left",
                         "mit --winner bottom|right|top|left angeben, welcher Platz gewonnen hat"),
    "photo.sides": ("sides are bottom, right, top and left", "die Plätze sind bottom, right, top und left"),
    "photo.winner_discarded": ("the winner cannot have discarded the winning tile",
                               "der Gewinner kann den Gewinnstein nicht selbst abgeworfen haben"),
    "photo.no_tiles": ("no tiles were recognised on the {side} side of the table",
                       "am Platz {side} wurden keine Steine erkannt"),
    "photo.standing": ("the {side} player's tiles are still standing: lay them face up to be scored",
                       "die Steine am Platz {side} stehen noch: zum Werten offen hinlegen"),
    "photo.no_winning_tile": ("no winning tile was found on the {side} side: set it apart at the right end of the row",
                              "am Platz {side} wurde kein Gewinnstein gefunden: ihn am rechten Ende der Reihe etwas "
                              "abgesetzt hinlegen"),
    "photo.no_vision": ("scoring a photo needs the vision part of tablemate ({reason})",
                        "zum Werten eines Fotos braucht tablemate seine Bilderkennung ({reason})"),
    # the appliance at the table (app/service.py, frame_vision.py)
    "service.no_winning_tile": ("no winning tile set apart", "kein Gewinnstein abgelegt"),
    "service.winning_tiles": ("winning tiles seen at {sides}: set apart only the winner's",
                              "Gewinnsteine gesehen bei {sides}: nur den des Gewinners ablegen"),
    "service.standing": ("the {side} player's tiles are still standing: lay them face up",
                         "die Steine am Platz {side} stehen noch: offen hinlegen"),
    # vision (vision/recognize.py, vision/models.py, vision/calibration.py)
    "vision.folder": ("{path} is a folder, not an image", "{path} ist ein Ordner, kein Bild"),
    "vision.cannot_read": ("cannot read the image {path}: {reason}", "das Bild {path} ist nicht lesbar: {reason}"),
    "vision.empty": ("the image {path} is empty (0 bytes)", "das Bild {path} ist leer (0 Bytes)"),
    "vision.not_an_image": ("{path} is not an image tablemate can read (use JPEG or PNG)",
                            "{path} ist kein Bild, das tablemate lesen kann (JPEG oder PNG verwenden)"),
    "vision.too_small": ("the image {path} is too small ({size}) to show a table",
                         "das Bild {path} ist zu klein ({size}), um einen Tisch zu zeigen"),
    "vision.model_missing": ("the model file {path} is missing; reinstall tablemate or its models/ folder",
                             "die Modelldatei {path} fehlt; tablemate oder seinen Ordner models/ neu installieren"),
    "vision.model_corrupt": ("the model file {path} is corrupt (its sha256 does not match); reinstall it",
                             "die Modelldatei {path} ist beschädigt (sha256 stimmt nicht); bitte neu installieren"),
    "vision.model_classes": ("the model file {path} was made for other tile classes; reinstall it",
                             "die Modelldatei {path} wurde für andere Steinklassen erstellt; bitte neu installieren"),
    "vision.model_unloadable": ("the model file {path} cannot be loaded: {reason}",
                                "die Modelldatei {path} lässt sich nicht laden: {reason}"),
    "vision.model_no_embedding": ("the reader model has no 'embedding' output (made before enrollment); reinstall the models",
                                  "das Lesemodell hat keine Ausgabe 'embedding' (älter als das Anlernen); die Modelle "
                                  "neu installieren"),
    "vision.checksum_missing": ("the checksum file {path} is missing; reinstall the models",
                                "die Prüfsummendatei {path} fehlt; die Modelle neu installieren"),
    "vision.calibration_unreadable": ("cannot read the calibration file {path}: {reason}",
                                      "die Kalibrierdatei {path} ist nicht lesbar: {reason}"),
    "vision.calibration_not_json": ("the calibration file {path} is not JSON",
                                    "die Kalibrierdatei {path} ist kein JSON"),
    "vision.calibration_size": ("the calibration is for a {cal} image but this image is {image}",
                                "die Kalibrierung gilt für ein Bild von {cal}, dieses Bild hat aber {image}"),
    "vision.calibration_fields": ('{where} needs "image_size": [w, h] and four "corners": [[x, y], ...]',
                                  '{where} braucht "image_size": [w, h] und vier "corners": [[x, y], ...]'),
    "vision.calibration_corners": ("{where} needs an image size [w, h] and exactly four corners",
                                   "{where} braucht eine Bildgröße [w, h] und genau vier Ecken"),
    "vision.calibration_numbers": ("{where} has corners that are not numbers", "{where} hat Ecken, die keine Zahlen sind"),
    "vision.calibration_word": ("calibration", "die Kalibrierung"),
    "vision.calibration_outside": ("the calibration's corners lie outside the image",
                                   "die Ecken der Kalibrierung liegen außerhalb des Bildes"),
    "vision.calibration_no_area": ("the calibration's four corners do not outline a play area (they must go "
                                   "bottom-left, bottom-right, top-right, top-left)",
                                   "die vier Ecken der Kalibrierung umreißen keine Spielfläche (Reihenfolge: unten "
                                   "links, unten rechts, oben rechts, oben links)"),
    "vision.calibration_order": ("the calibration's corners are in the wrong order (use bottom-left, bottom-right, "
                                 "top-right, top-left)",
                                 "die Ecken der Kalibrierung stehen in der falschen Reihenfolge (unten links, unten "
                                 "rechts, oben rechts, oben links verwenden)"),
    # tile sets and enrollment (vision/tile_set.py, vision/enroll.py, cli/enroll.py; docs/enrollment.md)
    "sets.missing": ("there is no tile set named {name} in {folder}; enroll it with 'tablemate enroll IMAGE --name {name2}'",
                     "es gibt keinen Steinsatz namens {name} in {folder}; ihn mit 'tablemate enroll BILD --name {name2}' "
                     "anlernen"),
    "sets.damaged": ("the tile set file {path} is damaged or not a tile set; enroll the set again",
                     "die Steinsatz-Datei {path} ist beschädigt oder kein Steinsatz; den Satz neu anlernen"),
    "sets.other_models": ("the tile set {name} was learned for other models (the reader has been updated); "
                          "enroll the set again",
                          "der Steinsatz {name} wurde für andere Modelle angelernt (der Leser wurde erneuert); "
                          "den Satz neu anlernen"),
    "sets.bad_name": ("'{name}' is not a usable set name (use 1-40 letters, digits, - or _)",
                      "'{name}' taugt nicht als Name eines Satzes (1-40 Buchstaben, Ziffern, - oder _ verwenden)"),
    "sets.cannot_store": ("cannot store the set: {reason}", "der Steinsatz lässt sich nicht speichern: {reason}"),
    "enroll.no_area": ("no play area found in the picture; give its calibration with --calibration FILE",
                       "keine Spielfläche im Bild gefunden; ihre Kalibrierung mit --calibration DATEI angeben"),
    "enroll.too_few": ("found only {n} tiles together on the mat, but the grid has {m}; lay the set out as "
                       "docs/enrollment.md shows; nothing was stored",
                       "nur {n} Steine beieinander gefunden, das Raster hat aber {m}; den Satz wie in "
                       "docs/enrollment.md auslegen; nichts wurde gespeichert"),
    "enroll.where": ("row {r}, column {c}", "Reihe {r}, Spalte {c}"),
    "enroll.two_at": ("two tiles lie at {where}; lay the tiles about half a tile apart in rows and columns; "
                      "nothing was stored",
                      "zwei Steine liegen in {where}; die Steine in Reihen und Spalten etwa einen halben Stein "
                      "auseinander legen; nichts wurde gespeichert"),
    "enroll.beyond": ("{where}: a tile beyond the grid of {n} tiles; nothing was stored",
                      "{where}: ein Stein außerhalb des Rasters aus {n} Steinen; nichts wurde gespeichert"),
    "enroll.empty": ("{where}: no tile there ({code} belongs there); nothing was stored",
                     "{where}: dort liegt kein Stein (dorthin gehört {code}); nichts wurde gespeichert"),
    "enroll.back_wanted": ("{where}: a tile face down (its back) belongs there, but a face is up; nothing was stored",
                           "{where}: dorthin gehört ein verdeckter Stein (seine Rückseite), es liegt aber eine "
                           "Vorderseite oben; nichts wurde gespeichert"),
    "enroll.face_down": ("{where}: the tile lies face down; {code} belongs there face up; nothing was stored",
                         "{where}: der Stein liegt verdeckt; dorthin gehört {code} offen; nichts wurde gespeichert"),
    "enroll.swapped": ("{where} and {where2} are swapped ({a} lies where {b} belongs and the other way round); "
                       "nothing was stored",
                       "{where} und {where2} sind vertauscht ({a} liegt, wo {b} hingehört, und umgekehrt); "
                       "nichts wurde gespeichert"),
    "enroll.doubled": ("{where}: {a} a second time (as at {where2}) where {b} belongs; nothing was stored",
                       "{where}: {a} ein zweites Mal (wie in {where2}), wo {b} hingehört; nichts wurde gespeichert"),
    "enroll.upside_down": ("{where}: the tile ({code}) lies upside down; turn it upright as the bottom seat reads "
                           "it; nothing was stored",
                           "{where}: der Stein ({code}) liegt auf dem Kopf; ihn aufrecht drehen, wie der untere "
                           "Platz ihn liest; nichts wurde gespeichert"),
    # camera (device/camera.py)
    "camera.bad_frame": ("{path}: cannot read this image (damaged or not an image)",
                         "{path}: dieses Bild ist nicht lesbar (beschädigt oder kein Bild)"),
    "camera.no_images": ("{path}: no images ({suffixes}) in this folder",
                         "{path}: keine Bilder ({suffixes}) in diesem Ordner"),
    "camera.no_source": ("{path}: no such folder or video file", "{path}: diesen Ordner oder diese Videodatei gibt es nicht"),
    "camera.not_video": ("{path}: not a video file OpenCV can read", "{path}: keine Videodatei, die OpenCV lesen kann"),
    "camera.end_of_video": ("{path}: end of video after {n} frames", "{path}: Ende des Videos nach {n} Bildern"),
    "camera.all_read": ("{path}: all {n} images were read", "{path}: alle {n} Bilder wurden gelesen"),
    "camera.lost": ("camera {device}: lost (no frame)", "Kamera {device}: ausgefallen (kein Bild)"),
    "camera.cannot_open": ("camera {device}: cannot open it with OpenCV (not connected, busy, or the user is not in "
                           "the video group)",
                           "Kamera {device}: lässt sich mit OpenCV nicht öffnen (nicht angeschlossen, belegt oder der "
                           "Benutzer ist nicht in der Gruppe video)"),
    "camera.closed": ("the camera is closed", "die Kamera ist geschlossen"),
    "camera.unknown_source": ("unknown camera source {source}", "unbekannte Kameraquelle {source}"),
    "camera.no_path": ("camera.path is not set: a folder of images or a video file",
                       "camera.path ist nicht gesetzt: ein Ordner mit Bildern oder eine Videodatei"),
    "camera.no_picamera2": ('picamera2 is not installed: on Raspberry Pi OS install python3-picamera2 and make the '
                            'venv with --system-site-packages; elsewhere set camera.source to "opencv" or "files"',
                            'picamera2 ist nicht installiert: unter Raspberry Pi OS python3-picamera2 installieren und '
                            'das venv mit --system-site-packages anlegen; anderswo camera.source auf "opencv" oder '
                            '"files" setzen'),
    "camera.no_pi_camera": ("no Raspberry Pi camera found ({reason}); check the ribbon cable",
                            "keine Raspberry-Pi-Kamera gefunden ({reason}); Flachbandkabel prüfen"),
    "camera.pi_start": ("cannot start the Raspberry Pi camera: {reason}",
                        "die Raspberry-Pi-Kamera lässt sich nicht starten: {reason}"),
    "camera.pi_lost": ("Raspberry Pi camera lost: {reason}", "Raspberry-Pi-Kamera ausgefallen: {reason}"),
    "track.frames_unreadable": ("vision cannot read the frames ({reason}); they count as uncertain",
                                "die Bilderkennung kann die Bilder nicht lesen ({reason}); sie zählen als unsicher"),
    # display, buttons and LEDs (device/display.py, buttons.py, leds.py)
    "display.unknown_driver": ("unknown display driver {driver}", "unbekannter Display-Treiber {driver}"),
    "display.closed": ("the display is closed", "das Display ist geschlossen"),
    "display.module": ("display driver {driver} needs the Python module {module}, which is not installed (on "
                       "Raspberry Pi OS: the system package of that module, and a venv made with "
                       "--system-site-packages)",
                       "der Display-Treiber {driver} braucht das Python-Modul {module}, das nicht installiert ist "
                       "(unter Raspberry Pi OS: das Systempaket dieses Moduls und ein mit --system-site-packages "
                       "angelegtes venv)"),
    "display.cannot_open": ("cannot open the {driver} display on {bus}: {reason}. Check the wiring, that I2C/SPI is "
                            "enabled (raspi-config) and that the user is in the i2c, spi and gpio groups",
                            "das Display {driver} an {bus} lässt sich nicht öffnen: {reason}. Verkabelung prüfen, "
                            "ob I2C/SPI eingeschaltet ist (raspi-config) und ob der Benutzer in den Gruppen i2c, spi "
                            "und gpio ist"),
    "buttons.no_pin": ("no button pin for {names}", "kein Tasten-Pin für {names}"),
    "leds.no_pin": ("no LED pin for side {names}", "kein LED-Pin für den Platz {names}"),
    "leds.unknown_side": ("unknown side {side}: expected one of {sides}", "unbekannter Platz {side}: erwartet wird einer von {sides}"),
    "i18n.unknown_language": ("unknown language {language}: choose one of {languages}",
                              "unbekannte Sprache {language}: eine von {languages} wählen"),
    # the marker sheet and the demo (cli/markers.py, cli/demo.py)
    "markers.dpi": ("--dpi must be between 72 and 1200", "--dpi muss zwischen 72 und 1200 liegen"),
    "markers.png": ("the sheet is written as PNG; give a file name ending in .png",
                    "das Blatt wird als PNG geschrieben; einen Dateinamen mit der Endung .png angeben"),
    "markers.cannot_write": ("cannot write {path}: {reason}", "{path} lässt sich nicht schreiben: {reason}"),
    "demo.hands": ("expected a whole number of hands, 1 or more, got {text}",
                   "erwartet wird eine ganze Zahl von Spielen, 1 oder mehr, nicht {text}"),
    "demo.tile_width": ("expected a tile width in cm from 1.8 to 4.0, got {text}",
                        "erwartet wird eine Steinbreite in cm von 1.8 bis 4.0, nicht {text}"),
    # the config file (app/config.py)
    "config.not_found": ("{path}: config file not found", "{path}: Konfigurationsdatei nicht gefunden"),
    "config.unreadable": ("{path}: cannot read config file: {reason}", "{path}: Konfigurationsdatei nicht lesbar: {reason}"),
    "config.not_toml": ("{path}: not valid TOML: {reason}", "{path}: kein gültiges TOML: {reason}"),
    "config.not_utf8": ("the file is not UTF-8 text", "die Datei ist kein UTF-8-Text"),
    "config.players": ("players: expected four names, East first, got {value}",
                       "players: erwartet werden vier Namen, Ost zuerst, nicht {value}"),
    "config.empty_name": ("players: a name is empty", "players: ein Name ist leer"),
    "config.same_name": ("players: two players have the same name ({names})",
                         "players: zwei Spieler haben denselben Namen ({names})"),
    "config.long_name": ("players: {name} is longer than {n} characters", "players: {name} ist länger als {n} Zeichen"),
    "config.camera_path": ('camera.path: required when camera.source is "files" (a folder of images or a video file)',
                           'camera.path: nötig, wenn camera.source "files" ist (ein Ordner mit Bildern oder eine '
                           'Videodatei)'),
    "config.pin_used": ("pins.{name}: pin {pin} is already used by pins.{other}",
                        "pins.{name}: Pin {pin} ist schon durch pins.{other} belegt"),
    "config.dealer_blink": ("pins.dealer_blink: expected [seconds on, seconds off], both above 0",
                            "pins.dealer_blink: erwartet wird [Sekunden an, Sekunden aus], beide über 0"),
    "config.broker": ("club.broker: expected mqtt://HOST:PORT or mqtts://HOST:PORT, got {value}",
                      "club.broker: erwartet wird mqtt://HOST:PORT oder mqtts://HOST:PORT, nicht {value}"),
    "config.club_id": ("club.{key}: expected 1-32 letters, digits, - or _, got {value}",
                       "club.{key}: erwartet werden 1-32 Buchstaben, Ziffern, - oder _, nicht {value}"),
    "config.password": ("club.password: given without club.username", "club.password: ohne club.username angegeben"),
    "config.expected_table": ("{key}: expected a table", "{key}: erwartet wird eine Tabelle"),
    "config.expected": ("{key}: expected {wanted}, got {value}", "{key}: erwartet wird {wanted}, nicht {value}"),
    "config.not_one_of": ("{key}: {value} is not one of {choices}", "{key}: {value} ist keiner der Werte {choices}"),
    "config.outside": ("{key}: {value} is outside {low}..{high}", "{key}: {value} liegt außerhalb von {low}..{high}"),
    "config.above_zero": ("{key}: expected a number above 0, got {value}", "{key}: erwartet wird eine Zahl über 0, nicht {value}"),
    "config.at_least_zero": ("{key}: expected a number of at least 0, got {value}",
                             "{key}: erwartet wird eine Zahl ab 0, nicht {value}"),
    "config.size": ("{key}: expected [width, height] in pixels, got {value}",
                    "{key}: erwartet wird [Breite, Höhe] in Pixeln, nicht {value}"),
    "config.unknown": ("unknown setting {names}", "unbekannte Einstellung {names}"),
    # club mode (club/*; club/i18n.py takes its error texts from here)
    "club.players_file": ("cannot read the players file {path}: {reason}", "die Spielerdatei {path} ist nicht lesbar: {reason}"),
    "club.seating": ("no seating plan: {reason}", "kein Sitzplan: {reason}"),
    "club.db": ("the club database cannot be used: {reason}", "die Club-Datenbank ist nicht nutzbar: {reason}"),
    "club.broker": ("the club broker is not reachable: {reason}", "der Club-Broker ist nicht erreichbar: {reason}"),
    "club.off": ("club mode is off in {path}: set [club] enabled = true, broker, club_id and table_id",
                 "der Club-Modus ist in {path} aus: [club] enabled = true, broker, club_id und table_id setzen"),
    "club.not_sent": ("{n} events are not acknowledged by the broker yet; they stay in the outbox",
                      "{n} Ereignisse sind vom Broker noch nicht bestätigt; sie bleiben im Postausgang"),
    "club.no_tournament": ("club {club} has no tournament yet; make one with 'tablemate club seating --db ...'",
                           "Club {club} hat noch kein Turnier; eins anlegen mit 'tablemate club seating --db ...'"),
    "club.no_seating_here": ("this table has no seating yet ({path}); is the publisher running?",
                             "dieser Tisch hat noch keinen Sitzplan ({path}); läuft der Publisher?"),
    "club.db_required": ("--db postgresql://... is required", "--db postgresql://... fehlt"),
    "club.mqtt_required": ("--mqtt mqtt://HOST:PORT is required", "--mqtt mqtt://HOST:PORT fehlt"),
    "club.round_range": ("round {n}: the tournament has rounds 1-{last}", "Runde {n}: das Turnier hat die Runden 1-{last}"),
    "club.broker_url": ("a broker is mqtt://HOST:PORT or mqtts://HOST:PORT, not {url}",
                        "ein Broker ist mqtt://HOST:PORT oder mqtts://HOST:PORT, nicht {url}"),
    "club.broker_port": ("the port in {url} is not a number", "der Port in {url} ist keine Zahl"),
    "club.seating_fours": ("{n} players cannot sit at tables of four; add or remove {k} (or add byes)",
                           "{n} Spieler lassen sich nicht an Vierertische setzen; {k} hinzufügen oder entfernen "
                           "(oder Freilose hinzufügen)"),
    "club.seating_twice": ("a player's name appears twice", "ein Spielername kommt zweimal vor"),
    "club.seating_rounds": ("a tournament has at least one round", "ein Turnier hat mindestens eine Runde"),
    "club.seating_tables": ("{n} players need {k} tables, {m} table ids were given",
                            "{n} Spieler brauchen {k} Tische, angegeben wurden {m} Tisch-Ids"),
    "club.standings_method": ("standings are {methods}, not {method}", "Ranglisten gibt es als {methods}, nicht {method}"),
    "club.db_connect": ("cannot connect to the club database: {reason}",
                        "keine Verbindung zur Club-Datenbank: {reason}"),
    "club.db_newer": ("the club database has schema {version}, this tablemate knows up to {known}; update tablemate, "
                      "the database is left as it is",
                      "die Club-Datenbank hat Schema {version}, dieses tablemate kennt bis {known}; tablemate "
                      "aktualisieren, die Datenbank bleibt unverändert"),
    "club.match_not_started": ("match {match} of table {table} was never started",
                               "Partie {match} an Tisch {table} wurde nie begonnen"),
    "club.standings_differ": ("standings {claimed} do not follow from the stored ones ({stored})",
                              "die Stände {claimed} folgen nicht aus den gespeicherten ({stored})"),
    "club.broker_refused": ("the club broker refused the service: {reason}",
                            "der Club-Broker hat den Dienst abgewiesen: {reason}"),
    # club events (club/events.py): why the club service turned an event from a table away
    "event.topic": ("not a tablemate table topic: {name}", "kein Thema eines tablemate-Tisches: {name}"),
    "event.four_integers": ("body.{name} must be four integers", "body.{name} muss aus vier ganzen Zahlen bestehen"),
    "event.sum_zero": ("body.{name} must add up to zero, got {value}", "body.{name} muss zusammen null ergeben, nicht {value}"),
    "event.events_topic": ("not an events topic: {name}", "kein Ereignis-Thema: {name}"),
    "event.other_club": ("topic of club {topic}, this service serves {club}",
                         "Thema des Clubs {topic}, dieser Dienst bedient {club}"),
    "event.payload_size": ("payload of {n} bytes, the limit is {limit}", "Nutzlast von {n} Bytes, die Grenze ist {limit}"),
    "event.not_json": ("payload is not JSON ({reason})", "die Nutzlast ist kein JSON ({reason})"),
    "event.not_object": ("payload is not a JSON object", "die Nutzlast ist kein JSON-Objekt"),
    "event.schema": ("unknown schema {schema} (this service reads {known})",
                     "unbekanntes Schema {schema} (dieser Dienst liest {known})"),
    "event.missing": ("missing {names}", "es fehlt {names}"),
    "event.unknown_keys": ("unknown keys {names}", "unbekannte Schlüssel {names}"),
    "event.wrong_table": ("payload says club {club} table {table} but was published under table {topic_table} of "
                          "club {topic_club}",
                          "die Nutzlast nennt Club {club}, Tisch {table}, wurde aber unter Tisch {topic_table} des "
                          "Clubs {topic_club} veröffentlicht"),
    "event.seq": ("seq must be a positive integer, got {value}", "seq muss eine positive ganze Zahl sein, nicht {value}"),
    "event.no_zone": ("ts has no time zone", "ts hat keine Zeitzone"),
    "event.type": ("unknown type {type}", "unbekannter Typ {type}"),
    "event.body": ("body is not an object", "body ist kein Objekt"),
    "event.player": ("body.player must be 0-3", "body.player muss 0-3 sein"),
    "event.uuid": ("event_id is not a UUID: {value}", "event_id ist keine UUID: {value}"),
    "event.ts": ("ts is not an ISO 8601 time: {value}", "ts ist keine Zeit nach ISO 8601: {value}"),
    "event.without": ("{type} without body.{key}", "{type} ohne body.{key}"),
    "event.wrong_type": ("body.{key} has the wrong type ({value})", "body.{key} hat den falschen Typ ({value})"),
    "event.players": ("body.players must be four different names", "body.players müssen vier verschiedene Namen sein"),
    "event.negative": ("body.{key} is negative", "body.{key} ist negativ"),
    # words that stand in fields of the messages above (seat names, sides, type names, reasons)
    "word.east": ("East", "Ost"),
    "word.south": ("South", "Süd"),
    "word.west": ("West", "West"),
    "word.north": ("North", "Nord"),
    "word.bottom": ("bottom", "unten"),
    "word.right": ("right", "rechts"),
    "word.top": ("top", "oben"),
    "word.left": ("left", "links"),
    "word.winds": ("winds", "Winde"),
    "word.sides": ("sides", "Plätze"),
    "word.seat_wind": ("seat wind", "Platzwind"),
    "word.prevailing_wind": ("prevailing wind", "Rundenwind"),
    "word.below_minimum": ("below minimum", "unter dem Minimum"),
    "word.not_winning": ("not winning", "keine Gewinnhand"),
    "word.one": ("one", "einen"),
    "word.four": ("four", "vier"),
    "word.positive_whole": ("a positive whole number", "eine positive ganze Zahl"),
    "word.positive_whole_null": ("a positive whole number or null", "eine positive ganze Zahl oder null"),
    "word.whole": ("a whole number of 0 or more", "eine ganze Zahl ab 0"),
    "word.whole_null": ("a whole number of 0 or more or null", "eine ganze Zahl ab 0 oder null"),
    "word.integer": ("an integer", "eine ganze Zahl"),
    "word.string": ("a string", "ein Text"),
    "word.bool": ("true or false", "true oder false"),
    "word.list": ("a list", "eine Liste"),
    "word.table": ("a table", "eine Tabelle"),
    "word.number": ("a number", "eine Zahl"),
    # reasons from the system, JSON and TOML that stand in the fields of the messages above
    "os.no_such_file": ("No such file or directory", "Datei oder Ordner nicht gefunden"),
    "os.permission": ("Permission denied", "Zugriff verweigert"),
    "os.is_directory": ("Is a directory", "ist ein Ordner"),
    "os.not_directory": ("Not a directory", "ist kein Ordner"),
    "os.no_space": ("No space left on device", "kein Platz mehr auf dem Datenträger"),
    "os.read_only": ("Read-only file system", "schreibgeschütztes Dateisystem"),
    "os.errno": ("[Errno {n}] {reason}: {path}", "{reason}: {path} (Fehler {n})"),
    "json.value": ("Expecting value", "Wert erwartet"),
    "json.comma": ("Expecting ',' delimiter", "',' erwartet"),
    "json.colon": ("Expecting ':' delimiter", "':' erwartet"),
    "json.property": ("Expecting property name enclosed in double quotes", "Schlüssel in doppelten Anführungszeichen erwartet"),
    "json.extra": ("Extra data", "zusätzliche Daten"),
    "json.unterminated": ("Unterminated string starting at", "nicht abgeschlossene Zeichenkette ab"),
    "json.control": ("Invalid control character at", "ungültiges Steuerzeichen bei"),
    "json.escape": ("Invalid \\escape", "ungültige Escape-Sequenz"),
    "toml.where": ("{reason} (at line {line}, column {column})", "{reason} (Zeile {line}, Spalte {column})"),
    "toml.where_end": ("{reason} (at end of document)", "{reason} (am Ende des Dokuments)"),
    "toml.equals": ("Expected '=' after a key in a key/value pair", "nach einem Schlüssel wird '=' erwartet"),
    "toml.newline": ("Expected newline or end of document after a statement",
                     "nach einer Anweisung wird ein Zeilenende oder das Dateiende erwartet"),
    "toml.expected": ("Expected {what}", "{what} erwartet"),
    "toml.invalid_value": ("Invalid value", "ungültiger Wert"),
    "toml.invalid_statement": ("Invalid statement", "ungültige Anweisung"),
    "toml.overwrite": ("Cannot overwrite a value", "ein Wert kann nicht überschrieben werden"),
    "toml.declare_twice": ("Cannot declare {key} twice", "{key} kann nicht zweimal deklariert werden"),
    "toml.unclosed_array": ("Unclosed array", "nicht geschlossene Liste"),
    "toml.unclosed_table": ("Unclosed inline table", "nicht geschlossene Inline-Tabelle"),
    "toml.unterminated": ("Unterminated string", "nicht abgeschlossene Zeichenkette"),
    "toml.invalid_key": ("Invalid initial character for a key part", "ungültiges erstes Zeichen in einem Schlüssel"),
    "toml.illegal_character": ("Illegal character {ch}", "unzulässiges Zeichen {ch}"),
    "toml.invalid_character": ("Found invalid character {ch}", "ungültiges Zeichen {ch} gefunden"),
    "toml.date": ("Invalid date or datetime", "ungültiges Datum oder ungültige Zeit"),
    # argparse (usage errors); its messages nest: "error: argument --rules: invalid choice: ..."
    "cli.error": ("error: {message}", "Fehler: {message}"),
    "cli.argument": ("argument {arg}: {message}", "Argument {arg}: {message}"),
    "cli.invalid_choice": ("invalid choice: {value} (choose from {choices})", "ungültige Wahl: {value} (möglich: {choices})"),
    "cli.invalid_value": ("invalid {type} value: {value}", "ungültiger Wert für {type}: {value}"),
    "cli.required": ("the following arguments are required: {args}", "diese Argumente fehlen: {args}"),
    "cli.unrecognized": ("unrecognized arguments: {args}", "unbekannte Argumente: {args}"),
    "cli.one_argument": ("expected one argument", "ein Wert erwartet"),
    "cli.at_most_one": ("expected at most one argument", "höchstens ein Wert erwartet"),
    "cli.at_least_one": ("expected at least one argument", "mindestens ein Wert erwartet"),
    "cli.n_arguments": ("expected {n} arguments", "{n} Werte erwartet"),
    "cli.not_allowed": ("not allowed with argument {arg}", "nicht zusammen mit Argument {arg} erlaubt"),
    "cli.one_required": ("one of the arguments {args} is required", "eins der Argumente {args} ist nötig"),
    "cli.ambiguous": ("ambiguous option: {option} could match {matches}", "mehrdeutige Option: {option} passt zu {matches}"),
}


#: German for the joiners of a list in a field ("East and South" -> "Ost und Süd").
_JOINERS = {", ": ", ", " and ": " und ", " or ": " oder "}


def _pattern(template: str) -> re.Pattern:
    parts = re.split(r"\{(\w+)\}", template)
    regex, seen = "", set()
    for i, part in enumerate(parts):
        if i % 2 == 0:
            regex += re.escape(part)
        else:  # a field used twice must hold the same text both times
            regex += f"(?P={part})" if part in seen else f"(?P<{part}>.*?)"
            seen.add(part)
    return re.compile(regex + r"\Z", re.S)


def _literal(template: str) -> int:
    return len(re.sub(r"\{\w+\}", "", template))


#: Most specific first: of two templates that fit a message, the one with more fixed text wins.
_COMPILED = sorted(((key, _pattern(en), de) for key, (en, de) in MESSAGES.items()),
                   key=lambda entry: -_literal(MESSAGES[entry[0]][0]))


def message_id(message: str) -> str | None:
    """The id of the template a whole English message fits, else None (for tests and tools)."""
    for key, pattern, _german in _COMPILED:
        if pattern.match(message):
            return key
    return None


def localize(message: str, lang: str) -> str:
    """The message in ``lang`` ("en" returns it unchanged).

    A message that fits a template is given in German, and so is each field
    that is itself a known message (a reason inside a message, a seat name,
    a list of them). A message that fits none but ends in one after a prefix
    (``cfg.toml: players: a name is empty``) keeps the prefix. Anything else
    stays as it is.
    """
    if lang != "de" or not message:
        return message
    german = _german(message, 0)
    return message if german is None else german


def _german(message: str, depth: int) -> str | None:
    if depth > 4:
        return None
    for _key, pattern, german in _COMPILED:
        m = pattern.match(message)
        if m:
            return german.format(**{name: _field(value, depth) for name, value in m.groupdict().items()})
    for sep, joiner in _JOINERS.items():  # a list of known words
        if sep in message:
            parts = [_german(part, depth + 1) for part in message.split(sep)]
            if all(part is not None for part in parts):
                return joiner.join(parts)  # type: ignore[arg-type]
    start = message.find(": ")
    while start != -1:  # a prefix (a file, a setting) before a known message
        rest = _german(message[start + 2:], depth + 1)
        if rest is not None:
            return message[:start + 2] + rest
        start = message.find(": ", start + 1)
    return None


def _field(value: str, depth: int) -> str:
    german = _german(value, depth + 1) if value else None
    return value if german is None else german


#: What stays in front of a message on stderr: the command ("tablemate run: "), argparse's "usage: ",
#: the service's log level ("INFO ").
_PREFIX = re.compile(r"^((?:tablemate|usage)[\w .-]*: |(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) )?(.*)$", re.S)


class LocalizedStream:
    """A text stream that translates each line written to it (the CLI's stderr).

    Lines start with ``tablemate COMMAND: `` and then the message; the prefix
    stays, the message is translated. ``explicit`` says the language was asked
    for on the command line, so a config file's ``language`` does not change it.
    """

    def __init__(self, stream: TextIO, lang: str, explicit: bool = False) -> None:
        self.stream, self.lang, self.explicit, self._buffer = stream, lang, explicit, ""

    def write(self, text: str) -> int:
        self._buffer += text
        while "\n" in self._buffer:
            line, self._buffer = self._buffer.split("\n", 1)
            self.stream.write(self._line(line) + "\n")
        return len(text)

    def _line(self, line: str) -> str:
        if self.lang == "en":
            return line
        m = _PREFIX.match(line)
        prefix, message = m.group(1) or "", m.group(2)
        if prefix == "usage: " and self.lang == "de":
            prefix = "Aufruf: "
        return prefix + localize(message, self.lang)

    def flush(self) -> None:
        if self._buffer:
            self.stream.write(self._line(self._buffer))
            self._buffer = ""
        self.stream.flush()

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


def language_of(argv: list[str], default: str | None) -> str | None:
    """The language asked for on a command line (``--lang de``, ``--language=de``), else ``default``."""
    for i, arg in enumerate(argv):
        for flag in ("--lang", "--language"):
            if arg == flag and i + 1 < len(argv):
                return argv[i + 1]
            if arg.startswith(flag + "="):
                return arg.split("=", 1)[1]
    return default


@contextlib.contextmanager
def localized_stderr(lang: str, explicit: bool = False) -> Iterator[None]:
    """While inside, lines written to stderr are in ``lang``; the old stream comes back after.

    The stream is installed for English too, so that a command can switch to
    the language its config file names (:func:`follow_config_language`).
    """
    if isinstance(sys.stderr, LocalizedStream):
        yield
        return
    old = sys.stderr
    sys.stderr = LocalizedStream(old, lang, explicit)
    try:
        yield
    finally:
        sys.stderr.flush()
        sys.stderr = old


def follow_config_language(lang: str) -> None:
    """Messages from now on in the config file's ``language``, unless ``--lang`` was given."""
    stream = sys.stderr
    if isinstance(stream, LocalizedStream) and not stream.explicit and lang in ("en", "de"):
        stream.flush()
        stream.lang = lang
