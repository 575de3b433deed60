import GuardianIngest

await IngestService.main()
