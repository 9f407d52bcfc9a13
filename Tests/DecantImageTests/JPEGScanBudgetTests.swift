import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// Hand-written JPEG streams (ITU-T T.81) for the scan budget and the end of scan data: a greyscale frame, one DC
/// Huffman table whose only code, `0`, is a zero difference, and one AC table whose only code, `0`, is EOB14 (a run
/// of up to 32,767 empty blocks); scans whose entropy-coded data this writer packs.
enum JPEGWriter {
    /// A marker segment: FF, the marker, the length, the payload.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// Bits packed most significant first, an FF byte stuffed with 00, the last byte padded with ones (T.81 §F.1.2.3).
    struct BitPacker {
        var bytes: [UInt8] = []
        var accumulator = 0
        var count = 0

        mutating func put(_ value: Int, _ length: Int) {
            for shift in stride(from: length - 1, through: 0, by: -1) {
                accumulator = accumulator << 1 | (value >> shift & 1)
                count += 1
                if count == 8 {
                    bytes.append(UInt8(accumulator))
                    if accumulator == 0xFF { bytes.append(0) }
                    accumulator = 0
                    count = 0
                }
            }
        }

        mutating func finish() -> [UInt8] {
            if count > 0 { put((1 << (8 - count)) - 1, 8 - count) }
            return bytes
        }
    }

    /// SOI, a quantization table of ones, a `width`×`height` greyscale frame (SOF2 when `progressive`, else SOF0) and
    /// the two one-code Huffman tables.
    static func header(width: Int, height: Int, progressive: Bool = true, restartInterval: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        bytes += segment(
            progressive ? 0xC2 : 0xC0,
            [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
        bytes += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
        bytes += segment(0xC4, [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0xE0])
        if restartInterval > 0 {
            bytes += segment(0xDD, [UInt8(restartInterval >> 8), UInt8(restartInterval & 0xFF)])
        }
        return bytes
    }

    /// The blocks of a `width`×`height` greyscale frame.
    static func blocks(width: Int, height: Int) -> Int { ((width + 7) / 8) * ((height + 7) / 8) }

    /// A DC first scan (Al = 1) of `blocks` zero differences, one bit each; `missing` fewer bits are written.
    static func dcScan(blocks: Int, missing: Int = 0) -> [UInt8] {
        var packer = BitPacker()
        for _ in 0..<max(0, blocks - missing) { packer.put(0, 1) }
        return segment(0xDA, [1, 1, 0x00, 0, 0, 0x01]) + packer.finish()
    }

    /// A baseline scan of `blocks` empty blocks (a zero DC difference, then EOB: `0`, then `0` read as EOB14, which a
    /// sequential scan takes as end of block); `missing` fewer blocks are written.
    static func sequentialScan(blocks: Int, missing: Int = 0) -> [UInt8] {
        var packer = BitPacker()
        for _ in 0..<max(0, blocks - missing) { packer.put(0, 2) }
        return segment(0xDA, [1, 1, 0x00, 0, 63, 0]) + packer.finish()
    }

    /// An AC scan of the band 1...63 over `blocks` blocks, all empty: EOB14 runs of 32,767 blocks (15 bits each). A
    /// first scan (Ah = Al = 0) when `refinement` is false, else a refinement (Ah = 1, Al = 0).
    static func acScan(blocks: Int, refinement: Bool) -> [UInt8] {
        var packer = BitPacker()
        var left = blocks
        while left > 0 {
            packer.put(0, 1)
            packer.put(16383, 14)
            left -= 32767
        }
        return segment(0xDA, [1, 1, 0x00, 1, 63, refinement ? 0x10 : 0x00]) + packer.finish()
    }

    /// A `width`×`height` progressive greyscale JPEG: a DC scan, then `scans - 1` AC scans (refinements when
    /// `refinement`), then EOI.
    static func progressive(width: Int, height: Int, scans: Int, refinement: Bool) -> [UInt8] {
        let blocks = blocks(width: width, height: height)
        var bytes = header(width: width, height: height) + dcScan(blocks: blocks)
        let ac = acScan(blocks: blocks, refinement: refinement)
        for _ in 1..<max(1, scans) { bytes += ac }
        return bytes + [0xFF, 0xD9]
    }
}

/// The scan budget (``ImageLimits/maxScanWorkPerByte``, ``JPEGDecoder/maxScans``), checked from the markers before
/// any scan is decoded, and scan data that ends before the scan's last block.
@Suite struct JPEGScanBudgetTests {
    static func decode(
        _ bytes: [UInt8], _ options: ImageDecodingOptions = ImageDecodingOptions()
    ) throws(SerializationError) -> Image {
        try ImageDecoder.decode(Data(bytes), options: options)
    }

    /// The streams this writer makes are real JPEG: a small one decodes to the flat grey Pillow gives (every
    /// coefficient zero: level 128), and so does one with a hundred AC refinement scans within the budget.
    @Test(arguments: [1, 2, 100])
    func writtenStreamsDecodeToFlatGrey(scans: Int) throws {
        let image = try Self.decode(JPEGWriter.progressive(width: 64, height: 48, scans: scans, refinement: true))
        #expect(image.width == 64 && image.height == 48)
        #expect(image.pixels == [UInt8](repeating: 0, count: 64 * 48).flatMap { _ in [128, 128, 128, 255] })
    }

    /// A 337 KB 10000×10000 stream of 999 scans (a DC scan, then AC scans each a few dozen EOB runs): the decoder
    /// used to walk every block of every scan (20 s to minutes). The markers show the work before any scan is
    /// decoded and before the coefficients are allocated: `limitExceeded` naming the option, at the scan that passes
    /// the budget.
    @Test(arguments: [false, true])
    func nineHundredNinetyNineScansOfAHugeFrameAreRefusedFromTheMarkers(refinement: Bool) throws {
        let bytes = JPEGWriter.progressive(width: 10_000, height: 10_000, scans: 999, refinement: refinement)
        #expect(bytes.count > 300_000 && bytes.count < 400_000)
        let error = try #require(throws: SerializationError.self) { try Self.decode(bytes) }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxScanWorkPerByte") && error.message.contains("10000×10000"))
        // The budget is the body's size times 4,096: the first scan past it is the one named.
        let blocks = JPEGWriter.blocks(width: 10_000, height: 10_000)
        let budget = ImageLimits().scanWorkBudget(bodySize: bytes.count)
        let within = (budget - blocks * 11) / (blocks * 73)
        #expect(error.message.contains("first \(within + 2) scans"))
    }

    /// More than 1,000 scans are refused from the markers, before the first is decoded, even on a small frame whose
    /// scans would fit the work budget.
    @Test func moreThanAThousandScansAreRefusedBeforeDecoding() throws {
        let bytes = JPEGWriter.progressive(width: 8, height: 8, scans: 1001, refinement: false)
        let error = try #require(throws: SerializationError.self) { try Self.decode(bytes) }
        #expect(error.code == .limitExceeded && error.message.contains("more than 1000 scans"))
        #expect(error.message.contains("before decoding any"))
        #expect(try Self.decode(JPEGWriter.progressive(width: 8, height: 8, scans: 1000, refinement: false)).width == 8)
    }

    /// The budget scales with the body: within the floor any scans pass, raising `maxScanWorkPerByte` lets a trusted
    /// file through, and a body padded with a comment segment pays for more scans. A 512×512 frame: 4,096 blocks, 73
    /// units each per AC scan (first scans, which skip their end-of-band runs, so that the test decodes fast).
    @Test func theBudgetGrowsWithTheBodyAndTheOption() throws {
        let blocks = JPEGWriter.blocks(width: 512, height: 512)
        let fewer = JPEGWriter.progressive(width: 512, height: 512, scans: 200, refinement: false)
        #expect(blocks * 11 + 199 * blocks * 73 < ImageLimits.scanWorkFloor)
        var small = ImageDecodingOptions()
        small.limits.maxScanWorkPerByte = 1
        #expect(try Self.decode(fewer, small).width == 512)
        // 400 scans: past the floor, and the 5 KB body pays for 22 million units only.
        let many = JPEGWriter.progressive(width: 512, height: 512, scans: 400, refinement: false)
        #expect(blocks * 11 + 399 * blocks * 73 > ImageLimits.scanWorkFloor && many.count < 6000)
        let error = try #require(throws: SerializationError.self) { try Self.decode(many) }
        #expect(error.code == .limitExceeded && error.message.contains("maxScanWorkPerByte"))
        var raised = ImageDecodingOptions()
        raised.limits.maxScanWorkPerByte = 1 << 20
        #expect(try Self.decode(many, raised).width == 512)
        // A 30 KB comment segment after the frame header: the 35 KB body pays for 145 million units.
        let header = JPEGWriter.header(width: 512, height: 512)
        let padded = header + JPEGWriter.segment(0xFE, [UInt8](repeating: 0x20, count: 30_000)) + many[header.count...]
        #expect(try Self.decode(Array(padded)).width == 512)
    }

    @Test func theBudgetIsTheOptionTimesTheBodyAtLeastTheFloor() {
        let limits = ImageLimits()
        #expect(limits.scanWorkBudget(bodySize: 10) == ImageLimits.scanWorkFloor)
        #expect(limits.scanWorkBudget(bodySize: 1 << 20) == 4096 << 20)
        #expect(ImageLimits(maxScanWorkPerByte: .max).scanWorkBudget(bodySize: 2) == .max)
        #expect(ImageLimits(maxScanWorkPerByte: -5).scanWorkBudget(bodySize: 1 << 30) == ImageLimits.scanWorkFloor)
    }

    /// A frame header claiming 65535×65535 in a few bytes, then a thousand empty scans: refused at the frame header
    /// (pixels per byte) before anything is allocated or any scan is counted.
    @Test func aFewBytesClaimingGigabytesAreRefusedAtTheFrameHeader() throws {
        var bytes = JPEGWriter.header(width: 65535, height: 65535)
        for _ in 0..<1000 { bytes += JPEGWriter.segment(0xDA, [1, 1, 0x00, 1, 63, 0x10]) }
        bytes += [0xFF, 0xD9]
        let error = try #require(throws: SerializationError.self) { try Self.decode(bytes) }
        #expect(error.code == .limitExceeded && error.message.contains("65535"))
    }

    /// A real frame header, then a megabyte of random bytes in which random FF bytes make random markers (and so
    /// random SOS segments): the pass that counts the scans ends, and the decode ends in an explained error.
    @Test func aMegabyteOfGarbageAfterTheFrameHeaderEnds() throws {
        var generator = SplitMix64(state: 0x5343_4E42)
        var bytes = JPEGWriter.header(width: 4000, height: 4000)
        var words = 0
        while bytes.count < 1 << 20 {
            // Before every 16th word an SOS marker, so that the garbage holds many "scans".
            if words % 16 == 0 { bytes += [0xFF, 0xDA] }
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> shift)) }
            words += 1
        }
        for partial in [false, true] {
            var options = ImageDecodingOptions()
            options.allowsPartialImages = partial
            do {
                let image = try Self.decode(bytes, options)
                #expect(image.pixels.count == image.width * image.height * 4)
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }

    // MARK: - Scan data that ends early

    /// A scan whose data stops a few blocks short, then EOI: the decoder used to read zero bits past the marker and
    /// give a full-size image. Now `truncatedBody`; with `allowsPartialImages`, the image flagged partial.
    @Test(arguments: [false, true])
    func scanDataThatEndsBeforeTheLastBlockIsTruncated(progressive: Bool) throws {
        let blocks = JPEGWriter.blocks(width: 64, height: 64)
        for missing in [0, 16, 40, blocks] {
            let scan =
                progressive
                ? JPEGWriter.dcScan(blocks: blocks, missing: missing)
                : JPEGWriter.sequentialScan(blocks: blocks, missing: missing)
            let bytes = JPEGWriter.header(width: 64, height: 64, progressive: progressive) + scan + [0xFF, 0xD9]
            // Each count leaves whole bytes of data (1 bit per block in the DC scan, 2 in the baseline one).
            guard missing > 0 else {
                let image = try Self.decode(bytes)
                #expect(!image.isPartial && image.width == 64)
                continue
            }
            let error = try #require(throws: SerializationError.self, "\(missing) missing") {
                try Self.decode(bytes)
            }
            #expect(error.code == .truncatedBody, "\(error)")
            #expect(error.message.contains("allowsPartialImages"))
            var options = ImageDecodingOptions()
            options.allowsPartialImages = true
            let image = try Self.decode(bytes, options)
            #expect(image.isPartial && image.width == 64 && image.height == 64)
        }
    }

    /// A restart interval whose data stops short of its last block, before the next RSTn: `invalidBody` (the data
    /// is damaged); with `allowsPartialImages` the decoder goes on at the restart marker and flags the image.
    @Test func aRestartIntervalThatEndsEarlyIsInvalid() throws {
        // 64×64 baseline, 64 blocks of 2 bits, a restart every 8 blocks; the third interval holds 4 blocks (a byte).
        var bytes = JPEGWriter.header(width: 64, height: 64, progressive: false, restartInterval: 8)
        bytes += JPEGWriter.segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        for interval in 0..<8 {
            var packer = JPEGWriter.BitPacker()
            for _ in 0..<(interval == 2 ? 4 : 8) { packer.put(0, 2) }
            bytes += packer.finish()
            if interval < 7 { bytes += [0xFF, 0xD0 + UInt8(interval % 8)] }
        }
        bytes += [0xFF, 0xD9]
        let error = try #require(throws: SerializationError.self) { try Self.decode(bytes) }
        #expect(error.code == .invalidBody && error.message.contains("restart interval"))
        var options = ImageDecodingOptions()
        options.allowsPartialImages = true
        let image = try Self.decode(bytes, options)
        #expect(image.isPartial && image.width == 64)
    }

    // MARK: - JPEG-LS

    /// A JPEG-LS stream (SOF55, FF F7; ITU-T T.87) is `unsupportedFeature` naming JPEG-LS, not a misplaced scan.
    @Test func jpegLSIsUnsupported() throws {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += JPEGWriter.segment(0xF7, [8, 0, 8, 0, 8, 1, 1, 0x11, 0])
        bytes += JPEGWriter.segment(0xDA, [1, 1, 0, 0, 0, 0]) + [0, 0, 0, 0]
        bytes += [0xFF, 0xD9]
        let error = try #require(throws: SerializationError.self) { try Self.decode(bytes) }
        #expect(error.code == .unsupportedFeature && error.message.contains("JPEG-LS"), "\(error)")
    }
}
