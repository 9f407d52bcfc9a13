import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantConfiguration

/// The `contentDecoding` preprocessor and the `limits.maxDecodedBytes` / `limits.maxExpansionRatio` keys of a chain
/// configuration: read, written back, and built into a chain that decodes (and stops at the limit) as in code.
@Suite struct ContentDecodingConfigurationTests {
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

    @Test func aConfigurationNamesTheStageAndItsLimits() throws {
        let json = """
            {"version": 1, "chains": [{"name": "api", "serializers": ["texts"],
              "limits": {"maxDecodedBytes": 4999, "maxExpansionRatio": 1000},
              "preprocessors": ["contentDecoding"]}]}
            """
        let configuration = try ChainConfiguration(data: Data(json.utf8))
        let settings = configuration.chains[0]
        #expect(settings.preprocessors == [.contentDecoding])
        #expect(settings.maxDecodedBytes == 4999)
        #expect(settings.maxExpansionRatio == 1000)
        #expect(try ChainConfiguration(data: configuration.jsonData()) == configuration)

        var registry = SerializerRegistry()
        registry.install(SerializerModule(name: "Texts", factories: [TaggingFactory("texts", "application/json")]))
        let chain = try registry.load(configuration).chain(named: "api")
        let decoded = try chain.serialize(Self.response(Self.gzip, encoding: "gzip"))
        #expect(decoded as? String == "texts:" + String(decoding: Self.plain, as: UTF8.self))
        let error = #expect(throws: SerializationError.self) {
            try chain.serialize(Self.response(Self.fiveThousandAs, encoding: "gzip"))
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("maxDecodedBytes (4999 bytes)") == true)

        // Defaults: 64 MiB, no ratio; a ratio below 1 is a problem.
        let plain = try ChainConfiguration(
            data: Data(#"{"version": 1, "chains": [{"name": "a", "serializers": ["texts"]}]}"#.utf8))
        #expect(plain.chains[0].maxDecodedBytes == ContentDecoding.defaultMaxDecodedBytes)
        #expect(plain.chains[0].maxExpansionRatio == nil)
        let bad = """
            {"version": 1, "chains": [{"name": "a", "serializers": ["texts"], "limits": {"maxExpansionRatio": 0}}]}
            """
        let problem = #expect(throws: ConfigurationError.self) { try ChainConfiguration(data: Data(bad.utf8)) }
        #expect(problem?.problems.first?.keyPath == "chains[0].limits.maxExpansionRatio")
    }
}
