import Decant
import Foundation
import Testing

@testable import DecantCommandLine

/// Issue 34: the arithmetic done with a body size limit saturates instead of trapping, whatever the limit, and a
/// configuration built in code is held to the same range as a document.
@Suite struct LimitArithmeticTests {
    @Test(arguments: [Int.max, Int.max - 1, Int.max / 2, 1 << 62, 0, -1, Int.min])
    func theReadLimitNeverOverflows(_ maxBodyBytes: Int) {
        for isMessage in [false, true] {
            let limit = DecodeCommand.readLimit(maxBodyBytes: maxBodyBytes, isMessage: isMessage)
            #expect(limit >= 0)
            #expect(limit <= Int.max - 1, "one byte past the limit is read")
            if maxBodyBytes >= 0 { #expect(limit >= min(maxBodyBytes, Int.max - 1)) }
        }
        #expect(DecodeCommand.readLimit(maxBodyBytes: 1000, isMessage: true) == 1000 + 2 * 64 * 1024 + 250)
    }

    @Test(arguments: [Int.max, 5, 4, 0])
    func readingWithAnyLimitReadsAtMostOneBytePastIt(_ limit: Int) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("decant-read-\(UUID())")
        try Data("hello".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let (data, isComplete) = try Output.read(url.path, atMost: limit)
        #expect(data == Data("hello".utf8).prefix(limit))
        #expect(isComplete == (limit >= 5))
    }

    @Test func theRawMessageParserNeverBindsBeforeTheChainsLimit() {
        #expect(DecodeCommand.rawMessageLimits(maxBodyBytes: 1 << 40).maxBodyBytes == 1 << 40)
        let standard = Response.RawMessageLimits.default.maxBodyBytes
        #expect(DecodeCommand.rawMessageLimits(maxBodyBytes: 10).maxBodyBytes == standard)
    }

    @Test(arguments: [Int.max, (1 << 40) + 1, -1])
    func aConfigurationBuiltInCodeIsHeldToTheSameRange(_ value: Int) throws {
        let chain = ChainConfiguration.Chain(
            name: "c", serializers: [.init(id: "string")], maxBodyBytes: value, maxDecodedBytes: value)
        do {
            _ = try SerializerRegistry.standard.load(ChainConfiguration(chains: [chain]))
            Issue.record("a byte limit of \(value) was loaded")
        } catch {
            #expect(
                error.problems.map(\.keyPath) == ["chains[0].limits.maxBodyBytes", "chains[0].limits.maxDecodedBytes"])
            #expect(error.problems.allSatisfy { $0.message.contains("from 0 to 1099511627776") })
            #expect(error.problems.allSatisfy { $0.message.contains("not \(value)") })
        }
        let largest = ChainConfiguration.Chain(
            name: "c", serializers: [.init(id: "string")], maxBodyBytes: 1 << 40, maxDecodedBytes: 1 << 40)
        #expect(throws: Never.self) { try SerializerRegistry.standard.load(ChainConfiguration(chains: [largest])) }
        #expect(BodySizeLimit.maxConfigurableBytes == 1 << 40)
    }
}
