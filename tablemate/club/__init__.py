"""Club and tournament mode (docs/club.md).

Each table's Pi publishes its ledger events over MQTT (``publisher``); one
club service stores them in PostgreSQL (``store``, ``service``), keeps the
standings (``standings``), makes seating plans (``seating``) and shows the
board (``board``). Only the publisher runs on a Pi; it needs paho-mqtt. The
service needs the ``club`` extra: ``pip install tablemate[club]``.
"""
