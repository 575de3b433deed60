import GuardianConsole

await Console.main()
