import DecantBytes
import DecantCore

/// Where the scanner sends events: the closure, handler, delegate and array front ends each wrap one.
protocol XMLEventSink {
    /// Receives one event and where it starts.
    mutating func receive(_ event: XMLEvent, at position: XMLPosition) throws
    /// Receives a reference to an entity that is declared external (never fetched) or whose declaration was not read.
    mutating func skippedEntity(_ name: String, at position: XMLPosition) throws
}

/// Line and column of byte offsets in the main input, computed forward from the last request.
struct XMLPositionTracker {
    private(set) var offset: Int
    private var line = 1
    private var column = 1
    private var afterCR = false
    private let start: Int

    init(start: Int) {
        self.start = start
        self.offset = start
    }

    mutating func position(of target: Int, in base: UnsafePointer<UInt8>, end: Int) -> XMLPosition {
        let target = min(max(target, start), end)
        if target < offset { self = XMLPositionTracker(start: start) }
        var index = offset
        while index < target {
            // Eight bytes at a time (fewer at the target, the rest of the word ignored), unless one is a carriage
            // return or follows one: line feeds counted, and one column per byte that starts a character (UTF-8
            // continuation bytes are 10xxxxxx) since the last line feed.
            if !afterCR, end &- index >= 8 {
                let count = Swift.min(8, target &- index)
                let ones = XMLCharacterClass.byteOnes
                let highs = ByteRun.highBits
                let valid = count == 8 ? highs : highs & ((1 &<< UInt64(count &* 8)) &- 1)
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                /// How many bytes have their high bit set in `flags` (which has no other bits): by a multiplication
                /// that sums the bytes into the top one, as baseline x86-64 has no population count instruction.
                @inline(__always) func flagCount(_ flags: UInt64) -> Int {
                    Int(truncatingIfNeeded: ((flags &>> 7) &* ones) &>> 56)
                }
                // Most words are printable ASCII: one column per byte, nothing else to count.
                if XMLCharacterClass.controlOrHighBytes(word) & valid == 0 {
                    column &+= count
                    index &+= count
                    continue
                }
                if ByteRun.bytes(word, equalTo: 0x0D) & valid == 0 {
                    let lineFeeds = ByteRun.bytes(word, equalTo: 0x0A) & valid
                    let continuations = word & ~(word &<< 1) & valid
                    if lineFeeds == 0 {
                        column &+= count &- flagCount(continuations)
                    } else {
                        line &+= flagCount(lineFeeds)
                        let last = 63 &- lineFeeds.leadingZeroBitCount
                        let after = last == 63 ? 0 : valid & (UInt64.max &<< UInt64(last &+ 1))
                        column = 1 &+ flagCount(after) &- flagCount(continuations & after)
                    }
                    index &+= count
                    continue
                }
            }
            // Printable ASCII runs: one column each.
            if afterCR == false {
                var run = index
                while run < target, base[run] >= 0x20, base[run] < 0x80 { run += 1 }
                column += run - index
                index = run
                if index == target { break }
            }
            let byte = base[index]
            if byte >= 0x20 {
                if byte & 0xC0 != 0x80 { column += 1 }
                afterCR = false
            } else if byte == 0x0A {
                if !afterCR {
                    line += 1
                    column = 1
                }
                afterCR = false
            } else if byte == 0x0D {
                line += 1
                column = 1
                afterCR = true
            } else {
                column += 1
                afterCR = false
            }
            index += 1
        }
        offset = target
        return XMLPosition(line: line, column: column, offset: target)
    }
}
