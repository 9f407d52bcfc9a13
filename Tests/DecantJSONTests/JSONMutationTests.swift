import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantJSON

/// Seeded mutations of valid documents: the parser never crashes, and whatever it accepts writes back to text that
/// parses to an equal value.
@Suite struct JSONMutationTests {
    static let seeds: [String] = [
        #"{"a": [1, -2.5e3, "x\n\u00e9\ud83d\ude00", true, false, null, {}, []], "b": {"c": "déjà vu 😀"}}"#,
        #"[0, -0, 1e400, 18446744073709551617, 0.1, "\\\"\/\b\f\n\r\t", [[[[]]]], {"k": {"k": {"k": null}}}]"#,
        #"{"dup": 1, "dup": null, "x": [null, {"y": null}], "long string with spaces": "abcdefghijklmnopqrstuvwxyz"}"#,
        "  \"fragment\"  ",
        "[\"日本語テキスト\", \"ελληνικά\", \"\\uD834\\uDD1E\", 123456789012345678901234567890]",
    ]

    static let alphabet: [UInt8] =
        Array("{}[]\",:\\/0123456789-+.eEtrufalsn \n\tux\u{7F}".utf8) + [0, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]

    @Test func mutatedDocumentsNeverCrash() throws {
        var generator = SplitMix64(state: 8259)
        var documents = Self.seeds.map { Array($0.utf8) }
        // UTF-16LE with a byte order mark and UTF-32BE without one exercise detection and transcoding.
        documents.append([0xFF, 0xFE] + Self.seeds[0].utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        documents.append(
            Self.seeds[1].unicodeScalars.flatMap { scalar in
                [24, 16, 8, 0].map { UInt8((scalar.value >> UInt32($0)) & 0xFF) }
            })
        if let url = Corpora.url("json/nativejson-benchmark/data/twitter.json"), let data = try? Data(contentsOf: url) {
            documents.append(Array(data.prefix(4096)))
        }
        let optionSets = [
            JSONParsingOptions(),
            JSONParsingOptions(allowsFragments: false, maxDepth: 3, duplicateKeys: .reject),
            JSONParsingOptions(removesKeysWithNullValues: true),
        ]
        var accepted = 0
        var rejected = 0
        var failed: [String] = []
        for iteration in 0..<5_000 {
            var bytes = documents[Int(generator.next() % UInt64(documents.count))]
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = bytes.isEmpty ? 0 : Int(generator.next() % UInt64(bytes.count))
                let byte = Self.alphabet[Int(generator.next() % UInt64(Self.alphabet.count))]
                switch generator.next() % 5 {
                case 0 where !bytes.isEmpty: bytes[position] ^= UInt8(truncatingIfNeeded: 1 << (generator.next() % 8))
                case 1: bytes.insert(byte, at: position)
                case 2 where !bytes.isEmpty: bytes.remove(at: position)
                case 3 where !bytes.isEmpty: bytes[position] = byte
                default: bytes = Array(bytes.prefix(position))
                }
            }
            let options = optionSets[iteration % optionSets.count]
            do {
                let value = try JSONParser(options: options).parse(Data(bytes))
                accepted += 1
                var again = options
                again.maxDepth = 100_000
                let reparsed = try JSONParser(options: again).parse(value.jsonData())
                if reparsed != value { failed.append("iteration \(iteration): written and parsed again, differs") }
                _ = value.hashValue
                _ = value.foundationObject()
            } catch {
                rejected += 1
                if error.offset == nil && error.code != .bodyTooLarge {
                    failed.append("iteration \(iteration): [\(error.code)] without a byte offset")
                } else if let offset = error.offset, offset > bytes.count {
                    failed.append("iteration \(iteration): offset \(offset) past the \(bytes.count)-byte body")
                }
            }
        }
        print(
            "JSON mutations: \(accepted + rejected - failed.count) passed (\(accepted) accepted, \(rejected) rejected), "
                + "\(failed.count) failed")
        #expect(failed.isEmpty, "\(failed)")
    }
}
