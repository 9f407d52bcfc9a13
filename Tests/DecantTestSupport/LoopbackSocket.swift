#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
