import Decant
import DecantConformance
import DecantMultipart
import Foundation
import Testing

/// The script that reads a multipart body with Python's `email` package.
private let emailScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("email_read.py")

/// What Python's `email` package read from a multipart body.
struct EmailReading: Decodable {
    struct Part: Decodable {
        var name: String?
        var filename: String?
        var type: String?
        var headers: [[String]]
        var body: String
        var bytes: Data { Data(hex: body) }
    }
    var boundary: String?
    var type: String
    var parameters: [String: String]
    var preamble: String?
    var epilogue: String?
    var parts: [Part]

    /// Reads `body` sent as `contentType` with `email_read.py`.
    static func read(_ body: Data, contentType: String) throws -> EmailReading {
        let output = try PythonReference.run(script: emailScript, [contentType], body: body)
        return try JSONDecoder().decode(EmailReading.self, from: output)
    }
}

extension Data {
    /// The bytes of a hexadecimal string.
    init(hex: String) {
        let digits = Array(hex.utf8)
        self.init(
            stride(from: 0, to: digits.count - 1, by: 2).map {
                UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) ?? 0
            })
    }
}

/// The bytes of `upload`, collected chunk by chunk; every chunk at most `size` bytes.
func collect(_ upload: MultipartUpload, size: Int = 1024) async throws -> Data {
    var body = Data()
    for try await chunk in upload.chunks(size: size) {
        #expect(chunk.count <= max(size, 1024))
        #expect(!chunk.isEmpty)
        body.append(chunk)
    }
    return body
}

/// An `AsyncSequence` of byte chunks, for streamed parts.
struct ByteChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let chunks: [[UInt8]]
    struct Iterator: AsyncIteratorProtocol {
        var remaining: [[UInt8]]
        mutating func next() async -> [UInt8]? { remaining.isEmpty ? nil : remaining.removeFirst() }
    }
    func makeAsyncIterator() -> Iterator { Iterator(remaining: chunks) }
}

/// The WHATWG escaping of form-data names, as the expected side states it (the Python script reads names raw).
private func whatwgEscaped(_ value: String) -> String {
    value.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
        .replacingOccurrences(of: "\n", with: "%0A")
}

@Suite struct MultipartWriterTests {
    static let registry = MultipartTestSupport.registry

    // MARK: MultipartBody through the registry

    /// A decoded body written back and read by Python's `email` and by Decant gives the same parts.
    @Test(.enabled(if: PythonReference.isAvailable), arguments: ["multipart/mixed", "multipart/form-data"])
    func aDecodedBodyIsWrittenBack(essence: String) throws {
        let text =
            "--b\r\nContent-Type: application/json\r\nContent-Disposition: form-data; name=\"meta\"\r\n\r\n"
            + "{\"id\":7}\r\n--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"Grüße.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\nAAEC/w==\r\n"
            + "--b\r\nContent-Disposition: form-data; name=\"note\"\r\nContent-Transfer-Encoding: quoted-printable\r\n"
            + "\r\nCaf=C3=A9 =3D tea \r\n--b--\r\n"
        let body = try MultipartTestSupport.parse(text, contentType: "\(essence); boundary=b")
        let written = try Self.registry.encode(body, as: MediaType(essence)!)
        #expect(written.contentType.essence == essence)
        #expect(written.contentType.parameters["boundary"] == "b")
        #expect(written.serializerID == "multipart")

        let python = try EmailReading.read(written.body, contentType: written.contentType.description)
        #expect(python.boundary == "b")
        #expect(python.parts.map(\.name) == ["meta", "photo", "note"])
        #expect(python.parts[1].filename == "Grüße.bin")
        #expect(python.parts.map(\.bytes) == [Data("{\"id\":7}".utf8), Data([0, 1, 2, 255]), Data("Café = tea".utf8)])

        let again = try Self.registry.serialize(written.response(), as: MultipartBody.self)
        #expect(try again.conformanceValue() == body.conformanceValue())
    }

    /// A boundary that occurs in a part, or is not a valid boundary, is replaced by a generated one.
    @Test(arguments: ["b", "", "ends with space ", String(repeating: "x", count: 71)])
    func anUnsafeBoundaryIsReplaced(boundary: String) throws {
        let part = MultipartPart(
            index: 0, headers: ["Content-Type": "text/plain"], contentType: "text/plain",
            body: Data("a\r\n--b\r\nz".utf8))
        let body = MultipartBody(mediaType: "multipart/mixed", boundary: boundary, parts: [part])
        let written = try Self.registry.encode(body, as: "multipart/mixed")
        let used = try #require(written.contentType.parameters["boundary"])
        #expect(used != boundary)
        #expect(used.hasPrefix("decant-") && used.count == 39)
        let again = try Self.registry.serialize(written.response(), as: MultipartBody.self)
        #expect(again.parts.map(\.body) == [Data("a\r\n--b\r\nz".utf8)])
    }

    /// Header fields that would break the header block are refused with the part's coding path.
    @Test func aHeaderValueWithALineBreakIsRefused() throws {
        let part = MultipartPart(
            index: 0, headers: ["X-Note": "a\r\nContent-Type: text/html"], contentType: "text/plain", body: Data())
        let body = MultipartBody(mediaType: "multipart/mixed", boundary: "b", parts: [part])
        let error = #expect(throws: SerializationError.self) { try Self.registry.encode(body, as: "multipart/mixed") }
        #expect(error?.code == .encodingFailed)
        #expect(error?.codingPath == ["parts", "0"])
    }

    /// Values that are not multipart bodies are not written by the multipart format.
    @Test func otherValuesAreNotWritten() throws {
        let error = #expect(throws: SerializationError.self) { try Self.registry.encode("text", as: "multipart/mixed") }
        #expect(error?.code == .unsupportedValue)
    }

    // MARK: MultipartUpload

    /// A form with a text field, a value encoded through the registry, bytes with a hostile non-ASCII file name, a
    /// file and a streamed part, read by Python's `email` and by Decant.
    @Test(.enabled(if: PythonReference.isAvailable), arguments: [1024, 4096, 65_536])
    func aFormUploadIsReadByPythonsEmailPackage(chunkSize: Int) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-upload-\(UUID()).png")
        let fileBytes = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try fileBytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        var upload = MultipartUpload.formData()
        try upload.append("Ada Lovelace ✓", name: "author")
        try upload.append(JSONValue.object([("id", 7), ("tags", ["a", "b"])]), name: "meta", registry: Self.registry)
        let hostileName = "Grüße \"quoted\"\r\nnext 日本.txt"
        let hostileField = "field \"x\"\nline"
        try upload.append(
            Data("bytes".utf8), name: hostileField, filename: hostileName, mediaType: "text/plain;charset=utf-8")
        try upload.appendFile(at: file, name: "photo")
        let streamed: [[UInt8]] = [[1, 2, 3], Array(repeating: 9, count: 3000), [], [4]]
        try upload.append(contentsOf: ByteChunks(chunks: streamed), name: "stream", filename: "s.bin")
        #expect(upload.contentLength == nil)

        let body = try await collect(upload, size: chunkSize)
        let python = try EmailReading.read(body, contentType: upload.contentType.description)
        #expect(python.type == "multipart/form-data")
        #expect(python.boundary == upload.boundary)
        #expect(
            python.parts.map(\.name) == ["author", "meta", whatwgEscaped(hostileField), "photo", "stream"])
        #expect(
            python.parts.map(\.filename) == [nil, nil, whatwgEscaped(hostileName), file.lastPathComponent, "s.bin"])
        #expect(python.parts.map(\.type) == [nil, "application/json", "text/plain", "image/png", nil])
        #expect(python.parts[0].bytes == Data("Ada Lovelace ✓".utf8))
        let meta = try JSONSerialization.jsonObject(with: python.parts[1].bytes) as? [String: Any]
        #expect(meta?["id"] as? Int == 7)
        #expect(meta?["tags"] as? [String] == ["a", "b"])
        #expect(python.parts[2].bytes == Data("bytes".utf8))
        #expect(python.parts[3].bytes == fileBytes)
        #expect(python.parts[4].bytes == Data(streamed.joined()))

        let decoded = try Self.registry.serialize(
            Response(status: 200, headers: ["Content-Type": upload.contentType.description], body: body),
            as: MultipartBody.self)
        #expect(decoded.parts.map(\.body) == python.parts.map(\.bytes))
        #expect(decoded.parts[3].filename == file.lastPathComponent)
    }

    /// With every length known, `contentLength` is the number of bytes sent, and `write(to:)` writes the same bytes.
    @Test func contentLengthAndFileOutputMatchTheChunks() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-upload-\(UUID()).bin")
        try Data(repeating: 0x41, count: 70_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var upload = MultipartUpload.formData()
        try upload.append("v", name: "k")
        try upload.appendFile(at: file, name: "f", filename: "a.json")
        try upload.append(contentsOf: ByteChunks(chunks: [[1, 2], [3]]), length: 3, name: "s")
        let body = try await collect(upload, size: 4096)
        #expect(upload.contentLength == body.count)
        #expect(upload.headerFields["Content-Length"] == String(body.count))
        #expect(upload.headerFields["Content-Type"] == upload.contentType.description)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("decant-body-\(UUID())")
        defer { try? FileManager.default.removeItem(at: output) }
        try await upload.write(to: output)
        #expect(try Data(contentsOf: output) == body)
        #expect(body.range(of: Data("Content-Type: application/json\r\n".utf8)) != nil)
    }

    /// `multipart/related` with `type` and `start`, and `multipart/mixed`, read by Python's `email`.
    @Test(.enabled(if: PythonReference.isAvailable)) func relatedAndMixed() async throws {
        var related = MultipartUpload.related(type: "application/json", start: "<root@x>")
        try related.append(Data("<p/>".utf8), name: nil, mediaType: "text/html", headers: ["Content-ID": "<img@x>"])
        try related.append(
            JSONValue.array([1, 2]), name: nil, as: "application/json", registry: Self.registry,
            headers: ["Content-ID": "<root@x>"])
        let relatedBody = try await collect(related)
        let python = try EmailReading.read(relatedBody, contentType: related.contentType.description)
        #expect(python.type == "multipart/related")
        #expect(python.parameters["type"] == "application/json")
        #expect(python.parameters["start"] == "<root@x>")
        #expect(python.parts.map { $0.headers.first { $0[0] == "Content-ID" }?[1] } == ["<img@x>", "<root@x>"])
        #expect(python.parts.map(\.bytes) == [Data("<p/>".utf8), Data("[1,2]".utf8)])

        var mixed = MultipartUpload.mixed()
        try mixed.append("hello", name: "ignored")
        try mixed.append(Data([0, 255]), name: nil, filename: "ä.bin", mediaType: "application/octet-stream")
        let mixedBody = try await collect(mixed)
        let read = try EmailReading.read(mixedBody, contentType: mixed.contentType.description)
        #expect(read.parts.map(\.type) == ["text/plain", "application/octet-stream"])
        #expect(read.parts.map(\.filename) == [nil, "ä.bin"])
        #expect(read.parts.map(\.bytes) == [Data("hello".utf8), Data([0, 255])])
    }

    /// A form-data part without a name, and an invalid given boundary, are refused.
    @Test func misuseIsRefused() throws {
        var upload = MultipartUpload.formData()
        #expect(throws: SerializationError.self) { try upload.append(Data(), name: nil) }
        for boundary in ["", "a b ", String(repeating: "x", count: 71), "é"] {
            #expect(throws: SerializationError.self) { try MultipartUpload(boundary: boundary) }
        }
        #expect(throws: SerializationError.self) {
            try upload.appendFile(at: URL(fileURLWithPath: "/nonexistent/\(UUID())"), name: "f")
        }
        #expect(throws: SerializationError.self) {
            try upload.appendFile(at: FileManager.default.temporaryDirectory, name: "dir")
        }
    }

    /// File types are guessed from the extension, case-insensitively.
    @Test(arguments: [
        ("a.PNG", "image/png"), ("b.tar.gz", "application/gzip"), ("c.json", "application/json"),
        ("noext", "application/octet-stream"), (".hidden", "application/octet-stream"),
        ("x.unknown", "application/octet-stream"),
    ])
    func mediaTypeFromTheExtension(filename: String, expected: String) {
        #expect(MultipartUpload.mediaType(forFilename: filename).description == expected)
    }

    // MARK: Hostile

    /// In-memory bytes holding `--boundary`: a generated boundary is drawn again, a given one is refused.
    @Test func partsHoldingTheBoundary() async throws {
        var generated = MultipartUpload.formData()
        let first = generated.boundary
        try generated.append(Data("x\r\n--\(first)--\r\n".utf8), name: "a")
        #expect(generated.boundary != first)
        let body = try await collect(generated)
        let decoded = try Self.registry.serialize(
            Response(status: 200, headers: ["Content-Type": generated.contentType.description], body: body),
            as: MultipartBody.self)
        #expect(decoded.parts.map(\.body) == [Data("x\r\n--\(first)--\r\n".utf8)])

        var given = try MultipartUpload(subtype: "mixed", boundary: "fixed")
        let error = #expect(throws: SerializationError.self) {
            try given.append(Data("--fixed".utf8), name: nil)
        }
        #expect(error?.code == .encodingFailed)
        #expect(throws: SerializationError.self) { try given.append("--fixed", name: "x") }
    }

    /// A streamed part that completes `--boundary` across chunks fails the stream before the delimiter is sent.
    @Test func aStreamedPartHoldingTheBoundaryFails() async throws {
        var upload = try MultipartUpload(subtype: "mixed", boundary: "fixed")
        try upload.append(
            contentsOf: ByteChunks(chunks: [Array("ab\r\n-".utf8), Array("-fix".utf8), Array("ed".utf8)]), name: nil)
        var sent = Data()
        let error = await #expect(throws: SerializationError.self) {
            for try await chunk in upload.chunks() { sent.append(chunk) }
        }
        #expect(error?.code == .encodingFailed)
        #expect(sent.range(of: Data("\r\n--fixed".utf8)) == nil)  // no chunk with the part's bytes went out
    }

    /// A file that shrinks or grows after it was appended fails the stream with a clear error.
    @Test(arguments: [100, 5000]) func aFileThatChangesSizeFails(newSize: Int) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-upload-\(UUID())")
        try Data(repeating: 1, count: 1000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var upload = MultipartUpload.formData()
        try upload.appendFile(at: file, name: "f")
        try Data(repeating: 2, count: newSize).write(to: file)
        let error = await #expect(throws: SerializationError.self) { _ = try await collect(upload) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.message.contains(newSize < 1000 ? "shrank" : "grew") == true)
        #expect(error?.codingPath == ["parts", "0"])
    }

    /// A sequence that yields another number of bytes than the length it was appended with fails the stream.
    @Test(arguments: [2, 4]) func aSequenceWithTheWrongLengthFails(length: Int) async throws {
        var upload = MultipartUpload.formData()
        try upload.append(contentsOf: ByteChunks(chunks: [[1, 2], [3]]), length: length, name: "s")
        let error = await #expect(throws: SerializationError.self) { _ = try await collect(upload) }
        #expect(error?.code == .encodingFailed)
    }
}
