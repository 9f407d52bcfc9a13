extension Deflate {
    /// The symbols of one block and their frequencies, and the writing of a block in whichever of the three block
    /// types is smallest (RFC 1951 §3.2.3-§3.2.7).
    struct BlockSymbols {
        /// A literal is its byte; a match is `matchFlag | length << 16 | distance`.
        var symbols: [UInt32] = []
        /// Frequencies of the literal/length symbols 0...285 (256 is the end of the block).
        var literalFrequencies = [Int](repeating: 0, count: 286)
        /// Frequencies of the distance symbols 0...29.
        var distanceFrequencies = [Int](repeating: 0, count: 30)
        /// The input offset of the block's first byte.
        var start = 0

        static let matchFlag: UInt32 = 1 << 31
        static let endOfBlock = 256

        init() {
            symbols.reserveCapacity(Deflate.blockSymbols)
        }

        var isFull: Bool { symbols.count >= Deflate.blockSymbols }

        @inline(__always)
        mutating func addLiteral(_ byte: UInt8) {
            symbols.append(UInt32(byte))
            literalFrequencies[Int(byte)] += 1
        }

        @inline(__always)
        mutating func addMatch(length: Int, distance: Int) {
            symbols.append(BlockSymbols.matchFlag | UInt32(length) << 16 | UInt32(distance))
            literalFrequencies[257 + Int(BlockSymbols.lengthSymbol[length - 3])] += 1
            distanceFrequencies[BlockSymbols.distanceSymbol(distance)] += 1
        }

        /// Empties the block; the next starts at input offset `start`.
        mutating func reset(start: Int) {
            symbols.removeAll(keepingCapacity: true)
            for index in literalFrequencies.indices { literalFrequencies[index] = 0 }
            for index in distanceFrequencies.indices { distanceFrequencies[index] = 0 }
            self.start = start
        }

        // MARK: - Code tables (§3.2.5)

        /// The first length of each length symbol 257...285.
        static let lengthBase: [Int] = [
            3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
            227,
            258,
        ]
        /// The extra bits after each length symbol 257...285.
        static let lengthExtraBits: [Int] = [
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
        ]
        /// For each match length minus 3, its length symbol minus 257 (258 has a symbol of its own, 285).
        static let lengthSymbol: [UInt8] = {
            var table = [UInt8](repeating: 0, count: 256)
            for symbol in 0..<28 {
                for length in lengthBase[symbol]..<lengthBase[symbol + 1] { table[length - 3] = UInt8(symbol) }
            }
            table[255] = 28
            return table
        }()

        /// The distance symbol of `distance` (1...32768): 0-3 for 1-4, then two symbols per power of two.
        @inline(__always)
        static func distanceSymbol(_ distance: Int) -> Int {
            let offset = distance - 1
            if offset < 4 { return offset }
            let log = Int.bitWidth - 1 - offset.leadingZeroBitCount
            return 2 * log + ((offset >> (log - 1)) & 1)
        }

        /// The extra bits after distance symbol `symbol`.
        @inline(__always)
        static func distanceExtraBits(_ symbol: Int) -> Int { symbol < 4 ? 0 : symbol / 2 - 1 }

        /// The first distance minus one of distance symbol `symbol`.
        @inline(__always)
        static func distanceBase(_ symbol: Int) -> Int {
            symbol < 4 ? symbol : (2 + (symbol & 1)) << distanceExtraBits(symbol)
        }

        /// The fixed literal/length code lengths (§3.2.6).
        static let fixedLiteralLengths: [UInt8] = (0..<288).map { symbol in
            switch symbol {
            case 0...143: 8
            case 144...255: 9
            case 256...279: 7
            default: 8
            }
        }
        static let fixedLiteralCodes = Deflate.canonicalCodes(fixedLiteralLengths)
        /// The fixed distance codes: five bits each.
        static let fixedDistanceLengths = [UInt8](repeating: 5, count: 30)
        static let fixedDistanceCodes = Deflate.canonicalCodes(fixedDistanceLengths)

        /// The order in which the code-length code's lengths are written (§3.2.7).
        static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

        // MARK: - Writing

        /// Writes the block, whose bytes are `input[start..<end]`, as the smallest of a dynamic, fixed or stored
        /// block (or several stored blocks, each at most 65,535 bytes).
        mutating func write(
            final: Bool, input: UnsafePointer<UInt8>, start: Int, end: Int, into writer: inout BitWriter
        ) {
            literalFrequencies[BlockSymbols.endOfBlock] += 1
            let literalLengths = Deflate.codeLengths(literalFrequencies, limit: 15)
            let distanceLengths = Deflate.codeLengths(distanceFrequencies, limit: 15)
            let header = DynamicHeader(literalLengths: literalLengths, distanceLengths: distanceLengths)
            let dynamicBits = 3 + header.bitCount + dataBits(literalLengths, distanceLengths)
            let fixedBits =
                3 + dataBits(BlockSymbols.fixedLiteralLengths, BlockSymbols.fixedDistanceLengths)
            let storedBytes = end - start
            let storedBlocks = max(1, (storedBytes + 65_534) / 65_535)
            // Each stored block: 3 header bits, padding to a byte (at most 7), LEN and NLEN, the bytes.
            let storedBits = storedBlocks * (3 + 7 + 32) + 8 * storedBytes
            if storedBits < min(dynamicBits, fixedBits) {
                writeStored(final: final, UnsafeRawBufferPointer(start: input + start, count: storedBytes), &writer)
            } else if fixedBits <= dynamicBits {
                writer.write(final ? 1 : 0, 1)
                writer.write(1, 2)
                writeSymbols(
                    BlockSymbols.fixedLiteralCodes, BlockSymbols.fixedLiteralLengths, BlockSymbols.fixedDistanceCodes,
                    BlockSymbols.fixedDistanceLengths, &writer)
            } else {
                writer.write(final ? 1 : 0, 1)
                writer.write(2, 2)
                header.write(&writer)
                writeSymbols(
                    Deflate.canonicalCodes(literalLengths), literalLengths, Deflate.canonicalCodes(distanceLengths),
                    distanceLengths, &writer)
            }
        }

        /// The bits of the block's symbols (with the end of block) under the given code lengths, extra bits included.
        func dataBits(_ literalLengths: [UInt8], _ distanceLengths: [UInt8]) -> Int {
            var bits = 0
            for symbol in 0..<286 where literalFrequencies[symbol] > 0 {
                var cost = Int(literalLengths[symbol])
                if symbol > 256 { cost += BlockSymbols.lengthExtraBits[symbol - 257] }
                bits += literalFrequencies[symbol] * cost
            }
            for symbol in 0..<30 where distanceFrequencies[symbol] > 0 {
                bits +=
                    distanceFrequencies[symbol]
                    * (Int(distanceLengths[symbol]) + BlockSymbols.distanceExtraBits(symbol))
            }
            return bits
        }

        /// Writes the symbols and the end of block with the given codes.
        func writeSymbols(
            _ literalCodes: [UInt32], _ literalLengths: [UInt8], _ distanceCodes: [UInt32],
            _ distanceLengths: [UInt8], _ writer: inout BitWriter
        ) {
            for symbol in symbols {
                if symbol & BlockSymbols.matchFlag == 0 {
                    writer.write(literalCodes[Int(symbol)], Int(literalLengths[Int(symbol)]))
                    continue
                }
                let length = Int(symbol >> 16 & 0x1FF)
                let distance = Int(symbol & 0xFFFF)
                let lengthIndex = Int(BlockSymbols.lengthSymbol[length - 3])
                writer.write(literalCodes[257 + lengthIndex], Int(literalLengths[257 + lengthIndex]))
                let lengthExtra = BlockSymbols.lengthExtraBits[lengthIndex]
                if lengthExtra > 0 {
                    writer.write(UInt32(length - BlockSymbols.lengthBase[lengthIndex]), lengthExtra)
                }
                let distanceIndex = BlockSymbols.distanceSymbol(distance)
                writer.write(distanceCodes[distanceIndex], Int(distanceLengths[distanceIndex]))
                let distanceExtra = BlockSymbols.distanceExtraBits(distanceIndex)
                if distanceExtra > 0 {
                    writer.write(UInt32(distance - 1 - BlockSymbols.distanceBase(distanceIndex)), distanceExtra)
                }
            }
            let end = BlockSymbols.endOfBlock
            writer.write(literalCodes[end], Int(literalLengths[end]))
        }

        /// Writes `bytes` as stored blocks of at most 65,535 bytes (§3.2.4), the last one final when `final` is.
        func writeStored(final: Bool, _ bytes: UnsafeRawBufferPointer, _ writer: inout BitWriter) {
            var offset = 0
            repeat {
                let size = min(65_535, bytes.count - offset)
                let last = offset + size == bytes.count
                writer.write(final && last ? 1 : 0, 1)
                writer.write(0, 2)
                writer.alignToByte()
                let length = UInt16(size)
                writer.appendBytes([
                    UInt8(truncatingIfNeeded: length), UInt8(length >> 8), UInt8(truncatingIfNeeded: ~length),
                    UInt8(~length >> 8),
                ])
                writer.appendBytes(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)]))
                offset += size
            } while offset < bytes.count
        }
    }

    /// The header of a dynamic block (§3.2.7): the code lengths of its literal/length and distance codes, run-length
    /// encoded and written with a code-length code of its own.
    struct DynamicHeader {
        /// The run-length encoded lengths: each a code-length symbol (0...18) and its extra bits' value.
        var runs: [(symbol: Int, extra: UInt32)] = []
        var literalCount: Int
        var distanceCount: Int
        var codeLengthLengths: [UInt8]
        var codeLengthCount: Int

        /// The extra bits after code-length symbols 16, 17 and 18.
        static func extraBits(_ symbol: Int) -> Int {
            switch symbol {
            case 16: 2
            case 17: 3
            case 18: 7
            default: 0
            }
        }

        init(literalLengths: [UInt8], distanceLengths: [UInt8]) {
            literalCount = max(257, (literalLengths.lastIndex { $0 != 0 } ?? 0) + 1)
            distanceCount = max(1, (distanceLengths.lastIndex { $0 != 0 } ?? 0) + 1)
            // One sequence: runs may cross from the literal/length lengths into the distance lengths.
            let lengths = Array(literalLengths.prefix(literalCount)) + Array(distanceLengths.prefix(distanceCount))
            var index = 0
            while index < lengths.count {
                let length = lengths[index]
                var run = 1
                while index + run < lengths.count && lengths[index + run] == length { run += 1 }
                index += run
                if length == 0 {
                    while run >= 11 {
                        let part = min(run, 138)
                        runs.append((18, UInt32(part - 11)))
                        run -= part
                    }
                    if run >= 3 {
                        runs.append((17, UInt32(run - 3)))
                        run = 0
                    }
                } else {
                    runs.append((Int(length), 0))
                    run -= 1
                    while run >= 3 {
                        let part = min(run, 6)
                        runs.append((16, UInt32(part - 3)))
                        run -= part
                    }
                }
                for _ in 0..<run { runs.append((Int(length), 0)) }
            }
            var frequencies = [Int](repeating: 0, count: 19)
            for run in runs { frequencies[run.symbol] += 1 }
            let codeLengthLengths = Deflate.codeLengths(frequencies, limit: 7)
            self.codeLengthLengths = codeLengthLengths
            let lengthsInOrder = BlockSymbols.codeLengthOrder.map { codeLengthLengths[$0] }
            codeLengthCount = max(4, (lengthsInOrder.lastIndex { $0 != 0 } ?? 0) + 1)
        }

        /// The header's size in bits, after the three block header bits.
        var bitCount: Int {
            var bits = 5 + 5 + 4 + 3 * codeLengthCount
            for run in runs { bits += Int(codeLengthLengths[run.symbol]) + DynamicHeader.extraBits(run.symbol) }
            return bits
        }

        /// Writes HLIT, HDIST, HCLEN, the code-length code's lengths and the run-length encoded lengths.
        func write(_ writer: inout BitWriter) {
            writer.write(UInt32(literalCount - 257), 5)
            writer.write(UInt32(distanceCount - 1), 5)
            writer.write(UInt32(codeLengthCount - 4), 4)
            for symbol in BlockSymbols.codeLengthOrder.prefix(codeLengthCount) {
                writer.write(UInt32(codeLengthLengths[symbol]), 3)
            }
            let codes = Deflate.canonicalCodes(codeLengthLengths)
            for run in runs {
                writer.write(codes[run.symbol], Int(codeLengthLengths[run.symbol]))
                let extra = DynamicHeader.extraBits(run.symbol)
                if extra > 0 { writer.write(run.extra, extra) }
            }
        }
    }
}
