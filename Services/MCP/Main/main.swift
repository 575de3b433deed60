import GuardianMCP

await GuardianMCPServer.main()
