import Logging
import ServiceLifecycle
import Synchronization

/// The signed-in sessions, by their random id. As a `Service` it signs out sessions left idle
/// longer than `idleExpiry` or whose broker connection stayed down longer than `connectionGrace`,
/// and everyone on graceful shutdown.
final class SessionStore: Service, Sendable {
    let idleExpiry: Duration
    let connectionGrace: Duration
    let logger: Logger
    private let sessions = Mutex<[String: ParentSession]>([:])

    init(idleExpiry: Duration, connectionGrace: Duration = .seconds(60), logger: Logger) {
        self.idleExpiry = idleExpiry
        self.connectionGrace = connectionGrace
        self.logger = logger
    }

    /// The most sessions one parent keeps open (each holds a broker connection); signing in once
    /// more signs out their least recently used one.
    static let maxPerParent = 8

    func insert(_ session: ParentSession) async {
        let evicted = sessions.withLock { all -> ParentSession? in
            all[session.id] = session
            let theirs = all.values.filter { $0.parent == session.parent }
            guard theirs.count > Self.maxPerParent, let oldest = theirs.min(by: { $0.lastActivity < $1.lastActivity }) else { return nil }
            return all.removeValue(forKey: oldest.id)
        }
        logger.info("parent signed in", metadata: ["console.parent": "\(session.parent)"])
        if let evicted { await evicted.close() }
    }

    /// The session with this id, if it is still open; it counts as activity.
    func session(_ id: String?) -> ParentSession? {
        guard let id, SessionToken.isWellFormed(id) else { return nil }
        guard let session = sessions.withLock({ $0[id] }), !session.idle(for: idleExpiry) else { return nil }
        session.touch()
        return session
    }

    func signOut(_ session: ParentSession) async {
        guard sessions.withLock({ $0.removeValue(forKey: session.id) }) != nil else { return }
        await session.close()
        logger.info("parent signed out", metadata: ["console.parent": "\(session.parent)"])
    }

    var count: Int { sessions.withLock { $0.count } }

    func run() async throws {
        let interval = min(idleExpiry / 4, connectionGrace / 4, .seconds(30))
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                await self.expireIdle()
            }
        }
        await closeAll()
    }

    func expireIdle() async {
        let expired = sessions.withLock { all in
            let idle = all.values.filter { $0.idle(for: idleExpiry) || $0.connectionLost(for: connectionGrace) }
            for session in idle { all.removeValue(forKey: session.id) }
            return idle
        }
        for session in expired {
            await session.close()
            logger.info("session closed: idle, or its broker connection lost", metadata: ["console.parent": "\(session.parent)"])
        }
    }

    func closeAll() async {
        let all = sessions.withLock { all in
            defer { all = [:] }
            return Array(all.values)
        }
        for session in all { await session.close() }
    }
}
