extension Deflate {
    /// One compression run: LZ77 matching over the input (§4 of RFC 1951 describes the idea), buffering symbols and
    /// writing them a block at a time.
    struct Compressor {
        /// The window: the greatest match distance (§3.2.5).
        static let windowSize = 1 << 15
        /// The hash table has 2^hashBits heads.
        static let hashBits = 15
        /// The shortest and longest matches DEFLATE encodes.
        static let minMatch = 3
        static let maxMatch = 258
        /// A match of the shortest length farther than this costs more than its three literals would (zlib's
        /// TOO_FAR heuristic): it is not taken.
        static let farShortMatch = 4096

        let base: UnsafePointer<UInt8>
        let count: Int
        let level: Level
        /// The most recent position with each hash, or -1.
        let head: UnsafeMutablePointer<Int>
        /// For each position in the window (modulo its size), the previous position with the same hash, or -1.
        let chain: UnsafeMutablePointer<Int>
        /// The current block: its symbols, their frequencies, and the input offset where its bytes start.
        var block: BlockSymbols
        /// The input offset after the last symbol buffered.
        var emitted = 0

        /// A compressor of `input`, which is not empty; ``run(into:)`` compresses it and frees the tables.
        init(input: UnsafeRawBufferPointer, level: Level) {
            base = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
            count = input.count
            self.level = level
            head = .allocate(capacity: 1 << Compressor.hashBits)
            head.initialize(repeating: -1, count: 1 << Compressor.hashBits)
            chain = .allocate(capacity: Compressor.windowSize)
            chain.initialize(repeating: -1, count: Compressor.windowSize)
            block = BlockSymbols()
        }

        /// Compresses the whole input into `writer` as blocks, the last one final, and frees the tables.
        mutating func run(into writer: inout BitWriter) {
            defer {
                head.deallocate()
                chain.deallocate()
            }
            if level.maxLazyLength == 0 {
                matchGreedily(into: &writer)
            } else {
                matchLazily(into: &writer)
            }
            block.write(final: true, input: base, start: block.start, end: emitted, into: &writer)
        }

        // MARK: - Matching

        /// The hash of the three bytes at `position`.
        @inline(__always)
        func hash(_ position: Int) -> Int {
            let value = UInt32(base[position]) << 16 | UInt32(base[position + 1]) << 8 | UInt32(base[position + 2])
            return Int((value &* 2_654_435_761) >> UInt32(32 - Compressor.hashBits))
        }

        /// Records `position` (which has three bytes after it) as the newest with its hash; returns the one before.
        @inline(__always)
        func insert(_ position: Int) -> Int {
            let key = hash(position)
            let previous = head[key]
            chain[position & (Compressor.windowSize - 1)] = previous
            head[key] = position
            return previous
        }

        /// The longest match for `position` longer than `mustBeat`, walking at most `chainLength` earlier positions
        /// from `candidate` (the newest with the same hash); length 0 when there is none.
        @inline(__always)
        func longestMatch(
            at position: Int, from candidate: Int, mustBeat: Int, chainLength: Int
        ) -> (length: Int, distance: Int) {
            let limit = min(Compressor.maxMatch, count - position)
            guard mustBeat < limit else { return (0, 0) }
            var bestLength = mustBeat
            var bestDistance = 0
            var candidate = candidate
            var steps = chainLength
            let nice = min(level.niceLength, limit)
            let oldest = position - Compressor.windowSize
            let here = base + position
            while candidate >= 0 && candidate >= oldest && steps > 0 {
                let there = base + candidate
                // A longer match must agree at the current best length, and at the start.
                if there[bestLength] == here[bestLength] && there[0] == here[0] {
                    let length = Compressor.commonPrefix(there, here, limit: limit)
                    if length > bestLength {
                        bestLength = length
                        bestDistance = position - candidate
                        if length >= nice { break }
                    }
                }
                let next = chain[candidate & (Compressor.windowSize - 1)]
                // A slot overwritten by a newer position points forward: the chain ends here.
                guard next < candidate else { break }
                candidate = next
                steps -= 1
            }
            if bestDistance == 0 { return (0, 0) }
            if bestLength == Compressor.minMatch && bestDistance > Compressor.farShortMatch { return (0, 0) }
            return (bestLength, bestDistance)
        }

        /// How many bytes `a` and `b` have in common, up to `limit`, compared eight at a time.
        @inline(__always)
        static func commonPrefix(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, limit: Int) -> Int {
            var length = 0
            while length + 8 <= limit {
                let left = UInt64(littleEndian: UnsafeRawPointer(a + length).loadUnaligned(as: UInt64.self))
                let right = UInt64(littleEndian: UnsafeRawPointer(b + length).loadUnaligned(as: UInt64.self))
                let difference = left ^ right
                if difference != 0 { return length + difference.trailingZeroBitCount / 8 }
                length += 8
            }
            while length < limit && a[length] == b[length] { length += 1 }
            return length
        }

        /// Greedy matching: a match found is taken at once.
        mutating func matchGreedily(into writer: inout BitWriter) {
            var position = 0
            while position < count {
                var match = (length: 0, distance: 0)
                if position + Compressor.minMatch <= count {
                    let candidate = insert(position)
                    match = longestMatch(
                        at: position, from: candidate, mustBeat: Compressor.minMatch - 1,
                        chainLength: level.maxChainLength)
                }
                if match.length >= Compressor.minMatch {
                    addMatch(length: match.length, distance: match.distance, into: &writer)
                    let end = position + match.length
                    position += 1
                    while position < end {
                        if position + Compressor.minMatch <= count { _ = insert(position) }
                        position += 1
                    }
                } else {
                    addLiteral(base[position], into: &writer)
                    position += 1
                }
            }
        }

        /// Lazy matching: a match is held back one position, and dropped for a literal when the next position starts
        /// a longer one.
        mutating func matchLazily(into writer: inout BitWriter) {
            var position = 0
            // Whether the byte before `position` waits for a decision, with the match found for it.
            var pending = false
            var previous = (length: 0, distance: 0)
            while position < count {
                var match = (length: 0, distance: 0)
                if position + Compressor.minMatch <= count {
                    let candidate = insert(position)
                    if previous.length < level.maxLazyLength {
                        let chainLength =
                            previous.length >= level.goodLength
                            ? max(1, level.maxChainLength >> 2) : level.maxChainLength
                        match = longestMatch(
                            at: position, from: candidate, mustBeat: max(previous.length, Compressor.minMatch - 1),
                            chainLength: chainLength)
                    }
                }
                if pending && previous.length >= Compressor.minMatch && match.length <= previous.length {
                    addMatch(length: previous.length, distance: previous.distance, into: &writer)
                    let end = position - 1 + previous.length
                    position += 1
                    while position < end {
                        if position + Compressor.minMatch <= count { _ = insert(position) }
                        position += 1
                    }
                    pending = false
                    previous = (0, 0)
                } else {
                    if pending { addLiteral(base[position - 1], into: &writer) }
                    pending = true
                    previous = match
                    position += 1
                }
            }
            // A match for the last byte cannot exist (it has no three bytes after it).
            if pending { addLiteral(base[count - 1], into: &writer) }
        }

        // MARK: - Symbols

        @inline(__always)
        mutating func addLiteral(_ byte: UInt8, into writer: inout BitWriter) {
            block.addLiteral(byte)
            emitted += 1
            if block.isFull { flush(into: &writer) }
        }

        @inline(__always)
        mutating func addMatch(length: Int, distance: Int, into writer: inout BitWriter) {
            block.addMatch(length: length, distance: distance)
            emitted += length
            if block.isFull { flush(into: &writer) }
        }

        /// Writes the full block (not final) and starts the next.
        mutating func flush(into writer: inout BitWriter) {
            block.write(final: false, input: base, start: block.start, end: emitted, into: &writer)
            block.reset(start: emitted)
        }
    }
}
