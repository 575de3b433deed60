import Foundation
import GRDB
import GuardianShared
import GuardianTestSupport
import Testing

@Suite("ServiceStore: one transaction for a burst of messages")
struct ServiceStoreTransactionTests {
    static let migrations: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE marks (value INTEGER NOT NULL UNIQUE)") }
        return migrator
    }()

    func makeStore(in data: TemporaryDirectory) throws -> ServiceStore {
        try ServiceStore(path: data.url.appendingPathComponent("t.sqlite").path, migrations: Self.migrations, logger: .init(label: "test"))
    }

    func values(_ store: ServiceStore) throws -> [Int] {
        try store.read { db in try Int.fetchAll(db, sql: "SELECT value FROM marks ORDER BY value") }
    }

    func insert(_ values: [Int], into store: ServiceStore) throws {
        try store.write { db in
            for value in values { try db.execute(sql: "INSERT INTO marks VALUES (?)", arguments: [value]) }
        }
    }

    @Test("writes inside join it; a failing write undoes only itself; reads inside see what was written")
    func joins() throws {
        let data = try TemporaryDirectory()
        let store = try makeStore(in: data)
        try store.inOneTransaction {
            try insert([1], into: store)
            #expect(throws: StorageError.self) { try insert([2, 1], into: store) }  // 1 is taken: 2 goes too
            try insert([3], into: store)
            #expect(try values(store) == [1, 3])
        }
        #expect(try values(store) == [1, 3])
        // After it, writes are their own transactions again.
        try insert([4], into: store)
        #expect(try values(store) == [1, 3, 4])
    }

    @Test("one inside another is the same transaction")
    func nested() throws {
        let data = try TemporaryDirectory()
        let store = try makeStore(in: data)
        try store.inOneTransaction {
            try insert([1], into: store)
            try store.inOneTransaction { try insert([2], into: store) }
            try insert([3], into: store)  // still joins the outer transaction
            #expect(try values(store) == [1, 2, 3])
        }
        #expect(try values(store) == [1, 2, 3])
    }

    @Test("nothing is committed when the burst itself fails")
    func rollsBack() throws {
        struct Abandon: Error {}
        let data = try TemporaryDirectory()
        let store = try makeStore(in: data)
        #expect(throws: StorageError.self) {
            try store.inOneTransaction {
                try insert([1, 2], into: store)
                throw Abandon()
            }
        }
        #expect(try values(store) == [])
    }

    @Test("another thread's write waits for the burst's commit and is not part of it")
    func otherThreads() async throws {
        let data = try TemporaryDirectory()
        let store = try makeStore(in: data)
        let started = DispatchSemaphore(value: 0)
        let other = Task {
            try await blockingWork {
                started.wait()
                try insert([10], into: store)
            }
        }
        struct Abandon: Error {}
        #expect(throws: StorageError.self) {
            try store.inOneTransaction {
                try insert([1], into: store)
                started.signal()
                Thread.sleep(forTimeInterval: 0.2)  // the other write is waiting for the queue now
                throw Abandon()
            }
        }
        try await other.value
        #expect(try values(store) == [10])
    }
}
