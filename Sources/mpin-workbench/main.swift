import WorkbenchCLI

await WorkbenchCommand.runCommandLine()
