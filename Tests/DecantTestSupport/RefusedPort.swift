public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A port on 127.0.0.1 that refuses connections for as long as this value lives: a socket is bound to it and never
/// listens, so a connection is refused and no other socket of the machine (another test's ``LoopbackServer``) can
/// take the port meanwhile. A stopped server's port is not that: the next server may be given the same port, and the
/// request meant to be refused is then answered by it.
///
/// ```swift
/// let refused = try RefusedPort()
/// defer { refused.close() }
/// let url = refused.url("/gone")
/// ```
public final class RefusedPort: @unchecked Sendable {
    /// The port.
    public let port: Int
    private let descriptor: Int32
    private let lock = NSLock()
    private var closed = false

    /// Binds a socket to an ephemeral port of 127.0.0.1 without listening on it.
    public init() throws {
        (descriptor, port) = try bindLoopbackSocket(reuseAddress: false)
    }

    deinit { close() }

    /// The URL of `path` on this port.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Releases the port.
    public func close() {
        let first = lock.withLock { () -> Bool in
            defer { closed = true }
            return !closed
        }
        if first { closeDescriptor(descriptor) }
    }
}
