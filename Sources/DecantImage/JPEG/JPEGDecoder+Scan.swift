import DecantCore

/// Scan decoding: the SOS header and the Huffman-coded data of sequential and progressive scans (ITU-T T.81 Annex F
/// and Annex G).
extension JPEGDecoder {
    /// What one scan codes, from its SOS header.
    struct Scan {
        /// Indices into ``JPEGDecoder/components`` of the scan's components, in scan order.
        var components: [Int]
        /// The spectral selection start and end (Ss, Se) and successive approximation high and low bits (Ah, Al).
        var start: Int, end: Int, high: Int, low: Int
    }

    /// Reads an SOS segment and decodes the scan's entropy-coded data that follows it.
    ///
    /// - Returns: the offset just past the scan's data (at the next marker).
    mutating func readScan(_ segment: Range<Int>) throws(SerializationError) -> Int {
        let start = segment.lowerBound
        guard hasFrame else { throw Self.invalid(start, "a scan (SOS) comes before the frame header (SOF)") }
        guard segment.count >= 1 else { throw Self.invalid(start, "the SOS segment is empty") }
        let count = Int(bytes[start])
        guard (1...4).contains(count), segment.count == 4 + 2 * count else {
            throw Self.invalid(start, "the scan header declares \(count) components or has the wrong length")
        }
        scanCount += 1
        guard scanCount <= Self.maxScans else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The JPEG image has more than \(Self.maxScans) scans; real images have a few dozen at "
                    + "most. The file is probably crafted to waste decoding time.",
                offset: start)
        }
        var indices: [Int] = []
        for entry in 0..<count {
            let offset = start + 1 + 2 * entry
            let id = Int(bytes[offset])
            guard let index = components.firstIndex(where: { $0.id == id }), !indices.contains(index) else {
                throw Self.invalid(offset, "the scan names component \(id), which the frame lacks or the scan repeats")
            }
            let dc = Int(bytes[offset + 1] >> 4)
            let ac = Int(bytes[offset + 1] & 15)
            guard dc <= 3, ac <= 3 else { throw Self.invalid(offset, "the scan selects Huffman table \(dc)/\(ac)") }
            components[index].dcTable = dc
            components[index].acTable = ac
            indices.append(index)
        }
        let tail = start + 1 + 2 * count
        var scan = Scan(
            components: indices, start: Int(bytes[tail]), end: Int(bytes[tail + 1]), high: Int(bytes[tail + 2] >> 4),
            low: Int(bytes[tail + 2] & 15))
        if isProgressive {
            guard scan.start <= scan.end, scan.end <= 63, (scan.start == 0) == (scan.end == 0),
                scan.start == 0 || count == 1, scan.high <= 13, scan.low <= 13
            else {
                throw Self.invalid(
                    tail,
                    "the progressive scan's parameters Ss=\(scan.start) Se=\(scan.end) Ah=\(scan.high) Al=\(scan.low) "
                        + "with \(count) components are out of range (T.81 §G.1.1.1)")
            }
        } else {
            // Sequential scans code every coefficient whatever the header says (libjpeg ignores these fields too).
            scan.start = 0
            scan.end = 63
            scan.high = 0
            scan.low = 0
        }
        if count > 1 {
            let units = indices.reduce(0) { $0 + components[$1].horizontal * components[$1].vertical }
            guard units <= 10 else {
                throw Self.invalid(start, "an interleaved scan has \(units) blocks per MCU, more than 10 (T.81 §B.2.3)")
            }
        }
        for index in indices {
            let component = components[index]
            if component.quantization == nil {
                guard let table = quantizationTables[component.quantizationSelector] else {
                    throw Self.invalid(
                        start,
                        "component \(component.id) uses quantization table \(component.quantizationSelector), "
                            + "which no DQT segment defined")
                }
                components[index].quantization = table
            }
            let needsDC = scan.start == 0 && scan.high == 0
            let needsAC = scan.end > 0
            if needsDC && dcTables[component.dcTable] == nil || needsAC && acTables[component.acTable] == nil {
                throw Self.invalid(start, "the scan uses a Huffman table that no DHT segment defined")
            }
        }
        return try decodeScanData(scan, at: segment.upperBound)
    }

    /// What decoding a block of one of a scan's components needs, resolved once per scan: plain values and
    /// pointers, so that the per-block code neither retains nor checks anything.
    struct ScanComponent {
        /// The component's DC and AC Huffman tables for this scan (the decoder's table arrays keep them alive).
        let dc: JPEGHuffmanTable.Reference, ac: JPEGHuffmanTable.Reference
        /// The component's coefficient storage.
        let coefficients: UnsafeMutablePointer<Int16>
        /// The component's blocks per row of its coefficient storage, and its sampling factors.
        let blocksPerLine: Int, horizontal: Int, vertical: Int
        /// ``JPEGDecoder/naturalOrderTable``, read once per scan rather than once per block.
        let order: UnsafePointer<Int>
        /// The scan's band as a mask over a block's 64 coefficients (all bits set at the band's natural positions),
        /// read as 16 words: whether a block has a non-zero coefficient in the band, at a glance.
        let bandMask: UnsafeRawPointer
        /// The DC predictor (T.81 §F.2.1.3.1), reset at the scan's start and at each restart marker.
        var predictor = 0
    }

    /// Decodes the entropy-coded data of `scan` starting at `position`.
    ///
    /// - Returns: the offset just past the data.
    mutating func decodeScanData(_ scan: Scan, at position: Int) throws(SerializationError) -> Int {
        // The reader reads the body in place; a local reference to it, so that `self` stays free to change.
        let body = bytes
        let parts = UnsafeMutableBufferPointer<ScanComponent>.allocate(capacity: scan.components.count)
        defer { parts.deallocate() }
        // The band's mask: -1 (all ones) at the natural position of each of its coefficients.
        let bandMask = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 8)
        defer { bandMask.deallocate() }
        let maskSamples = bandMask.initializeMemory(as: Int16.self, repeating: 0, count: 64)
        for k in min(scan.start, 63)...min(max(scan.start, scan.end), 63) { maskSamples[Self.naturalOrder[k]] = -1 }
        for (slot, index) in scan.components.enumerated() {
            let component = components[index]
            parts.initializeElement(
                at: slot,
                to: ScanComponent(
                    dc: dcTables[component.dcTable].orEmpty.reference,
                    ac: acTables[component.acTable].orEmpty.reference, coefficients: component.coefficients.pointer,
                    blocksPerLine: component.blocksPerLine, horizontal: component.horizontal,
                    vertical: component.vertical, order: Self.naturalOrderTable,
                    bandMask: UnsafeRawPointer(bandMask)))
        }
        return try body.withUnsafeBufferPointer { (buffer) throws(SerializationError) -> Int in
            try decodeScanData(scan, parts: parts, reader: JPEGBitReader(bytes: buffer, position: position))
        }
    }

    /// Decodes the entropy-coded data of `scan` with `reader`, `parts` holding its components in scan order.
    ///
    /// - Returns: the offset just past the data.
    mutating func decodeScanData(
        _ scan: Scan, parts: UnsafeMutableBufferPointer<ScanComponent>, reader: JPEGBitReader
    ) throws(SerializationError) -> Int {
        var reader = reader
        endOfBandRun = 0
        // The units of the scan: one block each when it has one component, covering only the blocks that hold
        // samples (T.81 §A.2.2); MCUs of every component's blocks when it is interleaved.
        let interleaved = scan.components.count > 1
        let unitsPerLine: Int
        let unitRows: Int
        if interleaved {
            unitsPerLine = (width + 8 * maxHorizontal - 1) / (8 * maxHorizontal)
            unitRows = (height + 8 * maxVertical - 1) / (8 * maxVertical)
        } else {
            unitsPerLine = components[scan.components[0]].usedBlocksPerLine
            unitRows = components[scan.components[0]].usedBlocksPerColumn
        }
        let unitCount = unitsPerLine * unitRows
        // A first AC scan of one component (T.81 §G.1.2.2) skips the blocks of its end-of-band runs at once.
        let skipsEndOfBandRuns = isProgressive && !interleaved && scan.start > 0 && scan.high == 0
        // A sequential frame's row of units is transformed into the planes once decoded (or abandoned), and its
        // coefficients cleared for the next row.
        var pendingRow = -1
        defer { if pendingRow >= 0 { flush(scan, unitRow: pendingRow, interleaved: interleaved) } }
        var unit = 0
        // Set after resynchronising at a restart marker, which `restartIfDue` must then not look for again.
        var resynchronised = false
        while unit < unitCount {
            do throws(SerializationError) {
                if restartInterval > 0 && unit > 0 && unit % restartInterval == 0 && !resynchronised {
                    try reader.checkWithinData()
                    guard reader.restart() else {
                        throw Self.invalid(reader.position, "an expected restart marker (RSTn) is missing")
                    }
                    for slot in parts.indices { parts[slot].predictor = 0 }
                    endOfBandRun = 0
                }
                resynchronised = false
                if skipsEndOfBandRuns && endOfBandRun > 0 {
                    // Blocks of an end-of-band run code nothing in a first AC scan: skip the run at once, up to the
                    // next restart marker (where the run ends).
                    var skipped = min(endOfBandRun, unitCount - unit)
                    if restartInterval > 0 { skipped = min(skipped, restartInterval - unit % restartInterval) }
                    endOfBandRun -= skipped
                    unit += skipped
                    continue
                }
                if samples != nil {
                    let unitRow = unit / unitsPerLine
                    if unitRow != pendingRow {
                        if pendingRow >= 0 { flush(scan, unitRow: pendingRow, interleaved: interleaved) }
                        pendingRow = unitRow
                    }
                }
                try decodeUnit(scan, unit, unitsPerLine: unitsPerLine, interleaved: interleaved, parts, &reader)
                if (unit + 1) % unitsPerLine == 0 { try reader.checkWithinData() }
                unit += 1
            } catch {
                guard options.allowsPartialImages else { throw error }
                isPartial = true
                // A damaged restart interval: what follows the next restart marker decodes again (its blocks
                // until then stay as decoded so far); without restart markers, or at the end of the data, the
                // scan ends here.
                guard restartInterval > 0, !reader.consumedPastEnd, error.code != .truncatedBody,
                    reader.restart()
                else { return reader.position }
                unit = (unit / restartInterval + 1) * restartInterval
                for slot in parts.indices { parts[slot].predictor = 0 }
                endOfBandRun = 0
                resynchronised = true
            }
        }
        if options.allowsPartialImages && reader.consumedPadding {
            isPartial = true
            return reader.position
        }
        try reader.checkWithinData()
        return reader.position
    }

    /// Transforms the blocks row of units `unitRow` of a sequential `scan` holds into the planes (``samples``), and
    /// clears those coefficients for the next row.
    func flush(_ scan: Scan, unitRow: Int, interleaved: Bool) {
        guard let samples else { return }
        for index in scan.components {
            let component = components[index]
            let blockRows = interleaved ? component.vertical : 1
            let firstRow = unitRow * blockRows
            // Only the blocks that hold samples (and one more, which upsampling may read) are transformed.
            let rows = min(component.blocksPerColumn, component.usedBlocksPerColumn + 1)
            transform(
                index, blockRows: firstRow..<min(firstRow + blockRows, rows), heldFrom: 0,
                into: samples.pointer + planeOffsets[index])
            let held = component.blocksPerLine * blockRows * 64
            component.coefficients.pointer.update(repeating: 0, count: min(held, component.coefficients.count))
        }
    }

    /// Decodes unit `unit` of `scan`: one block of its component, or one MCU when it is `interleaved`.
    @inline(__always)
    mutating func decodeUnit(
        _ scan: Scan, _ unit: Int, unitsPerLine: Int, interleaved: Bool,
        _ parts: UnsafeMutableBufferPointer<ScanComponent>, _ reader: inout JPEGBitReader
    ) throws(SerializationError) {
        let unitRow = unit / unitsPerLine
        let unitColumn = unit - unitRow * unitsPerLine
        // The coefficient row of the unit: a sequential frame keeps only the current row of units.
        let heldRow = samples == nil ? unitRow : 0
        guard let first = parts.baseAddress else { return }
        guard interleaved else {
            let block = (heldRow * first.pointee.blocksPerLine + unitColumn) * 64
            try decodeBlock(scan, first, block: first.pointee.coefficients + block, &reader)
            return
        }
        for slot in 0..<parts.count {
            let part = first + slot
            let vertical = part.pointee.vertical
            let horizontal = part.pointee.horizontal
            let blocksPerLine = part.pointee.blocksPerLine
            let base = part.pointee.coefficients
            for v in 0..<vertical {
                let row = heldRow * vertical + v
                for h in 0..<horizontal {
                    let column = unitColumn * horizontal + h
                    try decodeBlock(scan, part, block: base + (row * blocksPerLine + column) * 64, &reader)
                }
            }
        }
    }

    /// Decodes one block of `scan` for the component `part` into its 64 coefficients at `block`.
    @inline(__always)
    mutating func decodeBlock(
        _ scan: Scan, _ part: UnsafeMutablePointer<ScanComponent>, block: UnsafeMutablePointer<Int16>,
        _ reader: inout JPEGBitReader
    ) throws(SerializationError) {
        if !isProgressive {
            try Self.decodeSequentialBlock(part, block: block, &reader)
        } else if scan.start == 0 {
            if scan.high == 0 {
                // DC first scan (T.81 §G.1.2.1).
                let difference = try reader.decodeValue(part.pointee.dc).value
                let predictor = part.pointee.predictor &+ difference
                part.pointee.predictor = predictor
                block[0] = Int16(truncatingIfNeeded: predictor << scan.low)
            } else if reader.bit() == 1 {
                // DC refinement: one more bit of the DC coefficient.
                block[0] |= Int16(truncatingIfNeeded: 1 << scan.low)
            }
        } else if scan.high == 0 {
            try decodeACFirst(scan, part.pointee.ac, block: block, &reader)
        } else {
            try decodeACRefinement(scan, part.pointee.ac, block: block, bandMask: part.pointee.bandMask, &reader)
        }
    }

    /// Decodes a sequential block: the DC difference and the run-length coded AC coefficients (T.81 §F.2.2).
    @inline(__always)
    static func decodeSequentialBlock(
        _ part: UnsafeMutablePointer<ScanComponent>, block: UnsafeMutablePointer<Int16>, _ reader: inout JPEGBitReader
    ) throws(SerializationError) {
        // The reader in a local variable for the block, so that its state stays in registers.
        var local = reader
        defer { reader = local }
        let order = part.pointee.order
        let predictor = part.pointee.predictor &+ (try local.decodeValue(part.pointee.dc)).value
        part.pointee.predictor = predictor
        block[0] = Int16(truncatingIfNeeded: predictor)
        let acTable = part.pointee.ac
        var k = 1
        while k < 64 {
            let (symbol, decoded) = try local.decodeValue(acTable)
            let run = symbol &>> 4
            if symbol & 15 == 0 {
                if run != 15 { break }
                k &+= 16
                continue
            }
            k &+= run
            // A run past the last coefficient is corrupt; like libjpeg, the value lands on the last one.
            block[Int(order[min(k, 63)])] = Int16(truncatingIfNeeded: decoded)
            k &+= 1
        }
    }

    /// Decodes the first AC scan of a band (T.81 §G.1.2.2), with end-of-band runs across blocks.
    mutating func decodeACFirst(
        _ scan: Scan, _ table: JPEGHuffmanTable.Reference, block: UnsafeMutablePointer<Int16>,
        _ reader: inout JPEGBitReader
    ) throws(SerializationError) {
        if endOfBandRun > 0 {
            endOfBandRun -= 1
            return
        }
        let order = Self.naturalOrderTable
        var k = scan.start
        while k <= scan.end {
            let (symbol, decoded) = try reader.decodeValue(table)
            let run = symbol >> 4
            if symbol & 15 == 0 {
                if run < 15 {
                    endOfBandRun = (1 << run) - 1 + reader.receive(run)
                    break
                }
                k += 16
                continue
            }
            k += run
            let value = decoded * (1 << scan.low)
            block[order[min(k, 63)]] = Int16(truncatingIfNeeded: value)
            k += 1
        }
    }

    /// Decodes an AC refinement scan (T.81 §G.1.2.3): one more bit of each coefficient already non-zero, and new
    /// coefficients of magnitude `1 << Al`.
    mutating func decodeACRefinement(
        _ scan: Scan, _ table: JPEGHuffmanTable.Reference, block: UnsafeMutablePointer<Int16>,
        bandMask: UnsafeRawPointer, _ reader: inout JPEGBitReader
    ) throws(SerializationError) {
        // A block of an end-of-band run whose band is all zero takes no correction bits: nothing to do.
        if endOfBandRun > 0 && Self.bandIsZero(block, bandMask) {
            endOfBandRun -= 1
            return
        }
        let order = Self.naturalOrderTable
        let positive = 1 << scan.low
        let negative = -1 << scan.low
        var k = scan.start
        /// Adds one correction bit to the non-zero coefficient at natural position `position`.
        func refine(_ position: Int, _ reader: inout JPEGBitReader) {
            let coefficient = Int(block[position])
            if reader.bit() == 1 && coefficient & positive == 0 {
                block[position] = Int16(
                    truncatingIfNeeded: coefficient + (coefficient >= 0 ? positive : negative))
            }
        }
        if endOfBandRun == 0 {
            while k <= scan.end {
                let symbol = try reader.decode(table)
                var run = symbol >> 4
                let size = symbol & 15
                var value = 0
                if size != 0 {
                    // Size must be 1 in a refinement scan; other values are corrupt and read as 1, as libjpeg does.
                    value = reader.bit() == 1 ? positive : negative
                } else if run != 15 {
                    endOfBandRun = (1 << run) + reader.receive(run)
                    break
                }
                var placed = false
                while k <= scan.end {
                    let position = order[k]
                    if block[position] != 0 {
                        refine(position, &reader)
                    } else {
                        if run == 0 {
                            if value != 0 {
                                block[position] = Int16(truncatingIfNeeded: value)
                            }
                            placed = true
                            k += 1
                            break
                        }
                        run -= 1
                    }
                    k += 1
                }
                if !placed && value != 0 {
                    // The run went past the band (corrupt data): libjpeg stores the value just past it, at the
                    // last coefficient once past the block, and so does Decant, to decode such files alike.
                    let position = order[min(k, 63)]
                    block[position] = Int16(truncatingIfNeeded: value)
                    k += 1
                }
            }
        }
        if endOfBandRun > 0 {
            while k <= scan.end {
                let position = order[k]
                if block[position] != 0 { refine(position, &reader) }
                k += 1
            }
            endOfBandRun -= 1
        }
    }
}

extension JPEGDecoder {
    /// Whether every coefficient of `block` that `bandMask` covers is zero: 16 words of four coefficients each,
    /// masked and combined.
    @inline(__always)
    static func bandIsZero(_ block: UnsafeMutablePointer<Int16>, _ bandMask: UnsafeRawPointer) -> Bool {
        let raw = UnsafeRawPointer(block)
        var bits: UInt64 = 0
        for word in 0..<16 {
            let offset = word &* 8
            let coefficients = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            bits |= coefficients & bandMask.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }
        return bits == 0
    }
}

extension Optional where Wrapped == JPEGHuffmanTable {
    /// The table, which ``JPEGDecoder/readScan(_:)`` has checked is defined before the scan is decoded; an empty
    /// table (which decodes nothing, so that corrupt data throws) otherwise.
    var orEmpty: JPEGHuffmanTable {
        self ?? JPEGHuffmanTable.empty
    }
}
