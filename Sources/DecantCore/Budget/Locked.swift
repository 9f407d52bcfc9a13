#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#elseif os(Windows)
    import WinSDK
#endif

/// A value behind a mutual-exclusion lock, for state shared between threads (a ``DecodingBudget``'s count, the GIF
/// animation's canvas cache in DecantImage).
///
/// Synchronization's `Mutex` would do, but it needs macOS 15 / iOS 18; `NSLock` needs full Foundation, which the
/// core and the format modules do not import. So this wraps the platform lock: a pthread mutex (SRW lock on
/// Windows), allocated once so that its address never moves. Package API: the modules of this package share it.
package final class Locked<State: Sendable>: @unchecked Sendable {
    // @unchecked: `state` is only read or written inside `withLock`, with `lock` held.
    #if os(Windows)
        private let lock = UnsafeMutablePointer<SRWLOCK>.allocate(capacity: 1)
    #else
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    #endif
    private var state: State

    package init(_ state: State) {
        self.state = state
        #if os(Windows)
            InitializeSRWLock(lock)
        #else
            lock.initialize(to: pthread_mutex_t())
            let result = pthread_mutex_init(lock, nil)
            precondition(result == 0, "pthread_mutex_init failed with \(result)")
        #endif
    }

    deinit {
        #if !os(Windows)
            pthread_mutex_destroy(lock)
            lock.deinitialize(count: 1)
        #endif
        lock.deallocate()
    }

    /// Runs `body` on the state with the lock held; `body` must not call `withLock` on the same value.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if os(Windows)
            AcquireSRWLockExclusive(lock)
            defer { ReleaseSRWLockExclusive(lock) }
        #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
        #endif
        return try body(&state)
    }
}
