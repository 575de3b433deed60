import GuardianGeofence

await GeofenceService.main()
