import Decant
import DecantConformance
import DecantMultipart
import Foundation
import Testing

/// Untrusted input: garbage, bodies that claim a lot, and bodies made of very many parts.
@Suite struct RobustnessTests {
    typealias Support = MultipartTestSupport

    /// Checks what must hold of any parsed body: part bodies without a transfer encoding lie inside the input.
    static func checkInvariants(_ body: MultipartBody, input: Data) {
        for part in body.parts where part.headers.firstValue(for: "Content-Transfer-Encoding") == nil {
            let offset = part.body.startIndex - input.startIndex
            #expect(offset >= 0 && offset + part.body.count <= input.count)
            #expect(part.bodyOffset == offset)
        }
    }

    /// One megabyte of random bytes under a valid boundary, alone and with delimiter lines spliced in: an error or a
    /// value, never a crash.
    @Test(arguments: [false, true])
    func megabyteOfGarbage(withDelimiters: Bool) throws {
        var generator = SplitMix64(seed: withDelimiters ? 2 : 1)
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        if withDelimiters {
            let delimiter = Array("\r\n--xyz\r\nContent-Type: application/json\r\n\r\n".utf8)
            for position in stride(from: 0, to: bytes.count - 100, by: 4096) {
                bytes.replaceSubrange(position..<(position + delimiter.count), with: delimiter)
            }
            bytes += Array("\r\n--xyz--\r\n".utf8)
        }
        let input = Data(bytes)
        do {
            let body = try Support.serializer().serialize(
                Support.response(input, contentType: "multipart/mixed; boundary=xyz"))
            #expect(withDelimiters)
            #expect(body.parts.count == 256)
            #expect(body.parts.allSatisfy { $0.error != nil && $0.value == nil })
            Self.checkInvariants(body, input: input)
        } catch let error as SerializationError {
            #expect(!withDelimiters)
            #expect(error.code == .invalidBody)
            #expect(error.offset.map { (0...input.count).contains($0) } == true)
        }
    }

    /// Header fields that claim a lot are only text: a huge Content-Length or Content-Range allocates nothing.
    @Test func headersThatClaimALot() throws {
        let body = try Support.parse(
            "--b\r\nContent-Length: 99999999999999999999\r\n\r\nsmall\r\n"
                + "--b\r\nContent-Range: bytes 0-4/9223372036854775807\r\n\r\ntiny!\r\n--b--",
            contentType: "multipart/byteranges; boundary=b")
        #expect(body.parts[0].body.count == 5)
        #expect(body.parts[0].error?.code == .invalidBody)  // no Content-Range in a byteranges body
        #expect(body.parts[1].contentRange == nil)  // 19 digits: refused, not trusted
        #expect(body.parts[1].error?.code == .invalidBody)
    }

    /// 100,000 tiny parts in 800 kB exceed the default maxParts (10,000) before they are all read.
    @Test func hundredThousandTinyPartsExceedMaxParts() {
        var text = String(repeating: "--b\r\n\r\n\r\n", count: 100_000)
        text += "--b--"
        let error = #expect(throws: SerializationError.self) { try Support.parse(text) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("'maxParts'") == true)
        #expect(error?.message.contains("10000") == true)
    }

    /// maxParts counts the parts of every nesting level together (2 outer + 6 inner = 8).
    @Test func maxPartsCountsNestedParts() {
        let inner = String(repeating: "--i\r\n\r\nx\r\n", count: 3) + "--i--"
        let text =
            "--b\r\nContent-Type: multipart/mixed; boundary=i\r\n\r\n\(inner)\r\n"
            + "--b\r\nContent-Type: multipart/mixed; boundary=i\r\n\r\n\(inner)\r\n--b--"
        #expect(throws: Never.self) { try Support.parse(text, options: MultipartParsingOptions(maxParts: 8)) }
        let error = #expect(throws: SerializationError.self) {
            try Support.parse(text, options: MultipartParsingOptions(maxParts: 7))
        }
        #expect(error?.code == .limitExceeded)
    }

    /// A part body without a transfer encoding shares the response body's storage.
    @Test func partBodiesAreNotCopied() throws {
        let payload = String(repeating: "0123456789abcdef", count: 4096)
        let input = Data("preamble\r\n--b\r\nContent-Type: application/octet-stream\r\n\r\n\(payload)\r\n--b--".utf8)
        let body = try Support.serializer().serialize(
            Support.response(input, contentType: "multipart/mixed; boundary=b"))
        let part = body.parts[0]
        #expect(part.body.count == payload.utf8.count)
        let inputBase = input.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        let partBase = part.body.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(partBase == inputBase + UInt(part.bodyOffset))
        #expect(part.body.startIndex == part.bodyOffset)
        // The `data` serializer returns the slice itself.
        let value = try #require(part.value(as: Data.self))
        #expect(value.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } == partBase)
    }

    /// Every built-in serializer parts are routed to reads a slice (non-zero `startIndex`) correctly: the value is
    /// the expected one and equals what the same serializer makes of a fresh copy of the bytes.
    @Test(arguments: [
        ("application/json", "{\"k\": [1, true, \"\u{e9}\"]}", "json"),
        ("text/plain; charset=utf-8", "h\u{e9}llo\r\nworld", "string"),
        ("text/plain; charset=iso-8859-1", "caf\u{e9}", "string"),
        ("application/xml", "<?xml version=\"1.0\"?><a x=\"1\"><b>t</b></a>", "xmlDocument"),
        (
            "application/x-plist",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>n</key><integer>5</integer>"
                + "</dict></plist>", "propertyList"
        ),
        ("application/octet-stream", "\u{1}\u{2}", "data"),
    ])
    func builtInSerializersReadSlices(contentType: String, content: String, serializer: String) throws {
        let contentBytes =
            contentType.contains("iso-8859-1")
            ? Data(content.unicodeScalars.map { UInt8($0.value) }) : Data(content.utf8)
        let input =
            Data("padding padding\r\n--b\r\nContent-Type: \(contentType)\r\n\r\n".utf8) + contentBytes
            + Data("\r\n--b--".utf8)
        let body = try Support.serializer().serialize(
            Support.response(input, contentType: "multipart/mixed; boundary=b"))
        let part = body.parts[0]
        #expect(part.body.startIndex > 0)
        #expect(part.error == nil, "\(part.error.map(String.init(describing:)) ?? "")")
        #expect(part.serializerID?.rawValue == serializer)
        let sliced = try CanonicalForm.of(try #require(part.value))
        let fresh = try Support.partRegistry.serialize(
            Response(headers: ["Content-Type": contentType], body: Data(contentBytes)))
        #expect(sliced == (try CanonicalForm.of(fresh.value)))
        switch serializer {
        case "json": #expect(sliced == ["k": [1, true, "é"]])
        case "string": #expect(part.value(as: DecodedText.self)?.text == content)
        default: break
        }
    }
}

/// The JSONTestSuite files, each sent as an `application/json` part of one multipart body: the part outcome must be
/// the file's (`y_` a value, `n_` an error), and no file disturbs the framing of the others.
@Suite struct CorpusTests {
    @Test(.enabled(if: MultipartTestSupport.corpora.isAvailable))
    func jsonTestSuiteFilesAsParts() throws {
        let directory = try #require(MultipartTestSupport.corpora.root)
            .appendingPathComponent("json/JSONTestSuite/test_parsing")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { ($0.hasPrefix("y_") || $0.hasPrefix("n_")) && $0.hasSuffix(".json") }.sorted()
        let boundary = "corpus-7f1b3c9e"
        var body = Data()
        var expectations: [(name: String, accepts: Bool)] = []
        for name in names {
            let content = try Data(contentsOf: directory.appendingPathComponent(name))
            guard content.range(of: Data(boundary.utf8)) == nil else { continue }
            body += Data("--\(boundary)\r\nContent-Type: application/json\r\n\r\n".utf8) + content + Data("\r\n".utf8)
            expectations.append((name, name.hasPrefix("y_")))
        }
        body += Data("--\(boundary)--\r\n".utf8)
        let parsed = try MultipartTestSupport.serializer().serialize(
            MultipartTestSupport.response(body, contentType: "multipart/mixed; boundary=\(boundary)"))
        #expect(parsed.parts.count == expectations.count)
        var passed = 0
        var failed: [String] = []
        for (part, expectation) in zip(parsed.parts, expectations) {
            if (part.value != nil) == expectation.accepts && (part.error != nil) == !expectation.accepts {
                passed += 1
            } else {
                failed.append(expectation.name)
            }
        }
        print("JSONTestSuite (y_ and n_ files as parts): \(passed) passed, \(failed.count) failed")
        #expect(failed.isEmpty, "\(failed)")
        #expect(expectations.count > 250)
    }
}
