import Foundation

/// A route of ``LoopbackServer`` that answers its requests in turn from a script (the first request with the first
/// handler, and so on; the last handler answers every request after the script) and records the header fields of
/// every request, for tests of clients that send a request again (reconnecting event streams).
///
/// ```swift
/// let script = ScriptedResponses([{ $0.write("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n") }])
/// let server = try LoopbackServer(routes: ["/events": script.handler])
/// ...
/// #expect(script.requestCount == 1)
/// ```
public final class ScriptedResponses: @unchecked Sendable {
    private let lock = NSLock()
    private let script: [@Sendable (LoopbackServer.Connection) -> Void]
    private var fields: [[(name: String, value: String)]] = []

    /// Answers the `n`-th request with `script[n]`, and the requests after the script with its last handler.
    public init(_ script: [@Sendable (LoopbackServer.Connection) -> Void]) {
        precondition(!script.isEmpty, "a script needs at least one handler")
        self.script = script
    }

    /// The handler to give ``LoopbackServer`` for the route.
    public var handler: @Sendable (LoopbackServer.Connection) -> Void {
        { [self] connection in
            let index = lock.withLock { () -> Int in
                fields.append(connection.requestFields)
                return fields.count - 1
            }
            script[min(index, script.count - 1)](connection)
        }
    }

    /// The number of requests received so far.
    public var requestCount: Int { lock.withLock { fields.count } }

    /// The value of the field `name` (ASCII case-insensitive, several joined with `, `) in each request received so
    /// far, in order; `nil` for a request without it.
    public func values(of name: String) -> [String?] {
        lock.withLock { fields }.map { request in
            let values = request.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
    }
}

extension LoopbackServer.Connection {
    /// Writes the head of a `200 OK` response with `Transfer-Encoding: chunked` and `Connection: close`.
    @discardableResult
    public func writeChunkedHead(contentType: String, status: String = "200 OK") -> Bool {
        write(
            "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\n")
    }
}
