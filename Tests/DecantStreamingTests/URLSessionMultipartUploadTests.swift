import Decant
import DecantConformance
import DecantMultipart
import DecantTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Streamed multipart uploads (issue #38 item 3): what a server on 127.0.0.1 received, read by Python's `email`
/// package and by Decant's own multipart reader.
@Suite(.serialized) struct URLSessionMultipartUploadTests {
    /// The script that reads a multipart body with Python's `email` package.
    static let emailScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Plugins/DecantMultipart/email_read.py")

    /// The registry of the parts and of the reader.
    static let registry = SerializerRegistry.standard.installing(
        .multipart(decodingPartsWith: SerializerRegistry.standard.installing(.data)))

    /// What the server received.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: (fields: [String: String], body: Data)?
        var value: (fields: [String: String], body: Data)? { lock.withLock { stored } }
        func record(_ connection: LoopbackServer.Connection, body: Data) {
            var fields: [String: String] = [:]
            for name in ["Content-Type", "Content-Length", "Transfer-Encoding"] {
                fields[name] = connection.requestField(name)
            }
            lock.withLock { stored = (fields, body) }
        }
    }

    /// A server whose `/upload` reads the body and answers `{"received": N}`.
    static func server(_ received: Received) throws -> LoopbackServer {
        try LoopbackServer(routes: [
            "/upload": { connection in
                guard let body = try? connection.readBody() else {
                    connection.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    return
                }
                received.record(connection, body: body)
                let answer = "{\"received\": \(body.count)}"
                connection.write(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(answer.utf8.count)\r\n"
                        + "Connection: close\r\n\r\n" + answer)
            }
        ])
    }

    /// The bytes of `upload`, iterated once more.
    static func bytes(of upload: MultipartUpload) async throws -> Data {
        var body = Data()
        for try await chunk in upload.chunks() { body.append(chunk) }
        return body
    }

    /// A temporary file with `bytes`.
    static func temporaryFile(_ bytes: Data, name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("decant-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try bytes.write(to: file)
        return file
    }

    @Test(.enabled(if: PythonReference.isAvailable), arguments: [UploadMethod.stream, .temporaryFile])
    func aFormWithAFileIsReceivedExactly(uploadMethod: UploadMethod) async throws {
        let received = Received()
        let server = try Self.server(received)
        defer { server.stop() }
        let fileBytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        let file = try Self.temporaryFile(fileBytes, name: "Grüße 日本.jpg")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }

        var form = MultipartUpload.formData()
        try form.append("Zoë", name: "author")
        try form.append(JSONValue.object([("size", 300_000)]), name: "meta", registry: Self.registry)
        try form.appendFile(at: file, name: "photo")
        let response = try await URLSession.shared.upload(
            form.chunks(), headerFields: form.headerFields, for: URLRequest(url: server.url("/upload")),
            via: uploadMethod)
        #expect(response.status == 200)

        let seen = try #require(received.value)
        let expected = try await Self.bytes(of: form)
        #expect(seen.body == expected)
        #expect(form.contentLength == expected.count)
        // Never both framings at once (RFC 9112 §6.3); chunked where FoundationNetworking streams.
        #expect((seen.fields["Content-Length"] == nil) != (seen.fields["Transfer-Encoding"] == nil))
        if let length = seen.fields["Content-Length"] { #expect(length == String(expected.count)) }
        #if canImport(FoundationNetworking)
            #expect(seen.fields["Transfer-Encoding"] == (uploadMethod == .stream ? "chunked" : nil))
        #endif
        #expect(seen.fields["Content-Type"] == form.contentType.description)

        let output = try PythonReference.run(script: Self.emailScript, [form.contentType.description], body: seen.body)
        let python = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        let parts = try #require(python["parts"] as? [[String: Any]])
        #expect(parts.map { $0["name"] as? String } == ["author", "meta", "photo"])
        #expect(parts.map { $0["filename"] as? String } == [nil, nil, "Grüße 日本.jpg"])
        #expect(parts.map { $0["type"] as? String } == [nil, "application/json", "image/jpeg"])
        #expect(parts[0]["body"] as? String == Data("Zoë".utf8).map { String(format: "%02x", $0) }.joined())
        #expect(parts[2]["body"] as? String == fileBytes.map { String(format: "%02x", $0) }.joined())

        let decoded = try Self.registry.serialize(
            Response(status: 200, headers: ["Content-Type": form.contentType.description], body: seen.body),
            as: MultipartBody.self)
        #expect(decoded.parts.map(\.name) == ["author", "meta", "photo"])
        #expect(decoded.parts[2].filename == "Grüße 日本.jpg")
        #expect(decoded.parts[2].body == fileBytes)
        #expect(decoded.parts[1].value(as: JSONValue.self) == JSONValue.object([("size", 300_000)]))
    }

    @Test func aPartOfUnknownLengthIsSentChunked() async throws {
        let received = Received()
        let server = try Self.server(received)
        defer { server.stop() }
        let pieces = (0..<40).map { index in Data(repeating: UInt8(index), count: 10_000 + index) }
        let stream = AsyncStream<Data> { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        }
        var mixed = MultipartUpload.mixed()
        try mixed.append(contentsOf: stream, name: nil, filename: "log.bin", mediaType: "application/octet-stream")
        #expect(mixed.contentLength == nil)
        let response = try await URLSession.shared.upload(
            mixed.chunks(), headerFields: mixed.headerFields, for: URLRequest(url: server.url("/upload")))
        #expect(response.status == 200)
        let seen = try #require(received.value)
        #expect(seen.fields["Transfer-Encoding"]?.lowercased() == "chunked")
        #expect(seen.fields["Content-Length"] == nil)
        let decoded = try Self.registry.serialize(
            Response(status: 200, headers: ["Content-Type": mixed.contentType.description], body: seen.body),
            as: MultipartBody.self)
        #expect(decoded.parts.map(\.body) == [pieces.reduce(Data(), +)])
        #expect(decoded.parts.first?.filename == "log.bin")
    }

    @Test(arguments: [UploadMethod.stream, .temporaryFile])
    func aBodyThatFailsEndsTheUploadWithItsError(uploadMethod: UploadMethod) async throws {
        let received = Received()
        let server = try Self.server(received)
        defer { server.stop() }
        let file = try Self.temporaryFile(Data(repeating: 7, count: 2_000_000), name: "big.bin")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        var form = MultipartUpload.formData()
        try form.appendFile(at: file, name: "f")
        try Data(repeating: 7, count: 1_000_000).write(to: file)  // shrinks after it was appended
        let error = await #expect(throws: SerializationError.self) {
            _ = try await URLSession.shared.upload(
                form.chunks(), headerFields: form.headerFields, for: URLRequest(url: server.url("/upload")),
                via: uploadMethod)
        }
        #expect(error?.code == .encodingFailed)
        #expect(error?.message.contains("shrank") == true)
    }

    /// A server that answers before reading the body (413) ends the upload with that response, whichever method.
    @Test(arguments: [UploadMethod.stream, .temporaryFile])
    func aServerThatAnswersEarlyEndsTheUpload(uploadMethod: UploadMethod) async throws {
        let server = try LoopbackServer(routes: [
            "/upload": { connection in
                connection.write(
                    "HTTP/1.1 413 Content Too Large\r\nContent-Type: text/plain\r\nContent-Length: 8\r\n"
                        + "Connection: close\r\n\r\ntoo big.")
            }
        ])
        defer { server.stop() }
        var form = MultipartUpload.formData()
        try form.append(Data(repeating: 1, count: 8 << 20), name: "big", filename: "big.bin")
        do {
            let response = try await URLSession.shared.upload(
                form.chunks(), headerFields: form.headerFields, for: URLRequest(url: server.url("/upload")),
                via: uploadMethod)
            #expect(response.status == 413)
        } catch {
            // The connection may be reset while the body is still being sent: a session error, not a hang.
            #expect(!(error is SerializationError))
        }
    }
}
