import DecantCompression
import DecantTestSupport
import Foundation
import Testing

@testable import DecantCore

/// `ContentDecoding`: bodies compressed by independent tools (Python's `gzip` and `zlib` modules, the system `gzip`)
/// must decode to the original plain bytes, with the header fields updated and every failure explained.
@Suite struct ContentDecodingTests {
    /// The plain body every Python fixture below compresses (67 bytes).
    static let plain = Data(#"{"greeting": "hello, gzip", "numbers": [1, 2, 3, 1, 2, 3, 1, 2, 3]}"#.utf8)

    /// `python3 -c 'import gzip; print(list(gzip.compress(PLAIN, mtime=0)))'` (RFC 1952).
    static let gzip: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xAB, 0x56, 0x4A, 0x2F, 0x4A, 0x4D,
        0x2D, 0xC9, 0xCC, 0x4B, 0x57, 0xB2, 0x52, 0x50, 0xCA, 0x48, 0xCD, 0xC9, 0xC9, 0xD7, 0x51, 0x48,
        0xAF, 0xCA, 0x2C, 0x50, 0xD2, 0x51, 0x50, 0xCA, 0x2B, 0xCD, 0x4D, 0x4A, 0x2D, 0x2A, 0x06, 0xCA,
        0x44, 0x1B, 0xEA, 0x28, 0x18, 0xE9, 0x28, 0x18, 0xEB, 0x28, 0xA0, 0x33, 0x62, 0x6B, 0x01, 0xE0,
        0x5F, 0xF8, 0x9B, 0x43, 0x00, 0x00, 0x00,
    ]

    /// `python3 -c 'import zlib; print(list(zlib.compress(PLAIN)))'` (RFC 1950, what `deflate` means).
    static let zlib: [UInt8] = [
        0x78, 0x9C, 0xAB, 0x56, 0x4A, 0x2F, 0x4A, 0x4D, 0x2D, 0xC9, 0xCC, 0x4B, 0x57, 0xB2, 0x52, 0x50,
        0xCA, 0x48, 0xCD, 0xC9, 0xC9, 0xD7, 0x51, 0x48, 0xAF, 0xCA, 0x2C, 0x50, 0xD2, 0x51, 0x50, 0xCA,
        0x2B, 0xCD, 0x4D, 0x4A, 0x2D, 0x2A, 0x06, 0xCA, 0x44, 0x1B, 0xEA, 0x28, 0x18, 0xE9, 0x28, 0x18,
        0xEB, 0x28, 0xA0, 0x33, 0x62, 0x6B, 0x01, 0xB4, 0x75, 0x12, 0x0A,
    ]

    /// `python3 -c 'import zlib; c = zlib.compressobj(6, zlib.DEFLATED, -15); print(list(c.compress(PLAIN) +
    /// c.flush()))'`: raw DEFLATE (RFC 1951) without the zlib wrapper, what broken servers send as `deflate`.
    static let rawDeflate: [UInt8] = [
        0xAB, 0x56, 0x4A, 0x2F, 0x4A, 0x4D, 0x2D, 0xC9, 0xCC, 0x4B, 0x57, 0xB2, 0x52, 0x50, 0xCA, 0x48,
        0xCD, 0xC9, 0xC9, 0xD7, 0x51, 0x48, 0xAF, 0xCA, 0x2C, 0x50, 0xD2, 0x51, 0x50, 0xCA, 0x2B, 0xCD,
        0x4D, 0x4A, 0x2D, 0x2A, 0x06, 0xCA, 0x44, 0x1B, 0xEA, 0x28, 0x18, 0xE9, 0x28, 0x18, 0xEB, 0x28,
        0xA0, 0x33, 0x62, 0x6B, 0x01,
    ]

    /// `python3 -c 'import gzip, zlib; print(list(gzip.compress(zlib.compress(PLAIN), mtime=0)))'`: deflate applied
    /// first, then gzip, so `Content-Encoding: deflate, gzip`.
    static let deflateThenGzip: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x01, 0x3B, 0x00, 0xC4, 0xFF, 0x78,
        0x9C, 0xAB, 0x56, 0x4A, 0x2F, 0x4A, 0x4D, 0x2D, 0xC9, 0xCC, 0x4B, 0x57, 0xB2, 0x52, 0x50, 0xCA,
        0x48, 0xCD, 0xC9, 0xC9, 0xD7, 0x51, 0x48, 0xAF, 0xCA, 0x2C, 0x50, 0xD2, 0x51, 0x50, 0xCA, 0x2B,
        0xCD, 0x4D, 0x4A, 0x2D, 0x2A, 0x06, 0xCA, 0x44, 0x1B, 0xEA, 0x28, 0x18, 0xE9, 0x28, 0x18, 0xEB,
        0x28, 0xA0, 0x33, 0x62, 0x6B, 0x01, 0xB4, 0x75, 0x12, 0x0A, 0x89, 0x1E, 0x73, 0xD4, 0x3B, 0x00,
        0x00, 0x00,
    ]

    /// `python3 -c 'import gzip; print(list(gzip.compress(b"first member\n", mtime=0) +
    /// gzip.compress(b"second member\n", mtime=0)))'`: two gzip members, one after the other (RFC 1952 §2.2).
    static let twoMembers: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x4B, 0xCB, 0x2C, 0x2A, 0x2E, 0x51,
        0xC8, 0x4D, 0xCD, 0x4D, 0x4A, 0x2D, 0xE2, 0x02, 0x00, 0xA7, 0xF4, 0x85, 0x0A, 0x0D, 0x00, 0x00,
        0x00, 0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x2B, 0x4E, 0x4D, 0xCE, 0xCF,
        0x4B, 0x51, 0xC8, 0x4D, 0xCD, 0x4D, 0x4A, 0x2D, 0xE2, 0x02, 0x00, 0x36, 0x18, 0x4B, 0x0E, 0x0E,
        0x00, 0x00, 0x00,
    ]

    /// `python3 -c 'import gzip; print(list(gzip.compress(b"a" * 5000, mtime=0)))'`: 41 bytes that decode to 5,000.
    static let fiveThousandAs: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xED, 0xC1, 0x31, 0x01, 0x00, 0x00,
        0x00, 0xC2, 0xA0, 0xAC, 0xEB, 0x5F, 0xC2, 0x14, 0x7E, 0x40, 0x01, 0x00, 0x00, 0x00, 0x00, 0x6F,
        0x03, 0x76, 0x59, 0xF4, 0x4C, 0x88, 0x13, 0x00, 0x00,
    ]

    static func response(_ body: [UInt8], encoding: String?, extra: [(String, String)] = []) -> Response {
        var headers: HTTPHeaderFields = ["Content-Type": "application/json"]
        if let encoding { headers.append(name: "Content-Encoding", value: encoding) }
        headers.append(name: "Content-Length", value: String(body.count))
        for (name, value) in extra { headers.append(name: name, value: value) }
        return Response(status: 200, headers: headers, body: Data(body))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let body: [UInt8]
        let encoding: String
        let expected: Data
        var testDescription: String { "\(name) (Content-Encoding: \(encoding))" }
    }

    static let cases: [Case] = [
        Case(name: "gzip", body: gzip, encoding: "gzip", expected: plain),
        Case(name: "x-gzip", body: gzip, encoding: "x-gzip", expected: plain),
        Case(name: "deflate (zlib)", body: zlib, encoding: "deflate", expected: plain),
        Case(name: "deflate (raw fallback)", body: rawDeflate, encoding: "deflate", expected: plain),
        Case(name: "identity is no coding", body: gzip, encoding: "gzip, identity", expected: plain),
        Case(name: "identity first", body: gzip, encoding: "identity, gzip", expected: plain),
        Case(name: "empty list elements", body: gzip, encoding: " , gzip ,, ", expected: plain),
        Case(name: "deflate then gzip", body: deflateThenGzip, encoding: "deflate, gzip", expected: plain),
        Case(name: "uppercase gzip", body: gzip, encoding: "GZIP", expected: plain),
        Case(name: "mixed-case x-gzip", body: gzip, encoding: "X-GZip", expected: plain),
        Case(name: "mixed-case deflate", body: zlib, encoding: "Deflate", expected: plain),
        Case(
            name: "concatenated members", body: twoMembers, encoding: "gzip",
            expected: Data("first member\nsecond member\n".utf8)),
    ]

    @Test(arguments: cases)
    func decodesToTheOriginalBytes(testCase: Case) throws {
        let decoded = try ContentDecoding().process(Self.response(testCase.body, encoding: testCase.encoding))
        #expect(decoded.body == testCase.expected)
    }

    @Test func repeatedFieldsAreOneListInOrder() throws {
        // Two `Content-Encoding` fields are one list (RFC 9110 §5.3): deflate was applied first, then gzip.
        let response = Self.response(Self.deflateThenGzip, encoding: "deflate", extra: [("content-encoding", "gzip")])
        let decoded = try ContentDecoding().process(response)
        #expect(decoded.body == Self.plain)
        #expect(!decoded.headers.contains("Content-Encoding"))
    }

    @Test func theOrderOfTheCodingsMatters() {
        // The same bytes announced the wrong way round: deflate would be decoded first, from gzip data.
        let response = Self.response(Self.deflateThenGzip, encoding: "gzip, deflate")
        let error = #expect(throws: SerializationError.self) { try ContentDecoding().process(response) }
        #expect(error?.response == response)
        #expect(error?.message.contains("coding 2 of 2") == true)
    }

    @Test func headerFieldsDescribeTheDecodedBody() throws {
        let response = Self.response(Self.gzip, encoding: "gzip", extra: [("ETag", "\"abc\"")])
        let decoded = try ContentDecoding().process(response)
        #expect(decoded.headers["Content-Encoding"] == nil)
        #expect(decoded.headers["Content-Length"] == String(Self.plain.count))
        #expect(decoded.headers["ETag"] == "\"abc\"")
        #expect(decoded.contentType == response.contentType)
        #expect(decoded.status == response.status)
        // Without a Content-Length, none is added.
        var noLength = response
        noLength.headers.remove("Content-Length")
        let decodedWithoutLength = try ContentDecoding().process(noLength)
        #expect(!decodedWithoutLength.headers.contains("Content-Length"))
        #expect(decodedWithoutLength.body == Self.plain)
    }

    @Test func responsesWithoutACodingPassThroughUnchanged() throws {
        let stage = ContentDecoding()
        let plain = Response(status: 200, headers: ["Content-Type": "application/json"], body: Self.plain)
        #expect(try stage.process(plain) == plain)
        let identity = Self.response(Array(Self.plain), encoding: "identity")
        #expect(try stage.process(identity) == identity)
        let upperIdentity = Self.response(Array(Self.plain), encoding: " Identity ,")
        #expect(try stage.process(upperIdentity) == upperIdentity)
        // A HEAD or 304 response announces the coding of a body it does not carry, whatever the coding.
        for coding in ["gzip", "br"] {
            let head = Response(
                status: 200, headers: ["Content-Encoding": coding, "Content-Length": "71"], requestMethod: "HEAD")
            #expect(try stage.process(head) == head)
        }
    }

    @Test(arguments: ["br", "zstd", "compress", "x-compress", "gzip;q=1", "pack200-gzip"])
    func unknownCodingsAreUnsupported(coding: String) {
        let response = Self.response(Self.gzip, encoding: "gzip, \(coding)")
        let error = #expect(throws: SerializationError.self) { try ContentDecoding().process(response) }
        #expect(error?.code == .unsupportedFeature)
        #expect(error?.message.contains("'\(coding)'") == true)
        #expect(error?.message.contains("Accept-Encoding: gzip") == true)
        #expect(error?.response == response)
    }

    @Test func anUnsupportedCodingIsFoundBeforeAnythingIsDecoded() {
        // `br` was applied first, so gzip would be decoded first; the error comes before that work, and names `br`.
        let response = Self.response(Self.gzip, encoding: "br, gzip")
        let error = #expect(throws: SerializationError.self) { try ContentDecoding().process(response) }
        #expect(error?.code == .unsupportedFeature)
        #expect(error?.message.contains("'br'") == true)
    }

    @Test func corruptDataIsAnInvalidBodyWithTheOffsetAndTheResponse() {
        var corrupt = Self.gzip
        corrupt[64] ^= 0x01  // inside the CRC-32, which starts at offset 63
        let response = Self.response(corrupt, encoding: "gzip")
        let error = #expect(throws: SerializationError.self) { try ContentDecoding().process(response) }
        #expect(error?.code == .invalidBody)
        #expect(error?.offset == 63)
        #expect(error?.message.contains("CRC-32") == true)
        #expect(error?.message.contains("Content-Encoding 'gzip'") == true)
        #expect(error?.response == response)
        #expect(error?.response?.body == Data(corrupt))
        #expect(error?.mediaType?.essence == "application/json")
    }

    @Test func aBodyThatIsNotGzipExplainsTheLikelyCause() {
        // What URLSession hands over: the body already decoded, the field kept.
        let response = Self.response(Array(Self.plain), encoding: "gzip")
        let error = #expect(throws: SerializationError.self) { try ContentDecoding().process(response) }
        #expect(error?.code == .invalidBody)
        #expect(error?.offset == 0)
        #expect(error?.message.contains("already decoded") == true)
    }

    @Test func aTruncatedBodyIsReportedAsTruncated() {
        let response = Self.response(Array(Self.gzip.prefix(40)), encoding: "gzip")
        let error = #expect(throws: SerializationError.self) { try ContentDecoding().process(response) }
        #expect(error?.code == .truncatedBody)
        #expect(error?.response == response)
    }

    @Test func theDecodedSizeIsLimited() throws {
        let response = Self.response(Self.fiveThousandAs, encoding: "gzip")
        let error = #expect(throws: SerializationError.self) {
            try ContentDecoding(maxDecodedBytes: 4999).process(response)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("maxDecodedBytes (4999 bytes)") == true)
        #expect(error?.message.contains("`ContentDecoding.maxDecodedBytes`") == true)
        #expect(error?.response == response)
        #expect(try ContentDecoding(maxDecodedBytes: 5000).process(response).body == Data(repeating: 0x61, count: 5000))
        #expect(ContentDecoding.default.maxDecodedBytes == BodySizeLimit.default.maxBytes)
    }

    @Test func theExpansionRatioIsLimited() throws {
        // 41 bytes that decode to 5,000: a ratio of about 122.
        let response = Self.response(Self.fiveThousandAs, encoding: "gzip")
        let error = #expect(throws: SerializationError.self) {
            try ContentDecoding(maxExpansionRatio: 100).process(response)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("maxExpansionRatio (100)") == true)
        #expect(error?.message.contains("`ContentDecoding.maxExpansionRatio`") == true)
        #expect(try ContentDecoding(maxExpansionRatio: 200).process(response).body.count == 5000)
        // The smaller limit is the one reported.
        let bytes = #expect(throws: SerializationError.self) {
            try ContentDecoding(maxDecodedBytes: 1000, maxExpansionRatio: 100).process(response)
        }
        #expect(bytes?.message.contains("maxDecodedBytes (1000 bytes)") == true)
    }

    @Test func aGzipBodyIsDecodedEndToEndInAChain() throws {
        var chain = ResponseChain(TaggingSerializer("json", "application/json"))
        chain.preprocessors = [BodySizeLimit.default, ContentDecoding()]
        let response = Self.response(Self.gzip, encoding: "gzip")
        #expect(try chain.serialize(response) == "json:" + String(decoding: Self.plain, as: UTF8.self))

        // A serializer's error after decoding carries the decoded response; a decoding error the response as sent.
        var integers = ResponseChain(IntegerSerializer(ranges: [MediaRange("application/json")]))
        integers.preprocessors = [ContentDecoding()]
        let parseError = #expect(throws: SerializationError.self) { try integers.serialize(response) }
        #expect(parseError?.code == .invalidBody)
        #expect(parseError?.response?.body == Self.plain)
        #expect(parseError?.response?.headers.contains("Content-Encoding") == false)
        var corrupt = Self.gzip
        corrupt[20] ^= 0xFF
        let sent = Self.response(corrupt, encoding: "gzip")
        let decodeError = #expect(throws: SerializationError.self) { try chain.serialize(sent) }
        #expect(decodeError?.response == sent)
    }

    // MARK: - Header CRC, trailing bytes

    /// A gzip member with FHCRC set, built with Python: the header `1F 8B 08 02 00 00 00 00 00 03`, then
    /// `zlib.crc32(header) & 0xFFFF` little-endian, raw DEFLATE of `b"hello, header crc\n"`, CRC-32 and ISIZE.
    /// `gzip.decompress` accepts it.
    static let headerCRC: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xA7, 0x77, 0xCB, 0x48, 0xCD, 0xC9,
        0xC9, 0xD7, 0x51, 0xC8, 0x48, 0x4D, 0x4C, 0x49, 0x2D, 0x52, 0x48, 0x2E, 0x4A, 0xE6, 0x02, 0x00,
        0x38, 0xE4, 0xF8, 0x2E, 0x12, 0x00, 0x00, 0x00,
    ]

    @Test func theHeaderCRCIsChecked() throws {
        let decoded = try ContentDecoding().process(Self.response(Self.headerCRC, encoding: "gzip"))
        #expect(decoded.body == Data("hello, header crc\n".utf8))
        var corrupt = Self.headerCRC
        corrupt[10] ^= 0x01
        let error = #expect(throws: SerializationError.self) {
            try ContentDecoding().process(Self.response(corrupt, encoding: "gzip"))
        }
        #expect(error?.code == .invalidBody)
        #expect(error?.offset == 10)
        #expect(error?.message.contains("FHCRC") == true)
    }

    /// As Python's `gzip.decompress`: zero bytes after the last member are padding, anything else is an error.
    @Test(arguments: [
        ([UInt8](), true), ([0, 0, 0], true), ([0x78, 0x79, 0x7A], false), ([0x1F], false),
        ([0, 0, 0x78], false),
    ])
    func trailingBytesAfterTheLastMember(_ trailer: [UInt8], accepted: Bool) throws {
        let response = Self.response(Self.gzip + trailer, encoding: "gzip")
        if accepted {
            #expect(try ContentDecoding().process(response).body == Self.plain)
            #expect(try Inflate.gzip(Self.gzip + trailer) == Array(Self.plain))
        } else {
            let error = #expect(throws: SerializationError.self) { try ContentDecoding().process(response) }
            #expect(error?.code == .invalidBody)
            #expect(error?.message.contains("zero padding") == true)
            let trailing = #expect(throws: InflateError.self) { try Inflate.gzip(Self.gzip + trailer) }
            #expect(trailing?.code == .invalidBody)
        }
    }

    // MARK: - Automatic decoding (every chain's default)

    @Test func chainsDecodeSignedBodiesByDefault() throws {
        let chain = ResponseChain(TaggingSerializer("json", "application/json"))
        let text = "json:" + String(decoding: Self.plain, as: UTF8.self)
        #expect(try chain.serialize(Self.response(Self.gzip, encoding: "gzip")) == text)
        #expect(try chain.serialize(Self.response(Self.zlib, encoding: "deflate")) == text)
        #expect(try chain.serialize(Self.response(Self.deflateThenGzip, encoding: "deflate, gzip")) == text)
        // Already decoded by the client, which kept the field (URLSession, curl --compressed): unchanged.
        #expect(try chain.serialize(Self.response(Array(Self.plain), encoding: "gzip")) == text)
        // A coding the stage does not know passes through.
        let brotli = Self.response(Array(Self.plain), encoding: "br")
        #expect(try ContentDecoding.automatic.process(brotli) == brotli)
        // Raw DEFLATE has no signature: only `ContentDecoding()` decodes it.
        let raw = Self.response(Self.rawDeflate, encoding: "deflate")
        #expect(try ContentDecoding.automatic.process(raw) == raw)
        #expect(try ContentDecoding().process(raw).body == Self.plain)
    }

    @Test func theRegistryDecodesSignedBodiesByDefault() throws {
        let registry = SerializerRegistry(modules: [
            SerializerModule(name: "Texts", factories: [TaggingFactory("texts", "application/json")])
        ])
        let text = "texts:" + String(decoding: Self.plain, as: UTF8.self)
        let response = Self.response(Self.gzip, encoding: "gzip")
        #expect(try registry.serialize(response).value as? String == text)
        #expect(try registry.serialize(response, as: String.self) == text)
        // Corrupt data with the signature is an error naming the coding, with the response as sent.
        var corrupt = Self.gzip
        corrupt[20] ^= 0xFF
        let sent = Self.response(corrupt, encoding: "gzip")
        let error = #expect(throws: SerializationError.self) { try registry.serialize(sent, as: String.self) }
        #expect(error?.code == .invalidBody)
        #expect(error?.message.contains("Content-Encoding 'gzip'") == true)
        #expect(error?.response == sent)
    }

    /// A body that still looks encoded makes the serializer's error say so.
    @Test func errorsOnBodiesThatLookEncodedSaySo() throws {
        let registry = SerializerRegistry(modules: [
            SerializerModule(name: "Integers", factories: [IntegerFactory()])
        ])
        let unlabelled = Self.response(Self.gzip, encoding: nil)
        let gzipError = #expect(throws: SerializationError.self) { try registry.serialize(unlabelled, as: Int.self) }
        #expect(gzipError?.code == .invalidBody)
        #expect(gzipError?.message.contains("starts with gzip's signature (1F 8B)") == true)
        let brotli = Self.response([0x8B, 0x03, 0x80], encoding: "br")
        let brotliError = #expect(throws: SerializationError.self) { try registry.serialize(brotli) }
        #expect(brotliError?.message.contains("Content-Encoding 'br', which Decant does not decode") == true)
        let raw = Self.response(Self.rawDeflate, encoding: "deflate")
        let rawError = #expect(throws: SerializationError.self) { try registry.serialize(raw) }
        #expect(rawError?.message.contains("raw DEFLATE") == true)
        // A body that is just wrong gets no such sentence.
        let plain = Self.response(Array("12x".utf8), encoding: nil)
        let plainError = #expect(throws: SerializationError.self) { try registry.serialize(plain) }
        #expect(plainError?.message.contains("Content-Encoding") == false)
    }

    /// ``IntegerSerializer`` for `application/json`, as a factory.
    struct IntegerFactory: SerializerFactory {
        var format: MediaFormat {
            MediaFormat(
                id: "integer", mediaRanges: [MediaRange("application/json")], summary: "Decimal digits (tests).")
        }
        func makeSerializer(options: Void) -> IntegerSerializer { IntegerSerializer(ranges: mediaRanges) }
    }

    // MARK: - The system gzip

    /// The system `gzip` binary, when one is on the `PATH`.
    static let gzipTool: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("gzip")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    /// Compresses `data` with the system `gzip` at `level`.
    static func runGzip(_ tool: URL, _ data: Data, level: Int) throws -> Data {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("decant-gzip-\(UUID().uuidString)")
        try data.write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = tool
        process.arguments = ["-c", "-n", "-\(level)", input.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return output
    }

    @Test(.enabled(if: gzipTool != nil, "needs the system gzip"), arguments: [1, 6, 9])
    func decodesWhatTheSystemGzipWrote(level: Int) throws {
        let tool = try #require(Self.gzipTool)
        // 300 KB of seeded words and random bytes: long matches, literals, several blocks.
        var generator = SplitMix64(state: 0x9_2199)
        let words = ["decant", "gzip", "deflate", "{\"key\": [1, 2, 3]}", " ", "\n", "content-encoding"]
        var plain: [UInt8] = []
        while plain.count < 300_000 {
            if UInt8.random(in: 0...9, using: &generator) == 0 {
                plain += (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                plain += Array(words[Int.random(in: 0..<words.count, using: &generator)].utf8)
            }
        }
        let compressed = try Self.runGzip(tool, Data(plain), level: level)
        #expect(compressed.count < plain.count)
        let decoded = try ContentDecoding().process(Self.response(Array(compressed), encoding: "gzip"))
        #expect(decoded.body == Data(plain))
        // Two files concatenated (`cat a.gz b.gz`) are one gzip body with two members.
        let twice = try ContentDecoding().process(Self.response(Array(compressed + compressed), encoding: "x-gzip"))
        #expect(twice.body == Data(plain + plain))
    }
}
