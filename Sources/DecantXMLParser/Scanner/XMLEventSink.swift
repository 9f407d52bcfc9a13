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

    @inline(__always)
    mutating func position(of target: Int, in base: UnsafePointer<UInt8>, end: Int) -> XMLPosition {
        let target = min(max(target, start), end)
        if target < offset { self = XMLPositionTracker(start: start) }
        // Counted in locals and stored once: the properties of `self`, kept in memory, cost a load and a store for
        // every word.
        var index = offset
        var line = self.line
        var column = self.column
        var afterCR = self.afterCR
        // Where counting a byte at a time may go back to words (past a word that holds a carriage return).
        var bytewiseEnd = index
        while index < target {
            // Eight bytes at a time while no byte is a carriage return or follows one: whole words, then the last
            // few bytes before the target as a word whose bytes past the target are ignored (when the input has
            // eight bytes there).
            if !afterCR, index >= bytewiseEnd {
                // Whole words (the target is within the input, so the input has them).
                while target &- index >= 8 {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    // Most words are printable ASCII: one column per byte, nothing else to count.
                    if XMLCharacterClass.controlOrHighBytes(word) == 0 {
                        column &+= 8
                        index &+= 8
                        continue
                    }
                    guard Self.count(word, valid: ByteRun.highBits, bytes: 8, line: &line, column: &column) else {
                        bytewiseEnd = index &+ 8
                        break
                    }
                    index &+= 8
                }
                if index == target { break }
                if index >= bytewiseEnd, end &- index >= 8 {
                    let count = target &- index
                    let valid = ByteRun.highBits & ((1 &<< UInt64(count &* 8)) &- 1)
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    if Self.count(word, valid: valid, bytes: count, line: &line, column: &column) {
                        index = target
                        break
                    }
                    bytewiseEnd = target
                }
            }
            // One byte at a time: the bytes of a word with a carriage return, the byte after one, or the last bytes
            // of the input.
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
        self.line = line
        self.column = column
        self.afterCR = afterCR
        return XMLPosition(line: line, column: column, offset: target)
    }

    /// Counts the lines and columns of the first `bytes` bytes of `word` (eight bytes in memory order; `valid` has
    /// the high bit of each of those bytes): line feeds counted, and one column per byte that starts a character
    /// (UTF-8 continuation bytes are 10xxxxxx) since the last line feed. `false`, with nothing counted, when one of
    /// them is a carriage return, which the caller counts a byte at a time.
    @inline(__always)
    static func count(_ word: UInt64, valid: UInt64, bytes: Int, line: inout Int, column: inout Int) -> Bool {
        if XMLCharacterClass.controlOrHighBytes(word) & valid == 0 {
            column &+= bytes
            return true
        }
        guard ByteRun.bytes(word, equalTo: 0x0D) & valid == 0 else { return false }
        /// How many bytes have their high bit set in `flags` (which has no other bits): by a multiplication that
        /// sums the bytes into the top one, as baseline x86-64 has no population count instruction.
        @inline(__always) func flagCount(_ flags: UInt64) -> Int {
            Int(truncatingIfNeeded: ((flags &>> 7) &* XMLCharacterClass.byteOnes) &>> 56)
        }
        let lineFeeds = ByteRun.bytes(word, equalTo: 0x0A) & valid
        let continuations = word & ~(word &<< 1) & valid
        if lineFeeds == 0 {
            column &+= bytes &- flagCount(continuations)
        } else {
            line &+= flagCount(lineFeeds)
            let last = 63 &- lineFeeds.leadingZeroBitCount
            let after = last == 63 ? 0 : valid & (UInt64.max &<< UInt64(last &+ 1))
            column = 1 &+ flagCount(after) &- flagCount(continuations & after)
        }
        return true
    }
}
