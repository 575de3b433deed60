import Foundation
import GuardianTestSupport

// `make bench`: every figure beside a baseline measured in the same run.
// GUARDIAN_BENCH_ONLY=ingest,handler,geofence,predictor,timeline,interpreter,pipeline,notifier,notifier-handler,trust,load
// runs some sections (load: the whole pipeline under many devices, see PipelineLoadBenchmark).
let executables = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let only = Set((ProcessInfo.processInfo.environment["GUARDIAN_BENCH_ONLY"] ?? "").split(separator: ",").map(String.init))
func wanted(_ section: String) -> Bool { only.isEmpty || only.contains(section) }
do {
    if wanted("ingest") { try await IngestBenchmark(executables: executables).run() }
    if wanted("handler") { try await IngestPipelineBenchmark(count: 20_000).run() }
    if wanted("geofence") { ZoneIndexBenchmark().run() }
    if wanted("predictor") { try PredictorBenchmark().run() }
    if wanted("timeline") { try TimelineBenchmark().run() }
    if wanted("interpreter") { try InterpreterBenchmark().run() }
    if wanted("pipeline") { try await PipelineLatencyBenchmark(executables: executables).run() }
    if wanted("notifier") { try await NotifierBenchmark(executables: executables).run() }
    if wanted("notifier") || wanted("notifier-handler") { try await NotifierHandlerBenchmark().run() }
    if wanted("trust") { try await TrustBenchmark(executables: executables).run() }
    if wanted("load") {
        // Latency, memory and saturation with one fix in 5 entering a zone (every stage busy), then
        // saturation with one fix in 50 (still far more zone entries than phones make), which the
        // throughput goal is judged on: see the README.
        try await PipelineLoadBenchmark(executables: executables).run()
        var typical = PipelineLoadBenchmark(executables: executables)
        typical.walk.stepsPerZone = 50
        typical.pacedPhase = false
        typical.mix = ("typical", true)
        try await typical.run()
    }
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
