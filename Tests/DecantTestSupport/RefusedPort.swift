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

/// A TCP socket bound to an ephemeral port of 127.0.0.1 (not listening), and that port: what ``LoopbackServer``
/// listens on and ``RefusedPort`` holds. `reuseAddress` sets `SO_REUSEADDR` first.
func bindLoopbackSocket(reuseAddress: Bool) throws -> (descriptor: Int32, port: Int) {
    #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw LoopbackServer.ServerError("socket() failed: \(errno)") }
    if reuseAddress {
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else {
        let failure = errno
        closeDescriptor(descriptor)
        throw LoopbackServer.ServerError("bind failed: \(failure)")
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}

/// Closes a socket descriptor.
func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
        _ = Glibc.close(descriptor)
    #else
        _ = Darwin.close(descriptor)
    #endif
}
