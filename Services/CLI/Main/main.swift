import GuardianCLI

await GuardianCommand.main(arguments: nil)
