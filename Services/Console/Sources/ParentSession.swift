import Foundation
import GuardianShared
import Logging
import MQTT
import Synchronization

/// One parent signed in: their own broker connection (their id and password, nobody else's), what
/// it delivered so far, and the browsers listening for changes.
final class ParentSession: Sendable {
    /// The cookie's value: 256 random bits.
    let id: String
    let parent: String
    /// Every form of this session carries it; a POST without it is refused.
    let csrfToken: String
    let client: MQTTClient
    let settings: ConsoleSettings
    let logger: Logger
    let view = Mutex(FamilyView())
    private let lastUsed: Mutex<ContinuousClock.Instant>
    private let disconnectedSince = Mutex<ContinuousClock.Instant?>(nil)
    private let listeners = Mutex<[UUID: AsyncStream<LiveSection>.Continuation]>([:])

    var topics: Topics { settings.topics }

    private init(parent: String, client: MQTTClient, settings: ConsoleSettings, logger: Logger) {
        id = SessionToken.make()
        csrfToken = SessionToken.make()
        self.parent = parent
        self.client = client
        self.settings = settings
        self.logger = logger
        lastUsed = Mutex(.now)
    }

    /// Connects to the broker as `parent` with `password`. A refusal by the broker (wrong id or
    /// password) is `signInRefused`; nothing is kept of a failed attempt.
    static func open(parent: String, password: String, settings: ConsoleSettings, logger: Logger) async throws(ConsoleError) -> ParentSession {
        let client: MQTTClient
        do {
            client = try MQTTClient(configuration: settings.mqttConfiguration(parent: parent, password: password), logger: logger)
        } catch {
            throw .brokerUnavailable("\(error)")
        }
        let session = ParentSession(parent: parent, client: client, settings: settings, logger: logger)
        do {
            try await session.subscribe()
            try await client.connect(timeout: .seconds(10))
            // The broker sends a subscription's retained messages right after acknowledging it, so once
            // this later one is acknowledged, the family, policies and days are in the view: the first
            // page after sign-in is whole, not "no family" for a moment.
            _ = try await client.subscribe("\(settings.topics.prefix)/parents/\(parent)/activity-replies/signin-\(SessionToken.make(bytes: 6))")
        } catch {
            await client.shutdown(flushTimeout: .zero)
            if case .connectionRefused = error { throw .signInRefused }
            throw .brokerUnavailable("\(error)")
        }
        return session
    }

    /// Signs out: the parent's broker connection closes and every open page is told.
    func close() async {
        let open = listeners.withLock { all in
            defer { all = [:] }
            return Array(all.values)
        }
        open.forEach { $0.finish() }
        await client.shutdown(flushTimeout: .seconds(1))
    }

    func touch() { lastUsed.withLock { $0 = .now } }

    var lastActivity: ContinuousClock.Instant { lastUsed.withLock { $0 } }

    func idle(for limit: Duration, now: ContinuousClock.Instant = .now) -> Bool {
        lastUsed.withLock { now - $0 > limit }
    }

    /// Whether the broker connection has been down for longer than `grace` (the broker kicks a
    /// client whose roles change, and the client reconnects at once; one refused for good stays down).
    func connectionLost(for grace: Duration, now: ContinuousClock.Instant = .now) -> Bool {
        let connected = client.isConnected
        return disconnectedSince.withLock { since in
            if connected {
                since = nil
                return false
            }
            let start = since ?? now
            since = start
            return now - start > grace
        }
    }

    /// The changes to pass to one open page, until it goes away or the session ends.
    func changes() -> (id: UUID, stream: AsyncStream<LiveSection>) {
        let (stream, continuation) = AsyncStream<LiveSection>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        listeners.withLock { $0[id] = continuation }
        // "Online" and "ends in" change with time alone: refresh them (and keep the stream alive).
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(30))
                continuation.yield(.children)
            }
        }
        continuation.onTermination = { [weak self] _ in
            ticker.cancel()
            self?.listeners.withLock { _ = $0.removeValue(forKey: id) }
        }
        return (id, stream)
    }

    func announce(_ sections: Set<LiveSection>) {
        guard !sections.isEmpty else { return }
        let open = listeners.withLock { Array($0.values) }
        for continuation in open { for section in sections { continuation.yield(section) } }
    }

    var listenerCount: Int { listeners.withLock { $0.count } }
}
