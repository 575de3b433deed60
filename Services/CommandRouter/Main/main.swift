import GuardianCommandRouter

await CommandRouterService.main()
