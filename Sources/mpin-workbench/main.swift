import WorkbenchCLI

WorkbenchCommand.main()
