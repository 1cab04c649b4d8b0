"""The appliance without hardware: service loop, ledger, config, screens, and the actions a button press and a page tap share."""
