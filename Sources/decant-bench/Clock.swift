#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The clocks the bench reads.
enum Clock {
    /// The CPU time consumed by the calling thread, in seconds (`CLOCK_THREAD_CPUTIME_ID`).
    ///
    /// CPU time rather than wall time: on a shared machine it does not count the time other processes hold the core,
    /// so medians are steadier. It does count page faults and cache misses the thread itself causes.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Monotonic wall time in seconds, for time budgets only (never for results).
    static func wallSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
