import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GRDB
import GuardianShared
import Logging

/// Delivers queued webhook POSTs concurrently, retrying with exponential backoff (in wall-clock
/// time), so a slow or failing endpoint never holds up anyone else's notifications.
struct WebhookDispatcher: Sendable {
    let store: ServiceStore
    let logger: Logger
    let counters: Counters
    var maxAttempts = 10
    var baseDelay = 1.0
    var maxDelay = 300.0
    var timeout = 5.0

    struct Job: Sendable {
        var seq: Int64
        var url: String
        var body: Data
        var attempts: Int
    }

    func run(every interval: Duration = .milliseconds(200)) async {
        let session = URLSession(configuration: .ephemeral)
        while !Task.isCancelled {
            await deliverDue(session: session)
            try? await Task.sleep(for: interval)
        }
    }

    func deliverDue(session: URLSession) async {
        let now = Timestamp.now()
        let jobs = (try? store.read { db in
            try Row.fetchAll(db, sql: "SELECT seq, url, body, attempts FROM webhooks WHERE next_at <= ? ORDER BY seq LIMIT 64", arguments: [now.milliseconds])
                .map { Job(seq: $0["seq"], url: $0["url"], body: $0["body"], attempts: $0["attempts"]) }
        }) ?? []
        guard !jobs.isEmpty else { return }
        let outcomes = await withTaskGroup(of: (Job, Bool).self) { group in
            for job in jobs { group.addTask { (job, await post(job, session: session)) } }
            var all: [(Job, Bool)] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        do {
            try store.write { db in
                for (job, ok) in outcomes {
                    if ok || job.attempts + 1 >= maxAttempts {
                        try db.execute(sql: "DELETE FROM webhooks WHERE seq = ?", arguments: [job.seq])
                    } else {
                        let delay = min(maxDelay, baseDelay * pow(2, Double(job.attempts)))
                        try db.execute(
                            sql: "UPDATE webhooks SET attempts = attempts + 1, next_at = ? WHERE seq = ?",
                            arguments: [now.adding(seconds: delay).milliseconds, job.seq])
                    }
                }
            }
        } catch {
            logger.error("cannot update the webhook queue", metadata: [LogKey.error: "\(error)"])
        }
        for (job, ok) in outcomes {
            if ok {
                counters.increment("webhookDelivered")
            } else if job.attempts + 1 >= maxAttempts {
                counters.increment("webhookAbandoned")
                logger.warning("webhook abandoned after \(maxAttempts) attempts", metadata: ["webhook.url": "\(job.url)"])
            } else {
                counters.increment("webhookRetries")
            }
        }
    }

    private func post(_ job: Job, session: URLSession) async -> Bool {
        guard let url = URL(string: job.url) else { return false }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = job.body
        do {
            let (_, response) = try await session.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode).map { (200..<300).contains($0) } ?? false
        } catch {
            return false
        }
    }
}
