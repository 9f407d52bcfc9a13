import DecantBytes
import DecantCore

/// The scan budget: before any scan is decoded, the markers after the frame header are read through to EOI, and the
/// scans they start are counted and their work summed, so that a small body cannot make the decoder walk a large
/// frame hundreds of times (``ImageLimits/maxScanWorkPerByte``, ``JPEGDecoder/maxScans``).
extension JPEGDecoder {
    /// The fixed cost of a block visit in units of ``ImageLimits/maxScanWorkPerByte``, to which the coefficients of
    /// the scan's band are added: the scan loop's work per block is about ten times a refinement band coefficient's.
    static let blockVisitCost = 10

    /// The scans after the frame header and the work they take.
    struct ScanWork {
        /// How many SOS segments there are.
        var scans = 0
        /// The units of ``ImageLimits/maxScanWorkPerByte`` their scans take.
        var units = 0
    }

    /// Reads the markers from `start` (just past the frame header, the frame's components known) to EOI and throws
    /// `limitExceeded` as soon as the scans found number more than ``maxScans`` or take more work than
    /// ``ImageLimits/scanWorkBudget(bodySize:)`` allows. A linear pass over the body that decodes nothing: segments
    /// are skipped by their lengths, entropy-coded data byte by byte to its next marker. A damaged marker ends the
    /// pass; the decoding that follows reports it.
    func checkScanWork(from start: Int) throws(SerializationError) {
        let budget = options.limits.scanWorkBudget(bodySize: bytes.count)
        var work = ScanWork()
        var position = start
        let end = bytes.count
        while position + 1 < end {
            guard bytes[position] == 0xFF else {
                position = nextFF(from: position)
                continue
            }
            let marker = bytes[position + 1]
            switch marker {
            case 0xFF:
                position += 1  // A fill byte, or the first FF of a marker preceded by fill.
                continue
            case 0x00, 0x01, 0xD0...0xD7:
                position += 2  // A stuffed zero, TEM or a restart marker: no segment follows.
                continue
            case 0xD9:
                return
            default:
                break
            }
            guard position + 4 <= end else { return }
            let length = uint16(at: position + 2)
            guard length >= 2, position + 2 + length <= end else { return }
            if marker == 0xDA {
                work.scans += 1
                guard work.scans <= Self.maxScans else {
                    throw SerializationError(
                        code: .limitExceeded,
                        message: "The JPEG image has more than \(Self.maxScans) scans (counted before decoding any); "
                            + "real images have a few dozen at most. The file is probably crafted to waste decoding "
                            + "time.",
                        offset: position)
                }
                work.units += units(ofScan: (position + 4)..<(position + 2 + length))
                guard work.units <= budget else {
                    throw SerializationError(
                        code: .limitExceeded,
                        message: "The \(bytes.count)-byte JPEG body's first \(work.scans) scans would take "
                            + "\(work.units) units of work on the \(width)×\(height) frame (each block a scan visits "
                            + "costs \(Self.blockVisitCost) plus its band's coefficients), more than the \(budget) "
                            + "that maxScanWorkPerByte (\(options.limits.maxScanWorkPerByte) per body byte, at least "
                            + "\(ImageLimits.scanWorkFloor)) allows: real files take far less, so the file is "
                            + "probably crafted to waste decoding time. Raise maxScanWorkPerByte if the image is "
                            + "trusted.",
                        offset: position)
                }
            }
            position += 2 + length
        }
    }

    /// The offset of the first FF byte at or after `start`, the end of the body when there is none: entropy-coded
    /// data skipped eight bytes at a time.
    func nextFF(from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, start >= 0 else { return buffer.count }
            var position = start
            while buffer.count - position >= 8 {
                let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                if ByteRun.bytes(word, equalTo: 0xFF) != 0 { break }
                position += 8
            }
            while position < buffer.count && buffer[position] != 0xFF { position += 1 }
            return position
        }
    }

    /// The work of the scan whose SOS segment (without its length) is `segment`: the blocks of each of its components
    /// that the frame has (every block of the MCUs when it is interleaved, the blocks holding samples otherwise, as
    /// ``decodeScanData(_:parts:reader:)`` walks them) times ``blockVisitCost`` plus its spectral band (64 in a
    /// sequential frame). A malformed header counts what it can; ``readScan(_:)`` rejects it.
    func units(ofScan segment: Range<Int>) -> Int {
        guard !segment.isEmpty else { return 0 }
        let count = Int(bytes[segment.lowerBound])
        let tail = segment.lowerBound + 1 + 2 * count
        guard (1...4).contains(count), tail + 3 <= segment.upperBound else { return 0 }
        var band = 64
        if isProgressive {
            band = max(1, min(64, Int(bytes[tail + 1]) - Int(bytes[tail]) + 1))
        }
        var blocks = 0
        for entry in 0..<count {
            let id = Int(bytes[segment.lowerBound + 1 + 2 * entry])
            guard let component = components.first(where: { $0.id == id }) else { continue }
            blocks +=
                count > 1
                ? component.blocksPerLine * component.blocksPerColumn
                : component.usedBlocksPerLine * component.usedBlocksPerColumn
        }
        // At most 4 components of at most 2^30 blocks each, times 74: no overflow.
        return blocks * (Self.blockVisitCost + band)
    }
}
