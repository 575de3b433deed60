import Foundation
import GuardianCLI
import GuardianCommandRouter
import GuardianConsole
import GuardianGeofence
import GuardianIngest
import GuardianMCP
import GuardianNotifier
import GuardianPredictor
import GuardianTimeline

// `guardian-all`: Guardian's nine programs in one executable, so that the image carries their
// shared code and the Swift runtime once. The name it is run as picks the program (the image links
// each program's name to it); else its first argument does (`guardian-all ingest`).
let programs: KeyValuePairs<String, ([String]) async -> Void> = [
    "ingest": { _ in await IngestService.main() },
    "geofence": { _ in await GeofenceService.main() },
    "timeline": { _ in await TimelineService.main() },
    "predictor": { _ in await PredictorService.main() },
    "command-router": { _ in await CommandRouterService.main() },
    "notifier": { _ in await NotifierService.main() },
    "console": { _ in await Console.main() },
    "guardian-mcp": { _ in await GuardianMCPServer.main() },
    "guardian": { await GuardianCommand.main(arguments: $0) },
]
var arguments = Array(CommandLine.arguments.dropFirst())
var name = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
if !programs.contains(where: { $0.key == name }), let first = arguments.first {
    name = first
    arguments.removeFirst()
}
guard let program = programs.first(where: { $0.key == name })?.value else {
    let names = programs.map(\.key).joined(separator: ", ")
    FileHandle.standardError.write(Data("usage: guardian-all PROGRAM [ARGUMENT...] (or run it under a program's name); PROGRAM: \(names)\n".utf8))
    exit(64)
}
await program(arguments)
