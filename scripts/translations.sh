#!/usr/bin/env bash
# The translation workflow of docs/translations.md, with the options every catalog is written with.
#   bash scripts/translations.sh update    extract every marked text into build/tablemate.pot and
#                                          merge it into tablemate/locale/{en,de}/LC_MESSAGES/tablemate.po
#   bash scripts/translations.sh compile   compile the .po files into the .mo files the appliance reads
# Needs Babel in .venv (the test extra installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL=${PYBABEL:-.venv/bin/pybabel}
WIDTH=120
case "${1:-}" in
    update)
        mkdir -p build
        "$PYBABEL" extract -F babel.cfg --add-location=file --sort-output -w "$WIDTH" \
            --project tablemate --copyright-holder "tablemate contributors" \
            -o build/tablemate.pot .
        # No fuzzy matching: a guessed German text would be skipped by compile anyway and only hide that
        # a text is new; obsolete entries go, git keeps them.
        "$PYBABEL" update -i build/tablemate.pot -d tablemate/locale -D tablemate -w "$WIDTH" \
            --no-fuzzy-matching --ignore-obsolete
        ;;
    compile)
        "$PYBABEL" compile -d tablemate/locale -D tablemate --statistics
        ;;
    *)
        echo "usage: bash scripts/translations.sh update|compile" >&2
        exit 2
        ;;
esac
