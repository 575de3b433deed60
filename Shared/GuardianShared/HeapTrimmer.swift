#if canImport(Glibc)
    import Glibc
#endif

/// Hands freed heap pages back to the system now and then, so a service's resident memory follows
/// what it uses rather than its busiest moment (glibc otherwise keeps what was freed).
enum HeapTrimmer {
    private typealias Trim = @convention(c) (Int) -> Int32

    /// glibc's `malloc_trim` (declared in <malloc.h>, which the Glibc module does not import).
    private static let trim: Trim? = {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: Trim.self)
        #else
            return nil
        #endif
    }()

    static func run(every interval: Duration) async {
        guard let trim else { return }
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            _ = trim(0)
        }
    }
}
