import Testing

@testable import DecantXMLParser

/// The eight-bytes-at-once classification of the scanner's runs against its per-byte table (whose classes the W3C
/// conformance suite checks): every byte value at every position of a word, among bytes that never stop a run.
@Suite struct XMLCharacterClassTests {
    static let masks: [(name: String, mask: UInt8)] = [
        ("text", XMLCharacterClass.textStop), ("attribute", XMLCharacterClass.attributeStop),
    ]

    @Test(arguments: masks)
    func wordsAreClassifiedAsTheTableClassifiesBytes(name: String, mask: UInt8) {
        var mismatches: [String] = []
        for value in 0...255 {
            for position in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[position] = UInt8(value)
                let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                let stops =
                    mask == XMLCharacterClass.textStop
                    ? XMLCharacterClass.textStops(word) : XMLCharacterClass.attributeStops(word)
                let expected: UInt64 =
                    value >= 0x80 || XMLCharacterClass.table[value] & mask != 0 ? 0x80 << UInt64(8 * position) : 0
                if stops != expected { mismatches.append("\(value)@\(position)") }
            }
        }
        #expect(mismatches.isEmpty, "\(name): \(mismatches.prefix(20))")
    }
}
