import DecantCharset
import DecantCore
import DecantString
import Foundation
import Testing

/// The `string` serializer, its factory and its module, through DecantCore's public API only.
@Suite struct StringResponseSerializerTests {
    static func response(type: String?, body: [UInt8], status: Int = 200) -> Response {
        var headers = HTTPHeaderFields()
        if let type { headers.append(name: "Content-Type", value: type) }
        return Response(status: status, headers: headers, body: Data(body))
    }

    // MARK: - The serializer

    @Test func headerCharsetSelectsTheEncoding() throws {
        // Python: "日本語".encode("shift_jis") == b"\x93\xfa\x96\x7b\x8c\xea"
        let response = Self.response(type: "text/plain; charset=Shift_JIS", body: [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA])
        let decoded = try StringResponseSerializer().serialize(response)
        #expect(decoded.text == "日本語")
        #expect(decoded.encoding == .shiftJIS)
        #expect(decoded.source == .charsetParameter(label: "Shift_JIS"))
    }

    @Test func byteOrderMarkWinsOverTheHeader() throws {
        let response = Self.response(type: "text/plain; charset=windows-1252", body: [0xEF, 0xBB, 0xBF, 0xC3, 0xA9])
        let decoded = try StringResponseSerializer().serialize(response)
        #expect(decoded.text == "é")
        #expect(decoded.encoding == .utf8)
        #expect(decoded.source == .byteOrderMark)
        #expect(decoded.byteOrderMarkLength == 3)
    }

    @Test func defaultEncodingForTextWithoutCharset() throws {
        let response = Self.response(type: "text/plain", body: [0x93, 0x71, 0x75, 0x6F, 0x74, 0x65, 0x94])
        // Python: b"\x93quote\x94".decode("cp1252") == "“quote”"
        let legacy = StringResponseSerializer(pipeline: CharsetPipeline(defaultEncoding: .windows1252))
        #expect(try legacy.serialize(response).text == "“quote”")
        #expect(try legacy.serialize(response).source == .mediaTypeDefault)
        // UTF-8 by default: the bytes are invalid, so replacement mode substitutes them.
        #expect(try StringResponseSerializer().serialize(response).text == "\u{FFFD}quote\u{FFFD}")
    }

    @Test func strictModeFailsWithOffsetIdAndResponse() throws {
        let response = Self.response(type: "text/plain; charset=utf-8", body: Array("héllo".utf8) + [0xC3])
        let strict = StringResponseSerializer(pipeline: CharsetPipeline(mode: .strict))
        let error = try #require(throws: SerializationError.self) { try strict.serialize(response) }
        #expect(error.code == .invalidEncoding)
        #expect(error.offset == 6)
        #expect(error.serializerID == "string")
        #expect(error.response == response)
        #expect(error.mediaType?.essence == "text/plain")
        #expect(error.message.contains("not valid UTF-8 at byte 6"))
        #expect(try StringResponseSerializer().serialize(response).text == "héllo\u{FFFD}")
    }

    @Test func identityRangesAndEmptyValue() throws {
        let serializer = StringResponseSerializer()
        #expect(serializer.id == "string")
        #expect(serializer.mediaRanges == [try MediaRange(parsing: "text/*")])
        #expect(serializer.accepts(try MediaType(parsing: "text/csv")))
        #expect(!serializer.accepts(try MediaType(parsing: "application/json")))
        let empty = try serializer.emptyValue(for: Self.response(type: "text/plain; charset=gbk", body: []))
        #expect(empty.text == "")
        #expect(empty.encoding == .gbk)
        let unknown = try StringResponseSerializer(pipeline: CharsetPipeline(mode: .strict))
            .emptyValue(for: Self.response(type: "text/plain; charset=nope", body: []))
        #expect(unknown.text == "")
        #expect(unknown.source == .fallbackAfterUnknownLabel(label: "nope"))
    }

    // MARK: - The factory

    @Test func factoryDefaults() throws {
        let factory = StringSerializerFactory()
        #expect(factory.id == "string")
        #expect(factory.mediaRanges == [try MediaRange(parsing: "text/*")])
        #expect(
            factory.optionSchema.map(\.name) == [
                "defaultEncoding", "mode", "unknownLabelIsError", "encodingMode", "mediaRanges",
            ])
        let serializer = try factory.makeSerializer(configuration: [:])
        #expect(serializer.pipeline == CharsetPipeline())
        #expect(serializer.mediaRanges == MediaFormat.string.mediaRanges)
    }

    @Test(arguments: [
        ("UTF-8", TextEncoding.utf8), ("windows-1252", .windows1252), ("ISO-8859-1", .isoLatin1),
    ])
    func factoryDefaultEncodingOption(name: String, encoding: TextEncoding) throws {
        let serializer = try StringSerializerFactory().makeSerializer(configuration: ["defaultEncoding": .string(name)])
        #expect(serializer.pipeline.defaultEncoding == encoding)
    }

    @Test func factoryModeAndLabelOptions() throws {
        let factory = StringSerializerFactory()
        let strict = try factory.makeSerializer(configuration: ["mode": "strict"])
        #expect(strict.pipeline.mode == .strict)
        #expect(strict.pipeline.unknownLabelIsError)
        let lenient = try factory.makeSerializer(configuration: ["mode": "strict", "unknownLabelIsError": false])
        #expect(!lenient.pipeline.unknownLabelIsError)
        let ranges = try factory.makeSerializer(configuration: ["mediaRanges": ["text/plain", "application/x-text"]])
        #expect(ranges.mediaRanges.map(\.description) == ["text/plain", "application/x-text"])
        // ISO-8859-1 decodes 0x80-0x9F as C1 controls, not as windows-1252 punctuation.
        let latin1 = try factory.makeSerializer(configuration: ["defaultEncoding": "ISO-8859-1"])
        #expect(try latin1.serialize(Self.response(type: "text/plain", body: [0x80])).text == "\u{80}")
    }

    @Test func factoryRejectsUnknownOptions() throws {
        let error = try #require(throws: SerializationError.self) {
            try StringSerializerFactory().makeSerializer(configuration: ["defaultEncodng": "UTF-8"])
        }
        #expect(error.code == .unknownOption)
        #expect(error.codingPath == ["defaultEncodng"])
        #expect(error.serializerID == "string")
        #expect(error.message.contains("Did you mean 'defaultEncoding'?"))
    }

    @Test(arguments: [
        (
            "defaultEncoding", ConfigurationValue.string("shift_jis"),
            "one of \"UTF-8\", \"windows-1252\", \"ISO-8859-1\""
        ),
        ("defaultEncoding", .integer(1252), "not an integer"),
        ("mode", .string("lenient"), "one of \"strict\", \"replacement\""),
        ("mode", .bool(true), "not a boolean"),
        ("unknownLabelIsError", .string("yes"), "must be a boolean"),
        ("mediaRanges", .string("text/*"), "an array of media ranges"),
        ("mediaRanges", .array(["text/*", "not a range"]), "an array of media ranges"),
    ])
    func factoryRejectsIllTypedOptions(name: String, value: ConfigurationValue, expected: String) throws {
        let error = try #require(throws: SerializationError.self) {
            try StringSerializerFactory().makeSerializer(configuration: [name: value])
        }
        #expect(error.code == .invalidOption)
        #expect(error.codingPath == [name])
        #expect(error.message.contains(expected), "\(error.message)")
    }

    @Test func factoryRejectsAnEmptyMediaRangeList() throws {
        let error = try #require(throws: SerializationError.self) {
            try StringSerializerFactory().makeSerializer(configuration: ["mediaRanges": []])
        }
        #expect(error.code == .invalidOption)
        #expect(error.codingPath == ["mediaRanges"])
        #expect(error.serializerID == "string")
    }

    // MARK: - The module in a registry

    @Test func registryResolvesShiftJISTextToTheStringSerializer() throws {
        var registry = SerializerRegistry()
        let conflicts = registry.install(.string)
        #expect(conflicts.isEmpty)
        #expect(registry.moduleNames == ["DecantString"])
        let type = try MediaType(parsing: "text/plain; charset=Shift_JIS")
        let resolution = registry.resolve(type)
        #expect(resolution.chosen?.id == "string")
        #expect(registry.resolve(try MediaType(parsing: "application/json")).chosen == nil)
        // Python: "テスト".encode("shift_jis") == b"\x83\x65\x83\x58\x83\x67"
        let response = Self.response(type: type.description, body: [0x83, 0x65, 0x83, 0x58, 0x83, 0x67])
        let decoded = try registry.serialize(response, as: DecodedText.self)
        #expect(decoded.text == "テスト")
        #expect(decoded.encoding == .shiftJIS)
        let configured = try registry.serializer(id: "string", configuration: ["mode": "strict"])
        let error = #expect(throws: SerializationError.self) {
            try configured.serialize(Self.response(type: "text/plain; charset=Shift_JIS", body: [0x83]))
        }
        #expect(error?.code == .invalidEncoding)
    }

    @Test func emptyBodiesGiveAnEmptyTextThroughTheRegistry() throws {
        var registry = SerializerRegistry()
        registry.install(.string)
        let value = try registry.serialize(Self.response(type: "text/plain", body: [], status: 204))
        let decoded = try #require(value.value as? DecodedText)
        #expect(decoded.text == "")
        #expect(value.serializerID == "string")
    }
}
