"""The `tablemate` command line: one module per subcommand, argument parsing and printing only."""
