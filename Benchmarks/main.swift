import Foundation
import GuardianTestSupport

// `make bench`: every figure beside a baseline measured in the same run.
// GUARDIAN_BENCH_ONLY=ingest|handler runs one section.
let executables = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let only = ProcessInfo.processInfo.environment["GUARDIAN_BENCH_ONLY"]
do {
    if only == nil || only == "ingest" { try await IngestBenchmark(executables: executables).run() }
    if only == nil || only == "handler" { try await IngestPipelineBenchmark(count: 20_000).run() }
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
