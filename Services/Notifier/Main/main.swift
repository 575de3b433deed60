import GuardianNotifier

await NotifierService.main()
