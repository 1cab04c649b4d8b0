"""Player-facing error messages in the user's language, translated where they are shown.

Why at the boundary: errors are raised in English deep in ``rules/``,
``vision/`` and ``device/`` (``str(err)`` is the message), and the language
is only known where a message reaches a person: the CLI's stderr, the
display and the page. Each entry below is an id with the English template
exactly as raised; a shown message that fits an English template is given
in the user's language, with the same fields, from the gettext catalogs
(docs/translations.md). A message with no entry stays English, so a new
error is never lost, only untranslated.

Why each template's id is its msgctxt (``msg(id, english)``): the id is what
code and tests name a message by (the club's ``ERRORS``,
:func:`message_id`), and the English may repeat elsewhere with another
meaning: the fields' words here ("one", "East", "a table") are fragments of
a sentence whose German depends on their place in it ("einen", not "eins").
"""
from __future__ import annotations

import contextlib
import functools
import re
import sys
from typing import Iterator, TextIO

from ..locale import LANGUAGES, Keyed, msg

# Terms (as in i18n.py and i18n_classical.py) for translators: Stein/Steine (tile), Gewinnstein, Meldung (meld),
# Satz (a set of four tiles; Steinsatz for the players' own set), Pung/Kong/Chow, Blumen und Jahreszeiten,
# Spiel (one hand of a match), Hand (a player's tiles), Partie (match), Spielbuch (ledger), Platz (seat),
# Ost/Süd/West/Nord, Remis (drawn hand), selbst gezogen.
_ERRORS = Keyed([
    # notation (rules/notation.py, rules/tiles.py)
    msg("notation.no_tiles", "no tiles given"),
    msg("notation.needs_suit", "'{text}': the numbers {digits} need a suit letter m, p or s"),
    msg("notation.numbers_first", "{ch} in {text} needs the numbers before it, as in 123{letter}"),
    msg("notation.flowers", "'{text}': flowers and seasons are written h1 .. h8"),
    msg("notation.not_a_meld", "'{text}' is not a meld: a meld has three or four tiles"),
    msg("notation.concealed_kong", "{text}: braces mark a concealed kong, which has four identical tiles"),
    msg("notation.unmatched_bracket", "'{token}' has an unmatched bracket"),
    msg("notation.one_winning_tile", "only one winning tile may be marked with +"),
    msg("notation.mark_one", "{token}: mark exactly one winning tile, as in +5p"),
    msg("notation.winning_twice", "the winning tile is given twice, differently"),
    msg("notation.not_a_tile", "'{ch}' in '{text}' is not part of a tile (use 1-9 with m/p/s, E S W N, C F P, h1-h8)"),
    msg("tiles.not_a_code", "{code} is not a tile code (use 1m-9m, 1p-9p, 1s-9s, E S W N, C F P, h1-h8)"),
    msg("tiles.not_a_wind", "{code} is not a wind (use E, S, W or N)"),
    msg("rules.unknown_rule_set", "unknown rule set {rules} (use {known})"),
    # hands (rules/hand.py)
    msg("hand.tile_count", "{what} has {want} tiles{kongs}, but this one has {size}"),
    msg("hand.what_winning", "a winning hand"),
    msg("hand.what_not_out", "a hand that did not go out"),
    msg("hand.kongs", " (a kong counts as three)"),
    msg("hand.five_of_a_tile", "there are {n} of {tile} in this hand (melds included), but a set has only four"),
    msg("hand.bonus_twice", "there is only one of each flower and season, but {tiles} appears twice"),
    msg("hand.robbing_self_drawn", "robbing the kong means winning on another player's tile, so it cannot be "
                                   "self-drawn"),
    msg("hand.replacement_self_drawn", "a kong's replacement tile is drawn from the wall, so that win is self-drawn"),
    msg("hand.replacement_no_kong", "winning on a kong's replacement tile needs a declared kong, and this hand has "
                                    "none"),
    msg("hand.robbing_and_replacement", "a win cannot both rob a kong and come from a kong's replacement tile"),
    msg("hand.robbing_fourth", "robbing the kong: the other three {tile} are in the pung being extended, so this "
                               "hand cannot hold another {tile2}"),
    msg("hand.not_object", "a hand must be a JSON object with 'concealed' tiles"),
    msg("hand.concealed_list", "'concealed' must be a list of tile codes"),
    msg("hand.melds_list", "'melds' must be a list"),
    msg("hand.flowers_list", "'flowers' must be a list of tile codes"),
    msg("hand.bonus_in_hand", "{tile} is a flower or season; it goes with the flowers, not in the hand"),
    msg("hand.not_bonus", "{tile} is not a flower or season (those are h1-h8)"),
    msg("hand.wind", "{name} must be E, S, W or N, not {wind}"),
    msg("hand.flag", "{name} must be true or false"),
    # melds (rules/melds.py)
    msg("meld.kind", "{kind} is not a kind of meld (chow, pung or kong)"),
    msg("meld.bonus", "flowers and seasons cannot be part of a meld ({tiles})"),
    msg("meld.concealed", "only a kong can be declared concealed; a concealed {kind} stays in the hand"),
    msg("meld.claimed_from", "claimed_from must be left, opposite or right, not {value}"),
    msg("meld.not_object", "each meld must be an object with 'kind' and 'tiles'"),
    msg("meld.no_tiles", "a meld needs a list of 'tiles'"),
    msg("meld.no_kind", "a meld needs a 'kind' (chow, pung or kong)"),
    msg("meld.chow_size", "a chow has three tiles, not {n} ({tiles})"),
    msg("meld.chow_run", "a chow is three tiles in a row of one suit; {tiles} is not"),
    msg("meld.identical", "a {kind} is {want} identical tiles; {tiles} is not"),
    msg("meld.claimed_tile", "the claimed tile {tile} is not in the meld {tiles}"),
    # tables (rules/table.py)
    msg("table.seat_number", "{name} must be a seat number 0-3 (0 is East) or null"),
    msg("table.win_and_discard", "{seat} cannot both win and discard the winning tile; leave out the discarder for "
                                 "a self-drawn win"),
    msg("table.two_going_out", "only one player can go out in a hand, but {names} both have a winning tile"),
    msg("table.winner_tile", "{seat} won, so their hand needs its winning tile"),
    msg("table.four_seats", "a table has four seats, not {n}"),
    msg("table.not_object", "a table must be a JSON object with 'seats'"),
    msg("table.rules", "a table needs 'rules': mcr, classical or beginner"),
    msg("table.options", "'options' must be a JSON object"),
    msg("table.prevailing_wind", "'prevailing_wind' must be E, S, W or N"),
    msg("table.seats", "a table has 'seats': a list of the four players' hands, East first"),
    msg("table.two_winners", "only one player can go out in a hand, but the table names two winners"),
    msg("table.drawn_discarder", "a drawn hand (no winner) has nobody who discarded the winning tile"),
    msg("table.nobody_won", "the table says nobody won, but {seat} has a winning tile"),
    msg("table.too_many", "there are {n} of {tile} on the table ({seats}), but a set has only {limit}"),
    msg("table.seat_object", "seat {i} ({seat}) must be a JSON object"),
    msg("table.seat_order", "seats are listed in play order from East, so seat {i} is {seat} ({wind}), but it says "
                            "seat_wind {value}"),
    msg("table.self_drawn_vs_discarder", "{seat}'s hand says self-drawn, but the table says {other} discarded the "
                                         "winning tile"),
    msg("table.hand_of", "{who}'s hand: {error}"),
    # MCR (rules/mcr/*)
    msg("mcr.not_winning", "these tiles are not a winning hand: they form neither four sets and a pair nor a "
                           "special hand (seven pairs, thirteen orphans, knitted tiles)"),
    msg("mcr.winner_only", "MCR scores only the winner: give the winning tile"),
    msg("options.unknown_mcr", "unknown MCR option(s): {names} (known: {known})"),
    msg("options.kong_combination", "kong_combination must be one of {known}"),
    msg("options.concealed_form", "concealed_form_self_drawn must be one of {known}"),
    msg("options.minimum_fans", "minimum_fans must be a whole number of 0 or more"),
    msg("options.minimum_fans_whole", "minimum_fans must be a whole number"),
    # classical and beginner (rules/classical/*)
    msg("classical.unknown_rule_set", "unknown classical rule set {ruleset} (use classical or beginner)"),
    msg("classical.other_options", "these are options of another rule set, not of {ruleset}"),
    msg("classical.not_winning", "these tiles are not a Mah-Jongg: a win needs four sets (chows, pungs, kongs) and "
                                 "a pair"),
    msg("classical.not_winning_limit", "these tiles are not a Mah-Jongg: a win needs four sets (chows, pungs, "
                                       "kongs) and a pair, or a special limit hand this table plays"),
    msg("options.one_of", "option {name} must be one of {known}, not {value}"),
    msg("options.must_be", "option {name} must be {what}, not {value}"),
    msg("options.flag", "option {name} must be true or false, not {value}"),
    msg("options.not_object", "options must be a JSON object of option names and values"),
    msg("options.unknown", "unknown {ruleset} option(s): {names} (known: {known})"),
    msg("options.unknown_limit_hands", "unknown limit hand(s): {names} (known: {known})"),
    msg("options.undefined_limit_hand", "{names} (Himmelsleiter) has no agreed definition yet, so it cannot be "
                                        "switched on"),
    msg("options.limit_hands_list", "option limit_hands must be a list of limit-hand names, e.g. [\"nine_gates\"]"),
    msg("options.whole", "option {key} must be a whole number of 0 or more"),
    msg("classical.no_bonus_tiles", "this table plays without flowers and seasons (option bonus_tiles is off), but "
                                    "this hand has {tiles}"),
    msg("classical.beginner_bonus", "the beginners' table plays without flowers and seasons, but this hand has "
                                    "{tiles}"),
    msg("classical.both_blessings", "a hand cannot have both the Heavenly and the Earthly Blessing"),
    msg("classical.flags_no_win", "{flags} describes a win, but this hand has no winning tile"),
    msg("classical.heavenly_east", "only East can have the Heavenly Blessing (winning with the dealt tiles)"),
    msg("classical.heavenly_self_drawn", "the Heavenly Blessing is a win with East's own dealt tiles, so it is "
                                         "self-drawn"),
    msg("classical.heavenly_kong", "the Heavenly Blessing is a win with the fourteen dealt tiles; a declared kong "
                                   "does not qualify"),
    msg("classical.earthly_east", "the Earthly Blessing is a win on East's first discard, so East cannot have it"),
    msg("classical.earthly_self_drawn", "the Earthly Blessing is a win on East's first discard, so it is not "
                                        "self-drawn"),
    msg("classical.earthly_melds", "the Earthly Blessing is a win on East's first discard with the dealt tiles, so "
                                   "it has no declared melds"),
    # matches and settlement (rules/match.py, rules/settlement.py)
    msg("match.false_mahjong_kind", "a false mahjong is {kinds}, not {kind}"),
    msg("match.over", "the match is over after {n} hands; start a new one with 'tablemate match new'"),
    msg("match.position_text", "a match position must be text"),
    msg("match.position_fields", "a match position has 8 fields, this one {n}: {text}"),
    msg("match.position", "{text} is not a match position"),
    msg("match.payments", "a hand's payments must be four amounts adding up to zero"),
    msg("match.winner_seat", "the winner must be player 0-3"),
    msg("match.names", "a match needs four players with different names"),
    msg("match.standings_zero", "standings must add up to zero"),
    msg("match.round_range", "round and hand in round must be 0-3"),
    msg("match.negative", "counts cannot be negative"),
    msg("match.empty_name", "a player's name cannot be empty"),
    msg("match.each_once", "each of the four {what} must belong to exactly one player"),
    msg("match.no_player", "no player called {name} in this match ({players})"),
    msg("settlement.fouls", "fouls are counted from 1"),
    # ledger and match (app/ledger.py, cli/match.py)
    msg("match.none", "no match in the ledger yet; start one with 'tablemate match new'"),
    msg("match.not_found", "there is no match {id} in the ledger"),
    msg("match.nothing_to_undo", "nothing to undo: no hand or penalty has been recorded in this match"),
    msg("match.options_differ", "the table's options differ from the match's in {detail}; leave them out to use "
                                "the match's"),
    msg("match.rules_differ", "this match is played under {rules}, but the table says {table}"),
    msg("match.round_differs", "hand {n} is played in the {wind} round, but the table says prevailing wind {table}"),
    msg("match.record_table", "a hand to record is a table: a JSON object with 'seats'"),
    msg("match.false_win", "{who}'s hand is no valid win ({reason}); record it with 'tablemate match penalty "
                           "{who2} --false-mahjong'"),
    msg("match.penalty_kind", "a penalty is a foul or a false mahjong, not {kind}"),
    msg("match.who_won", "say who won with --winner PLAYER (or --draw)"),
    msg("match.how_won", "say how the hand was won: --discarder PLAYER or --self-drawn"),
    msg("match.drawn_hands", "a drawn hand has no winner and no hands to give"),
    msg("match.stdin_json", "the table on stdin is not JSON ({reason} at line {line})"),
    msg("match.hand_twice", "{name}'s hand is given twice"),
    msg("match.winner_tiles", "give the winner's tiles: --hand {name} \"123m ... +5p\""),
    msg("match.mark_winning", "mark the winning tile in {name}'s hand with +, as in +5p"),
    msg("match.every_hand", "{rules} scores every player: give --hand for {names} too"),
    msg("ledger.not_ledger", "{path} is not a tablemate ledger (not an SQLite database, or damaged); it is left as "
                             "it is"),
    msg("ledger.unreadable", "cannot read the ledger {path}: {reason}"),
    msg("ledger.missing", "there is no ledger at {path} yet; start a match with 'tablemate match new'"),
    msg("ledger.migrated", "ledger {path} migrated to schema {n}"),
    msg("ledger.newer", "the ledger {path} was written by a newer tablemate (schema {version}, this one knows up "
                        "to {known}); update tablemate, the ledger is left as it is"),
    msg("ledger.other_database", "{path} is an SQLite database but not a tablemate ledger; it is left as it is"),
    msg("ledger.damaged", "the ledger {path} is damaged ({check}); it is left as it is"),
    msg("ledger.damaged_or_not", "the ledger {path} is damaged or not a database ({reason}); it is left as it is"),
    msg("ledger.busy", "the ledger is busy or read-only ({reason})"),
    msg("ledger.cannot_open", "cannot open the ledger {path}: {reason}"),
    # the score and recognize commands, scoring a photo (cli/score.py, cli/recognize.py, app/photo_hand.py)
    msg("cli.give_hand", "give a hand in notation (or a photo), or --jsonl to read JSON lines"),
    msg("cli.option_syntax", "option '{pair}' must look like KEY=VALUE"),
    msg("cli.line_json", "this line is not JSON ({reason} at column {column})"),
    msg("cli.overlay", "cannot write the overlay {path}"),
    msg("cli.overlay_reason", "cannot write the overlay {path}: {reason}"),
    msg("photo.which_side", "say which side went out with --winner bottom|right|top|left"),
    msg("photo.sides", "sides are bottom, right, top and left"),
    msg("photo.winner_discarded", "the winner cannot have discarded the winning tile"),
    msg("photo.no_tiles", "no tiles were recognised on the {side} side of the table"),
    msg("photo.standing", "the {side} player's tiles are still standing: lay them face up to be scored"),
    msg("photo.no_winning_tile", "no winning tile was found on the {side} side: set it apart at the right end of "
                                 "the row"),
    msg("photo.no_vision", "scoring a photo needs the vision part of tablemate ({reason})"),
    # the appliance at the table (app/service.py, frame_vision.py)
    msg("service.no_winning_tile", "no winning tile set apart"),
    msg("service.winning_tiles", "winning tiles seen at {sides}: set apart only the winner's"),
    msg("service.standing", "the {side} player's tiles are still standing: lay them face up"),
    # vision (vision/recognize.py, vision/models.py, vision/calibration.py)
    msg("vision.folder", "{path} is a folder, not an image"),
    msg("vision.cannot_read", "cannot read the image {path}: {reason}"),
    msg("vision.empty", "the image {path} is empty (0 bytes)"),
    msg("vision.not_an_image", "{path} is not an image tablemate can read (use JPEG or PNG)"),
    msg("vision.too_small", "the image {path} is too small ({size}) to show a table"),
    msg("vision.model_missing", "the model file {path} is missing; reinstall tablemate or its models/ folder"),
    msg("vision.model_corrupt", "the model file {path} is corrupt (its sha256 does not match); reinstall it"),
    msg("vision.model_classes", "the model file {path} was made for other tile classes; reinstall it"),
    msg("vision.model_unloadable", "the model file {path} cannot be loaded: {reason}"),
    msg("vision.model_no_embedding", "the reader model has no 'embedding' output (made before enrollment); "
                                     "reinstall the models"),
    msg("vision.checksum_missing", "the checksum file {path} is missing; reinstall the models"),
    msg("vision.calibration_unreadable", "cannot read the calibration file {path}: {reason}"),
    msg("vision.calibration_not_json", "the calibration file {path} is not JSON"),
    msg("vision.calibration_size", "the calibration is for a {cal} image but this image is {image}"),
    msg("vision.calibration_fields", "{where} needs \"image_size\": [w, h] and four \"corners\": [[x, y], ...]"),
    msg("vision.calibration_corners", "{where} needs an image size [w, h] and exactly four corners"),
    msg("vision.calibration_numbers", "{where} has corners that are not numbers"),
    msg("vision.calibration_word", "calibration"),
    msg("vision.calibration_outside", "the calibration's corners lie outside the image"),
    msg("vision.calibration_no_area", "the calibration's four corners do not outline a play area (they must go "
                                      "bottom-left, bottom-right, top-right, top-left)"),
    msg("vision.calibration_order", "the calibration's corners are in the wrong order (use bottom-left, "
                                    "bottom-right, top-right, top-left)"),
    # tile sets and enrollment (vision/tile_set.py, vision/enroll.py, cli/enroll.py; docs/enrollment.md)
    msg("sets.missing", "there is no tile set named {name} in {folder}; enroll it with 'tablemate enroll IMAGE "
                        "--name {name2}'"),
    msg("sets.damaged", "the tile set file {path} is damaged or not a tile set; enroll the set again"),
    msg("sets.older", "the tile set file {path} was made by an older tablemate; enroll the set again"),
    msg("sets.other_models", "the tile set {name} was learned for other models (the reader has been updated); "
                             "enroll the set again"),
    msg("sets.bad_name", "'{name}' is not a usable set name (use 1-40 letters, digits, - or _)"),
    msg("sets.cannot_store", "cannot store the set: {reason}"),
    msg("enroll.no_area", "no play area found in the picture; give its calibration with --calibration FILE"),
    msg("enroll.too_few", "found only {n} tiles together on the mat, but the grid has {m}; lay the set out as "
                          "docs/enrollment.md shows; nothing was stored"),
    msg("enroll.where", "row {r}, column {c}"),
    msg("enroll.two_at", "two tiles lie at {where}; lay the tiles about half a tile apart in rows and columns; "
                         "nothing was stored"),
    msg("enroll.beyond", "{where}: a tile beyond the grid of {n} tiles; nothing was stored"),
    msg("enroll.empty", "{where}: no tile there ({code} belongs there); nothing was stored"),
    msg("enroll.back_wanted", "{where}: a tile face down (its back) belongs there, but a face is up; nothing was "
                              "stored"),
    msg("enroll.face_down", "{where}: the tile lies face down; {code} belongs there face up; nothing was stored"),
    msg("enroll.swapped", "{where} and {where2} are swapped ({a} lies where {b} belongs and the other way round); "
                          "nothing was stored"),
    msg("enroll.doubled", "{where}: {a} a second time (as at {where2}) where {b} belongs; nothing was stored"),
    msg("enroll.upside_down", "{where}: the tile ({code}) lies upside down; turn it upright as the bottom seat "
                              "reads it; nothing was stored"),
    # camera (device/camera.py)
    msg("camera.bad_frame", "{path}: cannot read this image (damaged or not an image)"),
    msg("camera.no_images", "{path}: no images ({suffixes}) in this folder"),
    msg("camera.no_source", "{path}: no such folder or video file"),
    msg("camera.not_video", "{path}: not a video file OpenCV can read"),
    msg("camera.end_of_video", "{path}: end of video after {n} frames"),
    msg("camera.all_read", "{path}: all {n} images were read"),
    msg("camera.lost", "camera {device}: lost (no frame)"),
    msg("camera.cannot_open", "camera {device}: cannot open it with OpenCV (not connected, busy, or the user is "
                              "not in the video group)"),
    msg("camera.closed", "the camera is closed"),
    msg("camera.unknown_source", "unknown camera source {source}"),
    msg("camera.no_path", "camera.path is not set: a folder of images or a video file"),
    msg("camera.no_picamera2", "picamera2 is not installed: on Raspberry Pi OS install python3-picamera2 and make "
                               "the venv with --system-site-packages; elsewhere set camera.source to \"opencv\" or "
                               "\"files\""),
    msg("camera.no_pi_camera", "no Raspberry Pi camera found ({reason}); check the ribbon cable"),
    msg("camera.pi_start", "cannot start the Raspberry Pi camera: {reason}"),
    msg("camera.pi_lost", "Raspberry Pi camera lost: {reason}"),
    msg("track.frames_unreadable", "vision cannot read the frames ({reason}); they count as uncertain"),
    # display, buttons and LEDs (device/display.py, buttons.py, leds.py)
    msg("display.unknown_driver", "unknown display driver {driver}"),
    msg("display.closed", "the display is closed"),
    msg("display.module", "display driver {driver} needs the Python module {module}, which is not installed (on "
                          "Raspberry Pi OS: the system package of that module, and a venv made with "
                          "--system-site-packages)"),
    msg("display.cannot_open", "cannot open the {driver} display on {bus}: {reason}. Check the wiring, that "
                               "I2C/SPI is enabled (raspi-config) and that the user is in the i2c, spi and gpio "
                               "groups"),
    msg("buttons.no_pin", "no button pin for {names}"),
    msg("leds.no_pin", "no LED pin for side {names}"),
    msg("leds.unknown_side", "unknown side {side}: expected one of {sides}"),
    msg("i18n.unknown_language", "unknown language {language}: choose one of {languages}"),
    # the marker sheet and the demo (cli/markers.py, cli/demo.py)
    msg("markers.dpi", "--dpi must be between 72 and 1200"),
    msg("markers.png", "the sheet is written as PNG; give a file name ending in .png"),
    msg("markers.cannot_write", "cannot write {path}: {reason}"),
    msg("demo.hands", "expected a whole number of hands, 1 or more, got {text}"),
    msg("demo.tile_width", "expected a tile width in cm from 1.8 to 4.0, got {text}"),
    # the config file (app/config.py)
    msg("config.not_found", "{path}: config file not found"),
    msg("config.unreadable", "{path}: cannot read config file: {reason}"),
    msg("config.not_toml", "{path}: not valid TOML: {reason}"),
    msg("config.not_utf8", "the file is not UTF-8 text"),
    msg("config.players", "players: expected four names, East first, got {value}"),
    msg("config.empty_name", "players: a name is empty"),
    msg("config.same_name", "players: two players have the same name ({names})"),
    msg("config.long_name", "players: {name} is longer than {n} characters"),
    msg("config.camera_path", "camera.path: required when camera.source is \"files\" (a folder of images or a "
                              "video file)"),
    msg("config.pin_used", "pins.{name}: pin {pin} is already used by pins.{other}"),
    msg("config.dealer_blink", "pins.dealer_blink: expected [seconds on, seconds off], both above 0"),
    msg("config.broker", "club.broker: expected mqtt://HOST:PORT or mqtts://HOST:PORT, got {value}"),
    msg("config.club_id", "club.{key}: expected 1-32 letters, digits, - or _, got {value}"),
    msg("config.password", "club.password: given without club.username"),
    msg("config.expected_table", "{key}: expected a table"),
    msg("config.expected", "{key}: expected {wanted}, got {value}"),
    msg("config.not_one_of", "{key}: {value} is not one of {choices}"),
    msg("config.outside", "{key}: {value} is outside {low}..{high}"),
    msg("config.above_zero", "{key}: expected a number above 0, got {value}"),
    msg("config.at_least_zero", "{key}: expected a number of at least 0, got {value}"),
    msg("config.size", "{key}: expected [width, height] in pixels, got {value}"),
    msg("config.unknown", "unknown setting {names}"),
    # club mode (club/*; club/i18n.py takes its error texts from here)
    msg("club.players_file", "cannot read the players file {path}: {reason}"),
    msg("club.seating", "no seating plan: {reason}"),
    msg("club.db", "the club database cannot be used: {reason}"),
    msg("club.broker", "the club broker is not reachable: {reason}"),
    msg("club.off", "club mode is off in {path}: set [club] enabled = true, broker, club_id and table_id"),
    msg("club.not_sent", "{n} events are not acknowledged by the broker yet; they stay in the outbox"),
    msg("club.no_tournament", "club {club} has no tournament yet; make one with 'tablemate club seating --db ...'"),
    msg("club.no_seating_here", "this table has no seating yet ({path}); is the publisher running?"),
    msg("club.db_required", "--db postgresql://... is required"),
    msg("club.mqtt_required", "--mqtt mqtt://HOST:PORT is required"),
    msg("club.round_range", "round {n}: the tournament has rounds 1-{last}"),
    msg("club.broker_url", "a broker is mqtt://HOST:PORT or mqtts://HOST:PORT, not {url}"),
    msg("club.broker_port", "the port in {url} is not a number"),
    msg("club.seating_fours", "{n} players cannot sit at tables of four; add or remove {k} (or add byes)"),
    msg("club.seating_twice", "a player's name appears twice"),
    msg("club.seating_rounds", "a tournament has at least one round"),
    msg("club.seating_tables", "{n} players need {k} tables, {m} table ids were given"),
    msg("club.standings_method", "standings are {methods}, not {method}"),
    msg("club.db_connect", "cannot connect to the club database: {reason}"),
    msg("club.db_newer", "the club database has schema {version}, this tablemate knows up to {known}; update "
                         "tablemate, the database is left as it is"),
    msg("club.match_not_started", "match {match} of table {table} was never started"),
    msg("club.standings_differ", "standings {claimed} do not follow from the stored ones ({stored})"),
    msg("club.broker_refused", "the club broker refused the service: {reason}"),
    # club events (club/events.py): why the club service turned an event from a table away
    msg("event.topic", "not a tablemate table topic: {name}"),
    msg("event.four_integers", "body.{name} must be four integers"),
    msg("event.sum_zero", "body.{name} must add up to zero, got {value}"),
    msg("event.events_topic", "not an events topic: {name}"),
    msg("event.other_club", "topic of club {topic}, this service serves {club}"),
    msg("event.payload_size", "payload of {n} bytes, the limit is {limit}"),
    msg("event.not_json", "payload is not JSON ({reason})"),
    msg("event.not_object", "payload is not a JSON object"),
    msg("event.schema", "unknown schema {schema} (this service reads {known})"),
    msg("event.missing", "missing {names}"),
    msg("event.unknown_keys", "unknown keys {names}"),
    msg("event.wrong_table", "payload says club {club} table {table} but was published under table {topic_table} "
                             "of club {topic_club}"),
    msg("event.seq", "seq must be a positive integer, got {value}"),
    msg("event.no_zone", "ts has no time zone"),
    msg("event.type", "unknown type {type}"),
    msg("event.body", "body is not an object"),
    msg("event.player", "body.player must be 0-3"),
    msg("event.uuid", "event_id is not a UUID: {value}"),
    msg("event.ts", "ts is not an ISO 8601 time: {value}"),
    msg("event.without", "{type} without body.{key}"),
    msg("event.wrong_type", "body.{key} has the wrong type ({value})"),
    msg("event.players", "body.players must be four different names"),
    msg("event.negative", "body.{key} is negative"),
    # what a button press or a page tap does (app/actions.py), the phone page (web/, cli/run.py)
    msg("action.enrolling", "the table is learning a tile set; finish it (NEXT) first"),
    msg("action.nothing_to_confirm", "there is no scored hand to confirm"),
    msg("action.four_names", "a match needs four players' names, East first"),
    msg("action.calibration", "a calibration is four corners, each [x, y] in pixels of the frame"),
    msg("action.enroll_first", "start an enrollment first"),
    msg("action.tile_list", "'{what}' must be a list of tile codes"),
    msg("action.hand_object", "a hand to score is a JSON object"),
    msg("action.who_won", "say who went out"),
    msg("action.who_discarded", "say who discarded the winning tile, or that it was self-drawn"),
    msg("action.enroll_steps", "enrollment: start, still or back"),
    msg("page.address", "the phone page is at {url}"),
    msg("page.off", "the phone page is off: {reason}"),
    msg("page.cannot_listen", "the phone page could not listen on {address}"),
    msg("page.slow_start", "the phone page did not start in time"),
    msg("page.frame", "the frame cannot be encoded"),
    # words that stand in fields of the messages above (seat names, sides, type names, reasons)
    msg("word.east", "East"),
    msg("word.south", "South"),
    msg("word.west", "West"),
    msg("word.north", "North"),
    msg("word.bottom", "bottom"),
    msg("word.right", "right"),
    msg("word.top", "top"),
    msg("word.left", "left"),
    msg("word.winds", "winds"),
    msg("word.sides", "sides"),
    msg("word.seat_wind", "seat wind"),
    msg("word.prevailing_wind", "prevailing wind"),
    msg("word.below_minimum", "below minimum"),
    msg("word.not_winning", "not winning"),
    msg("word.one", "one"),
    msg("word.four", "four"),
    msg("word.positive_whole", "a positive whole number"),
    msg("word.positive_whole_null", "a positive whole number or null"),
    msg("word.whole", "a whole number of 0 or more"),
    msg("word.whole_null", "a whole number of 0 or more or null"),
    msg("word.integer", "an integer"),
    msg("word.string", "a string"),
    msg("word.bool", "true or false"),
    msg("word.list", "a list"),
    msg("word.table", "a table"),
    msg("word.number", "a number"),
    # reasons from the system, JSON and TOML that stand in the fields of the messages above
    msg("os.no_such_file", "No such file or directory"),
    msg("os.permission", "Permission denied"),
    msg("os.is_directory", "Is a directory"),
    msg("os.not_directory", "Not a directory"),
    msg("os.no_space", "No space left on device"),
    msg("os.read_only", "Read-only file system"),
    msg("os.errno", "[Errno {n}] {reason}: {path}"),
    msg("json.value", "Expecting value"),
    msg("json.comma", "Expecting ',' delimiter"),
    msg("json.colon", "Expecting ':' delimiter"),
    msg("json.property", "Expecting property name enclosed in double quotes"),
    msg("json.extra", "Extra data"),
    msg("json.unterminated", "Unterminated string starting at"),
    msg("json.control", "Invalid control character at"),
    msg("json.escape", "Invalid \\escape"),
    msg("toml.where", "{reason} (at line {line}, column {column})"),
    msg("toml.where_end", "{reason} (at end of document)"),
    msg("toml.equals", "Expected '=' after a key in a key/value pair"),
    msg("toml.newline", "Expected newline or end of document after a statement"),
    msg("toml.expected", "Expected {what}"),
    msg("toml.invalid_value", "Invalid value"),
    msg("toml.invalid_statement", "Invalid statement"),
    msg("toml.overwrite", "Cannot overwrite a value"),
    msg("toml.declare_twice", "Cannot declare {key} twice"),
    msg("toml.unclosed_array", "Unclosed array"),
    msg("toml.unclosed_table", "Unclosed inline table"),
    msg("toml.unterminated", "Unterminated string"),
    msg("toml.invalid_key", "Invalid initial character for a key part"),
    msg("toml.illegal_character", "Illegal character {ch}"),
    msg("toml.invalid_character", "Found invalid character {ch}"),
    msg("toml.date", "Invalid date or datetime"),
    # argparse (usage errors); its messages nest: "error: argument --rules: invalid choice: ..."
    msg("cli.error", "error: {message}"),
    msg("cli.argument", "argument {arg}: {message}"),
    msg("cli.invalid_choice", "invalid choice: {value} (choose from {choices})"),
    msg("cli.invalid_value", "invalid {type} value: {value}"),
    msg("cli.required", "the following arguments are required: {args}"),
    msg("cli.unrecognized", "unrecognized arguments: {args}"),
    msg("cli.one_argument", "expected one argument"),
    msg("cli.at_most_one", "expected at most one argument"),
    msg("cli.at_least_one", "expected at least one argument"),
    msg("cli.n_arguments", "expected {n} arguments"),
    msg("cli.not_allowed", "not allowed with argument {arg}"),
    msg("cli.one_required", "one of the arguments {args} is required"),
    msg("cli.ambiguous", "ambiguous option: {option} could match {matches}"),
])

#: id: the English template exactly as raised (the msgid). Fields are ``{name}``.
MESSAGES: dict[str, str] = _ERRORS.english

#: The joiners of a list in a field ("East and South" -> "Ost und Süd"), tried in this order.
_JOINERS = Keyed([msg("list.comma", ", "), msg("list.and", " and "), msg("list.or", " or ")])

#: What argparse puts before its usage line.
_USAGE = Keyed([msg("cli.usage", "usage: ")])


def template(key: str, lang: str) -> str:
    """The template of message ``key`` in ``lang`` (its English if the catalog has none)."""
    return _ERRORS.template(lang, key)


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


@functools.cache
def _compiled() -> list[tuple[str, re.Pattern]]:
    """Every template as a pattern, most specific first: of two that fit a message, the one with more fixed text wins.

    Why on first use and not at import: compiling the few hundred patterns
    took 130 ms of every ``tablemate`` command's start here (roughly half a
    second on a Pi 4), and most commands never show an error.
    """
    return sorted(((key, _pattern(en)) for key, en in MESSAGES.items()),
                  key=lambda entry: -_literal(MESSAGES[entry[0]]))


def message_id(message: str) -> str | None:
    """The id of the template a whole English message fits, else None (for tests and tools)."""
    for key, pattern in _compiled():
        if pattern.match(message):
            return key
    return None


def localize(message: str, lang: str) -> str:
    """The message in ``lang`` ("en", or a language without a catalog, returns it unchanged).

    A message that fits a template is translated, and so is each field that
    is itself a known message (a reason inside a message, a seat name, a list
    of them). A message that fits none but ends in one after a prefix
    (``cfg.toml: players: a name is empty``) keeps the prefix. Anything else
    stays as it is.
    """
    if lang == "en" or lang not in LANGUAGES or not message:
        return message
    translated = _translate(message, lang, 0)
    return message if translated is None else translated


def _translate(message: str, lang: str, depth: int) -> str | None:
    if depth > 4:
        return None
    for key, pattern in _compiled():
        m = pattern.match(message)
        if m:
            return template(key, lang).format(**{name: _field(value, lang, depth)
                                                 for name, value in m.groupdict().items()})
    for key, sep in _JOINERS.english.items():  # a list of known words
        if sep in message:
            parts = [_translate(part, lang, depth + 1) for part in message.split(sep)]
            if all(part is not None for part in parts):
                return _JOINERS(lang, key).join(parts)  # type: ignore[arg-type]
    start = message.find(": ")
    while start != -1:  # a prefix (a file, a setting) before a known message
        rest = _translate(message[start + 2:], lang, depth + 1)
        if rest is not None:
            return message[:start + 2] + rest
        start = message.find(": ", start + 1)
    return None


def _field(value: str, lang: str, depth: int) -> str:
    translated = _translate(value, lang, depth + 1) if value else None
    return value if translated is None else translated


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
        if prefix == "usage: " and self.lang in LANGUAGES:
            prefix = _USAGE(self.lang, "cli.usage")
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
    if isinstance(stream, LocalizedStream) and not stream.explicit and lang in LANGUAGES:
        stream.flush()
        stream.lang = lang
