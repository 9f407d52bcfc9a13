public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 and an ephemeral port, for tests that need a real server: each request's
/// path picks a handler, which writes the response by hand (slowly, chunked, cut short, ...). It serves each
/// connection on its own thread, answers one request per connection, and stops with ``stop()`` (or when released).
///
/// ```swift
/// let server = try LoopbackServer(routes: ["/hello": { connection in
///     connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi")
/// }])
/// defer { server.stop() }
/// let url = server.url("/hello")
/// ```
public final class LoopbackServer: @unchecked Sendable {
    /// One accepted connection, as a handler sees it.
    public final class Connection: @unchecked Sendable {
        let descriptor: Int32
        /// The request line, such as `GET /events HTTP/1.1`.
        public let requestLine: String
        /// The request's header fields as received, in order (names as sent).
        public let requestFields: [(name: String, value: String)]
        /// Whether a write failed because the client went away (it closed or reset the connection).
        public private(set) var clientWentAway = false
        /// The body bytes written so far (after the head).
        public private(set) var bytesWritten = 0

        init(descriptor: Int32, requestLine: String, requestFields: [(name: String, value: String)]) {
            self.descriptor = descriptor
            self.requestLine = requestLine
            self.requestFields = requestFields
        }

        /// The values of the request's fields called `name` (ASCII case-insensitive), joined with `, `; `nil` when
        /// the request had none.
        public func requestField(_ name: String) -> String? {
            let values = requestFields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }

        /// Writes bytes as they are; returns `false` once the client has gone away.
        @discardableResult
        public func write(_ bytes: Data) -> Bool {
            guard !clientWentAway else { return false }
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes { raw in
                    sendBytes(descriptor, raw.baseAddress! + offset, raw.count - offset)
                }
                if sent <= 0 {
                    if sent < 0 && errno == EINTR { continue }
                    clientWentAway = true
                    return false
                }
                offset += sent
            }
            bytesWritten += bytes.count
            return true
        }

        /// Writes a string's UTF-8 bytes.
        @discardableResult
        public func write(_ text: String) -> Bool { write(Data(text.utf8)) }

        /// Writes one chunk of a `Transfer-Encoding: chunked` body (an empty chunk ends the body).
        @discardableResult
        public func writeChunk(_ bytes: Data) -> Bool {
            write(Data((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + Data("\r\n".utf8))
        }

        /// Writes one chunk holding a string's UTF-8 bytes.
        @discardableResult
        public func writeChunk(_ text: String) -> Bool { writeChunk(Data(text.utf8)) }

        /// Reads the request's body: `Content-Length` bytes, or a `Transfer-Encoding: chunked` body decoded, at most
        /// `limit` bytes (more is an error for the test). Call it once, before writing the response.
        public func readBody(limit: Int = 64 << 20) throws -> Data {
            if requestField("Transfer-Encoding")?.lowercased().contains("chunked") == true {
                var body = Data()
                while true {
                    let sizeLine = try readLine()
                    let hex = sizeLine.split(separator: ";").first.map(String.init) ?? ""
                    guard let size = Int(hex.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                        throw ServerError("bad chunk size line '\(sizeLine)'")
                    }
                    if size == 0 {
                        while try !readLine().isEmpty {}  // trailer fields, then the empty line
                        return body
                    }
                    guard body.count + size <= limit else { throw ServerError("request body over \(limit) bytes") }
                    body += try readExactly(size)
                    _ = try readLine()
                }
            }
            let length = Int(requestField("Content-Length") ?? "0") ?? 0
            guard length <= limit else { throw ServerError("request body over \(limit) bytes") }
            return try readExactly(length)
        }

        private func readExactly(_ count: Int) throws -> Data {
            var bytes = [UInt8](repeating: 0, count: count)
            var offset = 0
            while offset < count {
                let received = bytes.withUnsafeMutableBytes {
                    read(descriptor, $0.baseAddress! + offset, count - offset)
                }
                if received < 0 && errno == EINTR { continue }
                guard received > 0 else { throw ServerError("the client closed the request body early") }
                offset += received
            }
            return Data(bytes)
        }

        private func readLine() throws -> String {
            var line = [UInt8]()
            var byte: UInt8 = 0
            while true {
                guard read(descriptor, &byte, 1) == 1 else { throw ServerError("the client closed mid-line") }
                if byte == 0x0A { break }
                line.append(byte)
            }
            if line.last == 0x0D { line.removeLast() }
            return String(decoding: line, as: UTF8.self)
        }

        /// Waits `milliseconds`, so that what was written reaches the client on its own.
        public func pause(milliseconds: Int) { usleep(useconds_t(milliseconds * 1000)) }
    }

    /// The port the server listens on.
    public let port: Int
    private let listener: Int32
    private let routes: [String: @Sendable (Connection) -> Void]
    private let lock = NSLock()
    private var stopped = false
    private let done = DispatchGroup()

    /// Starts a server; `routes` maps a path to the handler that writes the whole response.
    public init(routes: [String: @Sendable (Connection) -> Void]) throws {
        self.routes = routes
        let (descriptor, port) = try bindLoopbackSocket(reuseAddress: true)
        guard listen(descriptor, 16) == 0 else {
            // Read before `close`, which may set it.
            let failure = errno
            closeDescriptor(descriptor)
            throw ServerError("listen failed: \(failure)")
        }
        // Non-blocking, so that a connection gone between `poll` and `accept` does not hold the accept loop.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        self.port = port
        listener = descriptor
        done.enter()
        let thread = Thread { [self] in
            acceptLoop()
            done.leave()
        }
        thread.start()
    }

    deinit { stop() }

    /// The URL of `path` on this server.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Stops accepting connections and waits for the accept loop to end (it closes the listening socket).
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        // Wakes an `accept` in progress (Linux); elsewhere the loop sees `stopped` after its `poll`. The socket is
        // not closed here: a number closed under the accept loop may be given to another test's socket before the
        // loop's next `accept`, which would then take that server's connections.
        #if canImport(Glibc)
            shutdown(listener, Int32(SHUT_RDWR))
        #else
            shutdown(listener, SHUT_RDWR)
        #endif
        done.wait()
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Accepts connections until ``stop()``; the only user of the listening socket, which it closes when it ends.
    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 50) > 0 else { continue }  // a timeout or EINTR: look for a stop again
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED { continue }
                return
            }
            // An accepted socket inherits O_NONBLOCK on Apple platforms; the connection's reads and writes block.
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) & ~O_NONBLOCK)
            #if canImport(Darwin)
                var yes: Int32 = 1
                setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        // The request head, up to its empty line (requests here have no body).
        var head = [UInt8]()
        var byte: UInt8 = 0
        while head.count < 16_384 {
            let count = read(client, &byte, 1)
            if count <= 0 { return }
            head.append(byte)
            if head.count >= 4 && head.suffix(4) == [0x0D, 0x0A, 0x0D, 0x0A] { break }
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.first ?? ""
        let fields = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let parts = requestLine.split(separator: " ")
        let path = parts.count > 1 ? String(parts[1]) : "/"
        let connection = Connection(descriptor: client, requestLine: requestLine, requestFields: fields)
        if let handler = routes[path] {
            handler(connection)
        } else {
            connection.write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
    }

    /// A failure to start the server.
    public struct ServerError: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
        init(_ description: String) { self.description = description }
    }
}

private func sendBytes(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        send(descriptor, pointer, count, Int32(MSG_NOSIGNAL))
    #else
        send(descriptor, pointer, count, 0)
    #endif
}

/// Gzip (RFC 1952) of `data` with stored (uncompressed) deflate blocks: a valid gzip member that any decoder reads,
/// written without a compressor.
public func gzipStored(_ data: Data) -> Data {
    var output = Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF])
    let bytes = [UInt8](data)
    var start = 0
    repeat {
        let length = min(65_535, bytes.count - start)
        let final: UInt8 = start + length == bytes.count ? 1 : 0
        output.append(final)
        output.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8)])
        output.append(contentsOf: [UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)])
        output.append(contentsOf: bytes[start..<start + length])
        start += length
    } while start < bytes.count
    let crc = crc32(bytes)
    for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8((crc >> UInt32(shift)) & 0xFF)) }
    let size = UInt32(truncatingIfNeeded: bytes.count)
    for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8((size >> UInt32(shift)) & 0xFF)) }
    return output
}

/// Zlib (RFC 1950) of `data` with stored (uncompressed) deflate blocks, as `Content-Encoding: deflate` sends it.
public func zlibStored(_ data: Data) -> Data {
    let gzip = gzipStored(data)
    // The deflate blocks of the gzip member lie between its 10-byte header and its 8-byte trailer.
    var output = Data([0x78, 0x01]) + gzip[10..<gzip.count - 8]
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in data {
        a = (a + UInt32(byte)) % 65_521
        b = (b + a) % 65_521
    }
    let adler = b << 16 | a
    for shift in stride(from: 24, through: 0, by: -8) { output.append(UInt8((adler >> UInt32(shift)) & 0xFF)) }
    return output
}

/// CRC-32 (ISO 3309, as gzip uses it), bit by bit.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
