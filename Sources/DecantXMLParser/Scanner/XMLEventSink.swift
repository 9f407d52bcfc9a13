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
            // Eight bytes at a time while none of them is a control character (below 0x20, which line ends are):
            // one column per byte that starts a character (UTF-8 continuation bytes are 10xxxxxx).
            if target &- index >= 8 {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                if (word &- ones &* 0x20) & ~word & (ones &* 0x80) == 0 {
                    let continuation = word & ~(word &<< 1) & (ones &* 0x80)
                    column &+= 8 &- continuation.nonzeroBitCount
                    afterCR = false
                    index &+= 8
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
