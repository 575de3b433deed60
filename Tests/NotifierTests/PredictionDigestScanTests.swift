import Foundation
import GuardianShared
import GuardianTestSupport
import Testing

@testable import GuardianNotifier

/// The scanned fast path must never accept what `JSONDecoder` rejects, nor read a value differently.
@Suite struct PredictionDigestScanTests {
    static let valid = String(
        decoding: GuardianJSON.encode(
            Prediction(
                id: "p-1", ts: Timestamp(milliseconds: 1_700_000_000_000), deviceId: "d1", zoneId: "z1", merchant: "Café Ünïcode", trigger: .enter,
                features: PurchaseFeatures(
                    distanceToMerchant: 0.05, hourOfDay: 22, isWeekend: 1, budgetUtilization: 0.9, merchantRegretRate: 0.8, dwellTime: 0),
                defaulted: ["dwellTime"], probability: 0.82, threshold: 0.7, model: .init(name: "purchase-predictor", version: "1", sha256: "x"))),
        as: UTF8.self)

    func decoded(_ payload: Data) -> PredictionDigest? { try? JSONDecoder().decodePayload(PredictionDigest.self, from: payload) }

    /// Both paths agree: the scan gives up (nil) or gives exactly what the decoder gives.
    func expectAgreement(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let payload = Data(text.utf8)
        guard let scanned = PredictionDigest(scanning: payload) else { return }
        #expect(scanned == decoded(payload), "scan accepted \(text.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func readsAPlainPredictionLikeTheDecoder() throws {
        let scanned = try #require(PredictionDigest(scanning: Data(Self.valid.utf8)))
        #expect(scanned == decoded(Data(Self.valid.utf8)))
        #expect(scanned.merchant == "Café Ünïcode" && scanned.probability == 0.82 && scanned.riskLevel == .medium)
    }

    @Test func givesUpOnEveryTruncation() {
        for end in 0..<Self.valid.utf8.count {
            let prefix = Data(Self.valid.utf8.prefix(end))
            #expect(PredictionDigest(scanning: prefix) == nil, "accepted the first \(end) bytes")
        }
    }

    @Test func leavesUnusualDocumentsToTheDecoder() {
        let valid = Self.valid
        let unusual = [
            valid.replacingOccurrences(of: "\"p-1\"", with: #""p\u002d1""#),  // escape in a read string
            valid.replacingOccurrences(of: "\"zoneId\"", with: #""zone\u0049d""#),  // escape in a key
            valid.replacingOccurrences(of: "\"id\":\"p-1\"", with: #""id":"p-1","id":"p-2""#),  // a read member twice
            valid.replacingOccurrences(of: "\"merchant\":\"Café Ünïcode\"", with: "\"merchant\":null"),
            valid + "x", valid + "{}", "[" + valid + "]", " \n" + valid + "\t ",
            valid.replacingOccurrences(of: "\"purchase-predictor\"", with: "\"purchäse\""),  // non-ASCII in a skipped string
            valid.replacingOccurrences(of: "\"dwellTime\"]", with: "\"dwellTime\",]"),
            valid.replacingOccurrences(of: "0.82", with: "0.820e0"),
            valid.replacingOccurrences(of: "0.82", with: "8.2E-1"),
            valid.replacingOccurrences(of: "\"threshold\"", with: "\"threshold\":1,\"threshold\""),
            valid.replacingOccurrences(of: "\"defaulted\":[\"dwellTime\"]", with: "\"defaulted\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40)),
            valid.replacingOccurrences(of: "\"defaulted\":[\"dwellTime\"]", with: "\"defaulted\":[true,false,null,{\"a\":[1,-0.5e+3]}]"),
            valid.replacingOccurrences(of: "\"defaulted\"", with: "\"features\""),  // a skipped member twice
        ]
        for text in unusual { expectAgreement(text) }
        #expect(PredictionDigest(scanning: Data(unusual[0].utf8)) == nil)
        #expect(PredictionDigest(scanning: Data(unusual[2].utf8)) == nil)
        #expect(PredictionDigest(scanning: Data(unusual[7].utf8)) != nil, "surrounding white space is plain JSON")
    }

    @Test func neverAcceptsWhatTheDecoderRejects() {
        let valid = Self.valid
        var hostile: [String] = []
        for literal in HostileValues.nonJSONLiterals + HostileValues.unrepresentable + ["\"0.9\"", "true", "null", "[]", "{}", "-1", "1.5", "-0"] {
            hostile.append(valid.replacingOccurrences(of: "0.82", with: literal))
            hostile.append(valid.replacingOccurrences(of: "0.7", with: literal))
            hostile.append(valid.replacingOccurrences(of: "\"p-1\"", with: literal))
            hostile.append(valid.replacingOccurrences(of: "\"medium\"", with: literal))
            hostile.append(valid.replacingOccurrences(of: "22", with: literal))  // inside a skipped object
        }
        for id in HostileValues.badIds { hostile.append(valid.replacingOccurrences(of: "\"z1\"", with: "\"\(id)\"")) }
        hostile += [
            valid.replacingOccurrences(of: "\"p-1\"", with: "\"\(String(repeating: "x", count: 129))\""),
            valid.replacingOccurrences(of: "\"p-1\"", with: "\"\""),
            valid.replacingOccurrences(of: "\"p-1\"", with: "\"p\u{7F}1\""),
            valid.replacingOccurrences(of: "\"medium\"", with: "\"HIGH\""),
            valid.replacingOccurrences(of: "\"Café Ünïcode\"", with: "\"\""),
            valid.replacingOccurrences(of: ",\"zoneId\":\"z1\"", with: ""),
            valid.replacingOccurrences(of: ":", with: " : "), valid.replacingOccurrences(of: ",", with: ";"),
            "", "{}", "null", "garbage", "{\"id\":\"p-1\"", "{\"id\" \"p-1\"}", "{'id':'p-1'}",
        ]
        var invalidUTF8 = Data(valid.utf8)
        invalidUTF8[invalidUTF8.firstIndex(of: UInt8(ascii: "C"))! + 1] = 0xFF
        #expect(PredictionDigest(scanning: invalidUTF8) == nil)
        for text in hostile { expectAgreement(text) }
    }
}
