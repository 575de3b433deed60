// Compiled only once guardian-bench depends on GuardianPredictor, so the package keeps building
// until Package.swift declares that target.
#if canImport(GuardianPredictor)
import Foundation
import GuardianPredictor

/// Single-row latency and batch throughput of the native XGBoost evaluator on the bundled
/// purchase-predictor model, beside xgboost's own figures for the same model measured in the
/// same run by `scripts/training/bench_xgboost.py`. Without that comparison the section fails
/// (`make bench` installs xgboost first): the ratio is the figure that says the native predictor
/// is worth having.
struct PredictorBenchmark {
    var predictions = Int(ProcessInfo.processInfo.environment["GUARDIAN_BENCH_PREDICTIONS"] ?? "") ?? 100_000
    var batchRows = 10_000
    var xgboostRows = 2_000
    var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    func run() throws {
        let directory = root.appendingPathComponent("Models/purchase-predictor")
        let modelURL = directory.appendingPathComponent("model.json")
        let model = try XGBoostModel(json: Data(contentsOf: modelURL))
        let vectors = try ModelVectors(json: Data(contentsOf: directory.appendingPathComponent("vectors.json")))
        let rows = vectors.rows.map(\.features)
        print("== predictor (purchase-predictor, \(model.treeCount) trees, inputs: the \(rows.count) vector rows) ==")
        let (maxDiff, worstIndex) = try vectors.maxAbsoluteDifference(model: model)
        print(String(format: "parity with xgboost's vectors: max |diff| %.3g (row %d)   goal <= 1e-6  %@",
                     maxDiff, worstIndex, maxDiff <= ModelVectors.tolerance ? "met" : "NOT MET"))

        var sink = 0.0
        for index in 0..<10_000 {
            sink += try model.probability(rows[index % rows.count])
        }
        var nanos = [UInt64](repeating: 0, count: predictions)
        for index in 0..<predictions {
            let row = rows[index % rows.count]
            let start = DispatchTime.now().uptimeNanoseconds
            sink += try model.probability(row)
            nanos[index] = DispatchTime.now().uptimeNanoseconds - start
        }
        nanos.sort()
        let median = Double(nanos[nanos.count / 2]) / 1000
        let p99 = Double(nanos[nanos.count * 99 / 100]) / 1000

        let batch = (0..<batchRows).map { rows[$0 % rows.count] }
        var best = UInt64.max
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            sink += try model.probabilities(batch: batch)[0]
            best = min(best, DispatchTime.now().uptimeNanoseconds - start)
        }
        let rowsPerSecond = Double(batchRows) / (Double(best) / 1e9)
        precondition(sink.isFinite)

        let swiftSingle = String(format: "predictor single row: swift median %.2f µs, p99 %.2f µs", median, p99)
        let swiftBatch = String(format: "predictor batch of %d: swift %.0f rows/s", batchRows, rowsPerSecond)
        switch xgboostFigures(model: modelURL) {
        case .success(let xgboost):
            let ratio = xgboost.perRowMicros.median / median
            print(swiftSingle + String(format: "; xgboost inplace_predict median %.0f µs; ratio %.0fx  goal >= 10x  %@",
                                       xgboost.perRowMicros.median, ratio, ratio >= 10 ? "met" : "NOT MET"))
            let xgboostBest = max(xgboost.batchRowsPerSecond, xgboost.batchRowsPerSecondInplace)
            print(swiftBatch + String(format: "; xgboost DMatrix predict %.0f rows/s, inplace_predict %.0f rows/s; ratio %.1fx",
                                      xgboost.batchRowsPerSecond, xgboost.batchRowsPerSecondInplace, rowsPerSecond / xgboostBest))
            print("  (xgboost \(xgboost.xgboostVersion), nthread \(xgboost.nthread), its own \(xgboost.rows) synthetic rows;"
                + " swift single-threaded; per-row times include the clock read)")
        case .failure(let reason):
            print(swiftSingle)
            print(swiftBatch)
            throw reason
        }
    }

    struct XGBoostFigures: Decodable {
        struct Latency: Decodable {
            let median: Double
            let p99: Double
        }
        let perRowMicros: Latency
        let batchRowsPerSecond: Double
        let batchRowsPerSecondInplace: Double
        let rows: Int
        let nthread: Int
        let xgboostVersion: String
    }

    /// Why the comparison with xgboost could not run.
    struct Skipped: Error, CustomStringConvertible {
        let reason: String
        init(description: String) { reason = description }
        var description: String {
            "the predictor's comparison with xgboost cannot run: \(reason) (make bench installs it: pip install -r scripts/training/requirements.txt)"
        }
    }

    /// Runs `bench_xgboost.py` on `model` (one thread, `xgboostRows` calls and batch rows).
    func xgboostFigures(model: URL) -> Result<XGBoostFigures, Skipped> {
        let script = root.appendingPathComponent("scripts/training/bench_xgboost.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--model", model.path, "--rows", "\(xgboostRows)", "--nthread", "1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            return .failure(Skipped(description: "cannot run /usr/bin/env python3 (\(error))"))
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        if process.terminationStatus == 127 {
            return .failure(Skipped(description: "python3 not found"))
        }
        guard process.terminationStatus == 0 else {
            let last = lines.last(where: { !$0.isEmpty }) ?? "no output"
            return .failure(Skipped(description: "bench_xgboost.py exited with \(process.terminationStatus): \(last)"))
        }
        guard let json = lines.last(where: { $0.hasPrefix("{") }),
              let figures = try? JSONDecoder().decode(XGBoostFigures.self, from: Data(json.utf8))
        else {
            return .failure(Skipped(description: "bench_xgboost.py printed no result"))
        }
        return .success(figures)
    }
}
#endif
