import Foundation
import GuardianShared
import Testing

@Suite("Timestamps: RFC 3339 or epoch seconds in, RFC 3339 UTC milliseconds out")
struct TimestampTests {
    @Test(arguments: [
        ("2026-11-22T07:10:22+01:00", "2026-11-22T06:10:22.000Z"),
        ("2026-11-22T06:10:22Z", "2026-11-22T06:10:22.000Z"),
        ("2026-11-22T06:10:22.5Z", "2026-11-22T06:10:22.500Z"),
        ("2026-11-22T06:10:22.123456Z", "2026-11-22T06:10:22.123Z"),
        ("2026-11-22t06:10:22z", "2026-11-22T06:10:22.000Z"),
        ("2026-11-22T00:30:00-05:30", "2026-11-22T06:00:00.000Z"),
        ("2024-02-29T23:59:59+00:00", "2024-02-29T23:59:59.000Z"),
        ("2026-01-01T00:00:00+01:00", "2025-12-31T23:00:00.000Z"),
    ])
    func parsesRFC3339(input: String, expected: String) throws {
        let ts = try #require(Timestamp(rfc3339: input))
        #expect(ts.rfc3339 == expected)
    }

    @Test(arguments: [
        "2026-11-22T06:10:22", "2026-11-22 06:10", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z",
        "2026-11-22T24:00:00Z", "2026-11-22T06:10:22+1:00", "2026-11-22T06:10:22.Z", "yesterday", "", "2026-11-22T06:10:22Zjunk",
    ])
    func rejectsMalformed(input: String) {
        #expect(Timestamp(rfc3339: input) == nil)
    }

    @Test func decodesEpochSecondsAndStrings() throws {
        struct Box: Decodable { var ts: Timestamp }
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Box.self, from: Data(#"{"ts": 1795420116}"#.utf8)).ts.rfc3339 == "2026-11-23T07:48:36.000Z")
        #expect(try decoder.decode(Box.self, from: Data(#"{"ts": 1795420116.25}"#.utf8)).ts.milliseconds == 1_795_420_116_250)
        #expect(try decoder.decode(Box.self, from: Data(#"{"ts": "2026-11-22T07:10:22+01:00"}"#.utf8)).ts.rfc3339 == "2026-11-22T06:10:22.000Z")
        for bad in [#"{"ts": "soon"}"#, #"{"ts": true}"#, #"{"ts": 1e300}"#, #"{"ts": 5}"#, #"{"ts": "1990-01-01T00:00:00Z"}"#] {
            #expect(throws: ContractViolation.self) { try decoder.decode(Box.self, from: Data(bad.utf8)) }
        }
    }

    @Test func formatsBeforeEpochAndRoundTrips() {
        #expect(Timestamp(milliseconds: -1).rfc3339 == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp(milliseconds: 0).rfc3339 == "1970-01-01T00:00:00.000Z")
        for ms in stride(from: Int64(946_684_800_000), to: 4_102_444_800_000, by: 86_399_999_917) {
            let ts = Timestamp(milliseconds: ms)
            #expect(Timestamp(rfc3339: ts.rfc3339) == ts)
        }
    }
}

@Suite("Identifiers, hashing, shards")
struct IdentifierTests {
    @Test(arguments: ["phone-1", "A_b-9", String(repeating: "x", count: 64)])
    func validIds(id: String) { #expect(Identifier.isValid(id)) }

    @Test(arguments: ["", "a/b", "a+b", "a#", "é", "a b", String(repeating: "x", count: 65), "phone\u{0}", "ｆｕｌｌ"])
    func invalidIds(id: String) { #expect(!Identifier.isValid(id)) }

    @Test func sha256KnownVectors() {
        #expect(SHA256.hex(Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func fnv1aAndShards() throws {
        #expect(Shard.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.fnv1a("foobar") == 0x8594_4171_f739_67e8)
        let shards = (0..<3).map { Shard(index: $0, count: 3) }
        for i in 0..<300 {
            #expect(shards.filter { $0.owns(deviceId: "device-\(i)") }.count == 1)
        }
        #expect(Shard("1/3") == Shard(index: 1, count: 3))
        #expect(Shard("3/3") == nil)
        #expect(Shard("x") == nil)
    }
}
