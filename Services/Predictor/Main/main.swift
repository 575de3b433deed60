import GuardianPredictor

await PredictorService.main()
