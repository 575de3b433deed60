import GuardianTimeline

await TimelineService.main()
