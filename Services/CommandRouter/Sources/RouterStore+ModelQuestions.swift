import Foundation
import GRDB
import GuardianShared
import MQTT

/// The parents' commands the model (`GUARDIAN_LLM_URL`) is asked about, each kept from when it is
/// read until the model's answer is handled. The command's message is acknowledged when read, and the
/// model takes seconds: a router killed meanwhile asks the model again on its next start, so the
/// command is answered rather than lost.
extension RouterStore {
    /// A command as it came (topic and payload), kept until the model's answer is handled.
    struct ModelQuestion: Sendable {
        var id: Int64
        var message: MQTTMessage
        /// When the command was read.
        var asked: Timestamp
    }

    /// Keeps the command of `message` until ``answered(_:)``; returns its id.
    func ask(_ message: MQTTMessage, at: Timestamp) throws(StorageError) -> Int64 {
        try store.write { db in
            try db.execute(
                sql: "INSERT INTO model_questions (topic, payload, asked) VALUES (?, ?, ?)",
                arguments: [message.topic, message.payload, at.milliseconds])
            return db.lastInsertedRowID
        }
    }

    /// The commands asked about and not yet answered, oldest first.
    func unansweredQuestions() throws(StorageError) -> [ModelQuestion] {
        try store.read { db in
            try Row.fetchAll(db, sql: "SELECT id, topic, payload, asked FROM model_questions ORDER BY id").map { row in
                ModelQuestion(id: row["id"], message: MQTTMessage(topic: row["topic"], payload: row["payload"]), asked: Timestamp(milliseconds: row["asked"]))
            }
        }
    }

    /// Forgets a command once the model's answer was handled.
    func answered(_ id: Int64) throws(StorageError) {
        try store.write { db in try db.execute(sql: "DELETE FROM model_questions WHERE id = ?", arguments: [id]) }
    }
}
