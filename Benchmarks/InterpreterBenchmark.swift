// Compiled only once guardian-bench depends on GuardianCommandRouter, so the package keeps building
// until Package.swift declares that target.
#if canImport(GuardianCommandRouter)
import Foundation
import GuardianCommandRouter

/// The built-in interpreter over the command-router corpus: interpretations per second, µs per
/// command (mean, median, p99), and the accuracy on the tuning corpus and the held-out set, each
/// against its goal.
struct InterpreterBenchmark {
    var rounds = Int(ProcessInfo.processInfo.environment["GUARDIAN_BENCH_INTERPRETER_ROUNDS"] ?? "") ?? 200
    var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    func run() throws {
        let url = root.appendingPathComponent("Tests/CommandRouterTests/Fixtures/corpus.json")
        let corpus = try InterpreterCorpus(contentsOf: url)
        let interpreter = BuiltInInterpreter()
        let inputs = corpus.cases.map { ($0.text, $0.now ?? corpus.now, $0.timeZone ?? corpus.timeZone) }
        print("== interpreter (built-in, \(inputs.count) corpus phrasings) ==")

        let score = corpus.score { interpreter.interpret($0, now: $1, timeZone: $2) }
        print(String(format: "corpus accuracy: %d/%d = %.1f%%   goal >= 95%%  %@",
                     score.correct, score.total, score.accuracy * 100, score.accuracy >= 0.95 ? "met" : "NOT MET"))
        for failure in score.failures.prefix(5) { print("  miss: \"\(failure.text)\"") }
        let heldOut = try InterpreterCorpus(contentsOf: root.appendingPathComponent("Tests/CommandRouterTests/Fixtures/held-out-issue30.json"))
        let heldOutScore = heldOut.score { interpreter.interpret($0, now: $1, timeZone: $2) }
        print(String(format: "held-out accuracy (issue #30 set): %d/%d = %.1f%%   goal >= 95%%  %@",
                     heldOutScore.correct, heldOutScore.total, heldOutScore.accuracy * 100, heldOutScore.accuracy >= 0.95 ? "met" : "NOT MET"))
        for failure in heldOutScore.failures.prefix(5) { print("  miss: \"\(failure.text)\"") }

        var sink = 0
        for (text, now, zone) in inputs {
            if case .command = interpreter.interpret(text, now: now, timeZone: zone) { sink += 1 }
        }
        var nanos: [UInt64] = []
        nanos.reserveCapacity(rounds * inputs.count)
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<rounds {
            for (text, now, zone) in inputs {
                let t0 = DispatchTime.now().uptimeNanoseconds
                if case .command = interpreter.interpret(text, now: now, timeZone: zone) { sink += 1 }
                nanos.append(DispatchTime.now().uptimeNanoseconds - t0)
            }
        }
        let total = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        precondition(sink > 0)
        nanos.sort()
        let count = Double(nanos.count)
        let mean = Double(nanos.reduce(0, +)) / count / 1000
        let median = Double(nanos[nanos.count / 2]) / 1000
        let p99 = Double(nanos[nanos.count * 99 / 100]) / 1000
        print(String(format: "interpreter: %.0f interpretations/s, %.1f µs per command (median %.1f, p99 %.1f)   goal < 50 µs  %@",
                     count / total, mean, median, p99, mean < 50 ? "met" : "NOT MET"))
    }
}
#endif
