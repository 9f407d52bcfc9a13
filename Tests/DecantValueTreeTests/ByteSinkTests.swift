import DecantValueTree
import Testing

/// ``ByteSink`` against the same bytes appended to an `Array`.
@Suite struct ByteSinkTests {
    /// Bytes, raw buffers and UTF-8 text appended past several growths come out in order; `overwrite` replaces the
    /// bytes it is given room for.
    @Test func appendsGrowAndOverwrite() {
        var sink = ByteSink(capacity: 1)
        var expected: [UInt8] = []
        for round in 0..<300 {
            let byte = UInt8(truncatingIfNeeded: round)
            sink.append(byte)
            expected.append(byte)
            let chunk = Array(repeating: byte, count: round % 40)
            chunk.withUnsafeBytes { sink.append($0) }
            expected += chunk
            let text = round.isMultiple(of: 3) ? "é水𐅑\(round)" : String(repeating: "ab", count: round % 7)
            sink.append(utf8: text)
            expected += Array(text.utf8)
        }
        #expect(sink.count == expected.count)
        #expect(Array(sink.bytes(from: 0)) == expected)
        #expect(Array(sink.bytes(from: 10)) == Array(expected[10...]))
        sink.overwrite(from: sink.count - 3, with: [1, 2, 3, 4])
        #expect(Array(sink.bytes(from: sink.count - 3)) == [1, 2, 3])
    }

    /// A string built from another (a reversed copy of a slice) is written as its UTF-8.
    @Test func builtText() {
        var sink = ByteSink()
        let text = String(String("xyz-héllo".reversed()).dropFirst())
        sink.append(utf8: text)
        #expect(Array(sink.bytes(from: 0)) == Array(text.utf8))
    }
}
