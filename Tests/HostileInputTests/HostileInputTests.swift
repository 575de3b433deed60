import Testing

/// Hostile input, one test per service (in the other files of this folder): at least 100,000
/// generated payloads that break the contract (random bytes, truncated and deeply nested JSON, wrong
/// types, NaN and huge numbers, 10 MB bodies, ids with `/`, `+`, `#` and unicode tricks in payloads and
/// topic levels), each of which must be reported on `guardian/errors/{service}` exactly once, while
/// valid messages sent in between come through intact and the service stays online.
///
/// `GUARDIAN_FUZZ_COUNT` sets another number of bad payloads per service (for a quick run).
@Suite("hostile input", .serialized)
struct HostileInputTests {}
