public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A multipart request body built part by part and sent as a stream: form fields, values encoded through a
/// registry by their own type, bytes, files read from disk while they are sent, and `AsyncSequence`s of chunks.
///
/// Nothing is read when a part is appended: a file's length comes from the file system, and its bytes are read
/// when ``chunks(size:)`` is iterated, one chunk at a time, so sending a body of any size holds about one chunk in
/// memory (plus the parts given as `Data`). ``contentLength`` is known when every part's length is.
///
/// ```swift
/// var upload = MultipartUpload.formData()
/// try upload.append("Ada", name: "author")
/// try upload.append(metadata, name: "meta", as: "application/json", registry: .standard)
/// try upload.appendFile(at: URL(filePath: "/tmp/Grüße.png"), name: "photo")
/// let (data, response) = try await URLSession.shared.upload(
///     streaming: upload.chunks(), headerFields: upload.headerFields, for: request)   // DecantFoundation
/// ```
///
/// Form data follows RFC 7578 and the WHATWG HTML Standard's form submission: every part has
/// `Content-Disposition: form-data; name="..."` (and `filename="..."` for files), the parameter values written as
/// UTF-8 with `"`, CR and LF percent-encoded (`%22`, `%0D`, `%0A`). Other subtypes (`mixed`, `related`) write a
/// `Content-Disposition: attachment; filename="..."` only for parts given a file name.
///
/// **The boundary cannot occur in a part.** A generated boundary is `decant-` and 128 random bits. Parts held in
/// memory are checked when they are appended: with a generated boundary a new one is drawn (and every part checked
/// again), with a boundary you gave the append throws. Streamed parts (files, sequences) are checked while they are
/// sent, and a chunk that completes `--boundary` fails the stream with `encodingFailed` instead of sending it.
public struct MultipartUpload: Sendable {
    /// The chunk size of ``chunks(size:)`` unless one is given: 64 KiB.
    public static let defaultChunkSize = 65_536
    /// The largest chunk size accepted by ``chunks(size:)`` (16 MiB); larger sizes are clamped to it, smaller than
    /// 1,024 bytes to 1,024.
    public static let maxChunkSize = 16 << 20

    /// The media type without the boundary, such as `multipart/related;type="application/json"`.
    public let mediaType: MediaType
    /// The boundary between the parts (without the leading `--`).
    public private(set) var boundary: String
    /// The parts, in order.
    private(set) var parts: [Part] = []
    /// Whether the boundary was generated (and may be drawn again), rather than given.
    private let generatesBoundary: Bool

    /// Creates an empty body of `multipart/<subtype>`.
    ///
    /// - Parameters:
    ///   - subtype: `form-data` (the default), `mixed`, `related`, `alternative`, ...
    ///   - parameters: Further media type parameters, such as `type` and `start` for `related` (RFC 2387).
    ///   - boundary: The boundary to use; generated when `nil`.
    /// - Throws: `SerializationError` with code `encodingFailed` when `boundary` is not 1-70 `bchars` (RFC 2046
    ///   §5.1.1) or ends with a space.
    public init(
        subtype: String = "form-data", parameters: MediaTypeParameters = MediaTypeParameters(),
        boundary: String? = nil
    ) throws(SerializationError) {
        if let boundary, !MultipartWriter.isValidBoundary(boundary) {
            throw SerializationError(
                code: .encodingFailed,
                message: "The boundary \"\(boundary)\" is not valid: use 1 to 70 letters, digits or '()+_,-./:=? "
                    + "and spaces, not ending with a space (RFC 2046 §5.1.1), or let one be generated.")
        }
        self.init(
            subtype: subtype, parameters: parameters, boundary: boundary ?? MultipartWriter.makeBoundary(),
            generatesBoundary: boundary == nil)
    }

    /// Creates an empty body whose boundary is valid.
    private init(subtype: String, parameters: MediaTypeParameters, boundary: String, generatesBoundary: Bool) {
        var parameters = parameters
        parameters.set(nil, forName: "boundary")
        self.mediaType = MediaType(type: "multipart", subtype: subtype.lowercased(), parameters: parameters)
        self.boundary = boundary
        self.generatesBoundary = generatesBoundary
    }

    /// An empty `multipart/form-data` body (RFC 7578) with a generated boundary.
    public static func formData() -> MultipartUpload { make(subtype: "form-data", parameters: MediaTypeParameters()) }

    /// An empty `multipart/mixed` body (RFC 2046 §5.1.3) with a generated boundary.
    public static func mixed() -> MultipartUpload { make(subtype: "mixed", parameters: MediaTypeParameters()) }

    /// An empty `multipart/related` body (RFC 2387) with a generated boundary: `type` is the media type of the root
    /// part, `start` its `Content-ID` (give the root part that `Content-ID` header, `<...>` included) when it is not
    /// the first part.
    public static func related(type: MediaType, start: String? = nil) -> MultipartUpload {
        var parameters = MediaTypeParameters()
        parameters.set(type.essence, forName: "type")
        parameters.set(start, forName: "start")
        return make(subtype: "related", parameters: parameters)
    }

    /// An empty body with a generated boundary.
    private static func make(subtype: String, parameters: MediaTypeParameters) -> MultipartUpload {
        MultipartUpload(
            subtype: subtype, parameters: parameters, boundary: MultipartWriter.makeBoundary(), generatesBoundary: true)
    }

    // MARK: - The body as sent

    /// The `Content-Type` to send: ``mediaType`` with the `boundary` parameter.
    public var contentType: MediaType { mediaType.settingParameter("boundary", to: boundary) }

    /// The number of bytes ``chunks(size:)`` gives, or `nil` when a part's length is unknown (a sequence appended
    /// without a length).
    public var contentLength: Int? {
        var total = MultipartWriter.closeDelimiter(boundary, afterParts: !parts.isEmpty).count
        for (index, part) in parts.enumerated() {
            guard let length = part.source.length else { return nil }
            total += MultipartWriter.delimiter(boundary, first: index == 0).count + part.head.count + length
        }
        return total
    }

    /// The header fields that describe the body: `Content-Type`, and `Content-Length` when ``contentLength`` is
    /// known.
    public var headerFields: HTTPHeaderFields {
        var fields = [HTTPHeaderFields.Field(name: "Content-Type", value: contentType.description)]
        if let length = contentLength {
            fields.append(HTTPHeaderFields.Field(name: "Content-Length", value: "\(length)"))
        }
        return HTTPHeaderFields(fields)
    }

    /// The body as chunks of at most `size` bytes (clamped to 1,024...``maxChunkSize``), read while it is iterated:
    /// the memory held does not grow with the body. Each iteration reads the files again and iterates the appended
    /// sequences again (a sequence that can be iterated only once can be sent only once).
    ///
    /// The iteration throws `SerializationError` with code `encodingFailed` (and the part in `codingPath`) when a
    /// file cannot be opened or read, or changed its length since it was appended; when a sequence given a length
    /// yields another number of bytes; when a streamed part contains `--boundary`; and any error a sequence throws.
    public func chunks(size: Int = MultipartUpload.defaultChunkSize) -> Chunks {
        Chunks(upload: self, size: min(max(size, 1024), Self.maxChunkSize))
    }

    /// Writes the body to the file at `url` (replacing it), chunk by chunk; on failure the file is removed.
    ///
    /// - Throws: As ``chunks(size:)`` does, or `encodingFailed` when the file cannot be created or written.
    public func write(to url: URL) async throws {
        let path = url.path(percentEncoded: false)
        let output = try FileDescriptor.create(path)
        do {
            for try await chunk in chunks() { try output.write(chunk, path: path) }
            output.close()
        } catch {
            output.close()
            FileDescriptor.remove(path)
            throw error
        }
    }
}

// MARK: - Appending

extension MultipartUpload {
    /// Appends a text field: its value as UTF-8 with no `Content-Type` (`text/plain` by RFC 7578 §4.4), as browsers
    /// send it; outside `form-data`, with `Content-Type: text/plain;charset=utf-8`.
    ///
    /// - Throws: `SerializationError` with code `encodingFailed` as ``append(_:name:filename:mediaType:headers:)``
    ///   throws.
    public mutating func append(_ text: String, name: String) throws(SerializationError) {
        let type: MediaType? = mediaType.subtype == "form-data" ? nil : "text/plain;charset=utf-8"
        try append(Data(text.utf8), name: name, mediaType: type)
    }

    /// Appends bytes as a part.
    ///
    /// - Parameters:
    ///   - data: The part's bytes.
    ///   - name: The field name (required for `form-data`).
    ///   - filename: The file name, when the part is a file.
    ///   - mediaType: The part's `Content-Type`; none when `nil`.
    ///   - headers: Further header fields, such as `Content-ID` for `related` bodies.
    /// - Throws: `SerializationError` with code `encodingFailed` when a `form-data` part has no name, a header field
    ///   cannot be written, or the part contains `--boundary` and the boundary was given rather than generated.
    public mutating func append(
        _ data: Data, name: String?, filename: String? = nil, mediaType: MediaType? = nil,
        headers: HTTPHeaderFields = HTTPHeaderFields()
    ) throws(SerializationError) {
        let head = try partHead(name: name, filename: filename, mediaType: mediaType, headers: headers)
        try add(Part(head: head, source: .bytes(data)))
    }

    /// Appends `value` encoded by `registry` (`SerializerRegistry.encode`): as `mediaType` when given, otherwise as
    /// the type the registry writes the value's own type as (`encode(_:accepting: nil)`). The part's
    /// `Content-Type` is the one the format wrote (with its `charset`).
    ///
    /// - Throws: `SerializationError` as `SerializerRegistry.encode` throws, or as
    ///   ``append(_:name:filename:mediaType:headers:)`` does.
    public mutating func append(
        _ value: some Sendable, name: String?, as mediaType: MediaType? = nil, registry: SerializerRegistry,
        filename: String? = nil, options: EncodingOptions = EncodingOptions(),
        headers: HTTPHeaderFields = HTTPHeaderFields()
    ) throws(SerializationError) {
        let encoded: EncodedBody
        if let mediaType {
            encoded = try registry.encode(value, as: mediaType, options: options)
        } else {
            encoded = try registry.encode(value, accepting: nil, options: options)
        }
        try append(encoded.body, name: name, filename: filename, mediaType: encoded.contentType, headers: headers)
    }

    /// Appends the file at `url`, read while the body is sent. Its length is taken now from the file system.
    ///
    /// - Parameters:
    ///   - url: A regular file.
    ///   - name: The field name (required for `form-data`).
    ///   - filename: The file name sent; the URL's last path component when `nil`.
    ///   - mediaType: The part's `Content-Type`; guessed from the file name's extension when `nil`
    ///     (``MultipartUpload/mediaType(forFilename:)``).
    ///   - headers: Further header fields.
    /// - Throws: `SerializationError` with code `encodingFailed` when the file is not a readable regular file, or as
    ///   ``append(_:name:filename:mediaType:headers:)`` throws.
    public mutating func appendFile(
        at url: URL, name: String?, filename: String? = nil, mediaType: MediaType? = nil,
        headers: HTTPHeaderFields = HTTPHeaderFields()
    ) throws(SerializationError) {
        let path = url.path(percentEncoded: false)
        let length = try FileDescriptor.regularFileLength(path, codingPath: ["parts", String(parts.count)])
        let filename = filename ?? url.lastPathComponent
        let type = mediaType ?? Self.mediaType(forFilename: filename)
        let head = try partHead(name: name, filename: filename, mediaType: type, headers: headers)
        try add(Part(head: head, source: .file(path: path, length: length)))
    }

    /// Appends a part whose bytes are the `Data` chunks of `sequence`, iterated while the body is sent.
    ///
    /// - Parameters:
    ///   - sequence: The chunks; any size (they are cut to the chunk size of ``chunks(size:)``).
    ///   - length: The number of bytes it yields, when known (then ``contentLength`` is known, and a sequence that
    ///     yields another number fails the stream).
    ///   - name: The field name (required for `form-data`).
    ///   - filename: The file name, when the part is a file.
    ///   - mediaType: The part's `Content-Type`; none when `nil`.
    ///   - headers: Further header fields.
    /// - Throws: As ``append(_:name:filename:mediaType:headers:)`` throws, or `encodingFailed` for a negative
    ///   length.
    public mutating func append<Chunks: AsyncSequence & Sendable>(
        contentsOf sequence: Chunks, length: Int? = nil, name: String?, filename: String? = nil,
        mediaType: MediaType? = nil, headers: HTTPHeaderFields = HTTPHeaderFields()
    ) throws(SerializationError) where Chunks.Element == Data {
        try appendStream(
            length: length, name: name, filename: filename, mediaType: mediaType, headers: headers
        ) { DataChunkIterator(base: sequence.makeAsyncIterator()) }
    }

    /// Appends a part whose bytes are the `[UInt8]` chunks of `sequence`, iterated while the body is sent; see
    /// `append(contentsOf:length:name:filename:mediaType:headers:)` (for `Data` chunks).
    public mutating func append<Chunks: AsyncSequence & Sendable>(
        contentsOf sequence: Chunks, length: Int? = nil, name: String?, filename: String? = nil,
        mediaType: MediaType? = nil, headers: HTTPHeaderFields = HTTPHeaderFields()
    ) throws(SerializationError) where Chunks.Element == [UInt8] {
        try appendStream(
            length: length, name: name, filename: filename, mediaType: mediaType, headers: headers
        ) { ByteChunkIterator(base: sequence.makeAsyncIterator()) }
    }

    /// The media type of a file by its name's extension (ASCII case-insensitive), from a short list of common types
    /// (text, images, audio, video, documents, archives); `application/octet-stream` for any other.
    public static func mediaType(forFilename filename: String) -> MediaType {
        guard let dot = filename.lastIndex(of: "."), dot != filename.startIndex else {
            return "application/octet-stream"
        }
        let suffix = filename[filename.index(after: dot)...].lowercased()
        return MediaType(knownExtensions[suffix] ?? "") ?? "application/octet-stream"
    }

    /// Common file name extensions and their media types.
    private static let knownExtensions: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "html": "text/html", "htm": "text/html", "css": "text/css",
        "csv": "text/csv", "tsv": "text/tab-separated-values", "md": "text/markdown", "xml": "application/xml",
        "json": "application/json", "ndjson": "application/x-ndjson", "js": "text/javascript",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "bmp": "image/bmp", "ico": "image/vnd.microsoft.icon", "tif": "image/tiff",
        "tiff": "image/tiff", "heic": "image/heic", "avif": "image/avif", "mp3": "audio/mpeg", "wav": "audio/wav",
        "m4a": "audio/mp4", "ogg": "audio/ogg", "mp4": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "plist": "application/x-plist", "cbor": "application/cbor", "msgpack": "application/msgpack",
        "wasm": "application/wasm", "bin": "application/octet-stream",
    ]

    /// Appends a streamed part made by `makeIterator`.
    private mutating func appendStream(
        length: Int?, name: String?, filename: String?, mediaType: MediaType?, headers: HTTPHeaderFields,
        makeIterator: @escaping @Sendable () -> any ChunkIterator
    ) throws(SerializationError) {
        if let length, length < 0 {
            throw SerializationError(
                code: .encodingFailed, message: "A part's length cannot be negative (\(length)).",
                codingPath: ["parts", String(parts.count)])
        }
        let head = try partHead(name: name, filename: filename, mediaType: mediaType, headers: headers)
        try add(Part(head: head, source: .stream(length: length, makeIterator: makeIterator)))
    }

    /// The header block of a new part.
    private func partHead(
        name: String?, filename: String?, mediaType type: MediaType?, headers: HTTPHeaderFields
    ) throws(SerializationError) -> Data {
        var fields: [HTTPHeaderFields.Field] = []
        if mediaType.subtype == "form-data" {
            guard let name else {
                throw SerializationError(
                    code: .encodingFailed,
                    message: "A multipart/form-data part needs a name (RFC 7578 §4.2). Give the field's name.",
                    codingPath: ["parts", String(parts.count)])
            }
            fields.append(
                HTTPHeaderFields.Field(
                    name: "Content-Disposition", value: MultipartWriter.disposition(name: name, filename: filename)))
        } else if filename != nil {
            fields.append(
                HTTPHeaderFields.Field(
                    name: "Content-Disposition",
                    value: MultipartWriter.disposition("attachment", name: nil, filename: filename)))
        }
        if let type { fields.append(HTTPHeaderFields.Field(name: "Content-Type", value: type.description)) }
        fields.append(contentsOf: headers)
        return try MultipartWriter.headerBlock(HTTPHeaderFields(fields), codingPath: ["parts", String(parts.count)])
    }

    /// Adds `part`, after checking that the boundary occurs in none of the bytes known now (drawing a new one when
    /// it was generated).
    private mutating func add(_ part: Part) throws(SerializationError) {
        let candidate = parts + [part]
        var attempts = 0
        while let offender = Self.firstPart(of: candidate, containing: boundary) {
            guard generatesBoundary, attempts < 16 else {
                throw SerializationError(
                    code: .encodingFailed,
                    message: "Part \(offender + 1) contains \"--\(boundary)\", the boundary given, so it would end "
                        + "the part early. Let MultipartUpload generate the boundary, or choose another.",
                    codingPath: ["parts", String(offender)])
            }
            attempts += 1
            boundary = MultipartWriter.makeBoundary()
        }
        parts = candidate
    }

    /// The index of the first part whose header block or in-memory bytes contain `--boundary`.
    private static func firstPart(of parts: [Part], containing boundary: String) -> Int? {
        parts.firstIndex { part in
            if MultipartWriter.contains(part.head, delimiterOf: boundary) { return true }
            if case .bytes(let data) = part.source { return MultipartWriter.contains(data, delimiterOf: boundary) }
            return false
        }
    }
}

// MARK: - Parts

extension MultipartUpload {
    /// One part: its header block (delimiter not included) and where its bytes come from.
    struct Part: Sendable {
        /// The header fields and the empty line after them.
        var head: Data
        /// The bytes.
        var source: Source
    }

    /// Where a part's bytes come from.
    enum Source: Sendable {
        /// Bytes in memory.
        case bytes(Data)
        /// A file, read while the body is sent; `length` as the file system said when it was appended.
        case file(path: String, length: Int)
        /// A sequence of chunks, made again for each iteration.
        case stream(length: Int?, makeIterator: @Sendable () -> any ChunkIterator)

        /// The number of bytes, when known.
        var length: Int? {
            switch self {
            case .bytes(let data): data.count
            case .file(_, let length): length
            case .stream(let length, _): length
            }
        }
    }
}

/// An iterator of a streamed part's chunks, its element type erased.
protocol ChunkIterator {
    /// The next chunk, or `nil` at the end.
    mutating func nextChunk() async throws -> Data?
}

/// The chunks of an `AsyncSequence` of `Data`.
struct DataChunkIterator<Base: AsyncIteratorProtocol>: ChunkIterator where Base.Element == Data {
    var base: Base
    mutating func nextChunk() async throws -> Data? { try await base.next() }
}

/// The chunks of an `AsyncSequence` of `[UInt8]`.
struct ByteChunkIterator<Base: AsyncIteratorProtocol>: ChunkIterator where Base.Element == [UInt8] {
    var base: Base
    mutating func nextChunk() async throws -> Data? { try await base.next().map { Data($0) } }
}
