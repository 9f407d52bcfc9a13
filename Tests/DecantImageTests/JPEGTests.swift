import DecantCompression
import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// The JPEG decoder against libjpeg-turbo (through Pillow): fixtures `jpeg_fixtures.py` generated, with Pillow's own
/// decoding beside each, and the jpeg-decoder and libjpeg-turbo corpora with their reference renderings; then
/// unsupported modes, limits and hostile input.
@Suite struct JPEGTests {
    /// `Fixtures/jpeg`, beside this file.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/jpeg")

    /// The fixture names (without `.jpg`), sorted.
    static let fixtureNames: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? [])
        .filter { $0.hasSuffix(".jpg") }.map { String($0.dropLast(4)) }.sorted()

    /// The largest and mean absolute difference per sample between two images of the same size.
    struct Difference: CustomStringConvertible {
        var maximum: Int
        var mean: Double
        var description: String { "max |Δ| \(maximum), mean |Δ| \(mean)" }

        init(_ image: Image, _ reference: Image) {
            var maximum = 0
            var total = 0
            for (a, b) in zip(image.pixels, reference.pixels) {
                let delta = abs(Int(a) - Int(b))
                maximum = max(maximum, delta)
                total += delta
            }
            self.maximum = maximum
            self.mean = Double(total) / Double(max(1, image.pixels.count))
        }

        /// Whether the difference is within the tolerance of an IDCT and upsampling that round as libjpeg's do.
        var isWithinTolerance: Bool { maximum <= 4 && mean <= 0.1 }
    }

    static func decode(
        _ data: Data, options: ImageDecodingOptions = ImageDecodingOptions()
    )
        throws(SerializationError) -> Image
    {
        try ImageDecoder.decode(data, options: options)
    }

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name + ".jpg"))
    }

    @Test func fixturesArePresent() {
        #expect(Self.fixtureNames.count >= 24, "run Tests/DecantImageTests/jpeg_fixtures.py")
    }

    @Test(arguments: fixtureNames)
    func fixtureMatchesPillow(name: String) throws {
        let image = try Self.decode(Self.fixture(name))
        let reference = try Self.decode(Data(contentsOf: Self.fixtures.appendingPathComponent(name + ".png")))
        #expect(image.format == .jpeg)
        #expect(image.width == reference.width && image.height == reference.height)
        let difference = Difference(image, reference)
        #expect(difference.isWithinTolerance, "\(name): \(difference)")
    }

    @Test func readsMetadata() throws {
        #expect(try Self.decode(Self.fixture("exif_orientation6")).metadata.exifOrientation == 6)
        #expect(try Self.decode(Self.fixture("q90_420")).metadata.exifOrientation == nil)
        #expect(try Self.decode(Self.fixture("icc")).metadata.hasICCProfile)
        #expect(try !Self.decode(Self.fixture("q90_420")).metadata.hasICCProfile)
        let progressive = try Self.decode(Self.fixture("progressive_gray")).metadata
        #expect(progressive.isInterlaced && progressive.colorType == .grayscale && progressive.bitDepth == 8)
        #expect(try Self.decode(Self.fixture("q90_444")).metadata.colorType == .rgb)
    }

    /// The JFIF density (version, units, Xdensity, Ydensity after `JFIF\0`, JFIF 1.02) becomes the resolution when
    /// its unit is the inch or the centimetre; an aspect ratio alone (unit 0) gives none. The resolution is kept in
    /// whole pixels per metre, so it is exact to half a pixel per metre (0.0127 dpi).
    @Test(arguments: [(1, 300, 150, 300.0, 150.0), (2, 118, 40, 299.72, 101.6), (0, 1, 1, -1.0, -1.0)])
    func jfifDensityIsTheResolution(
        units: UInt8, x: UInt16, y: UInt16, expectedX: Double, expectedY: Double
    ) throws {
        var bytes = [UInt8](try Self.fixture("q90_420"))
        let jfif = try #require(
            (0..<(bytes.count - 5)).first { bytes[$0..<($0 + 5)].elementsEqual(Array("JFIF\0".utf8)) })
        bytes[jfif + 7] = units
        bytes[jfif + 8] = UInt8(x >> 8)
        bytes[jfif + 9] = UInt8(x & 0xFF)
        bytes[jfif + 10] = UInt8(y >> 8)
        bytes[jfif + 11] = UInt8(y & 0xFF)
        let dpi = try Self.decode(Data(bytes)).metadata.dotsPerInch
        if expectedX < 0 {
            #expect(dpi == nil)
        } else {
            let resolution = try #require(dpi)
            #expect(abs(resolution.x - expectedX) < 0.0128, "\(resolution)")
            #expect(abs(resolution.y - expectedY) < 0.0128, "\(resolution)")
        }
    }

    /// Applying the EXIF orientation (the option, or `oriented()` afterwards) gives what Pillow's
    /// `ImageOps.exif_transpose` gives for each of the eight values, the size swapped for 5 to 8, orientation then 1.
    @Test(arguments: 1...8)
    func orientationIsAppliedAsPillowDoes(orientation: Int) throws {
        let name = "orientation\(orientation)"
        let stored = try Self.decode(Self.fixture(name))
        #expect(stored.metadata.exifOrientation == orientation)
        #expect(stored.width == 7 && stored.height == 4)
        let upright = try Self.decode(Data(contentsOf: Self.fixtures.appendingPathComponent(name + ".upright.png")))
        let applied = try Self.decode(Self.fixture(name), options: ImageDecodingOptions(appliesOrientation: true))
        for image in [applied, stored.oriented()] {
            #expect(image.width == upright.width && image.height == upright.height)
            #expect(image.metadata.exifOrientation == 1)
            let difference = Difference(image, upright)
            #expect(difference.isWithinTolerance, "\(name): \(difference)")
        }
        // Read lazily, the size is already the oriented one, and decoding gives the oriented pixels.
        let lazy = try Self.decode(
            Self.fixture(name), options: ImageDecodingOptions(inflate: false, appliesOrientation: true))
        #expect(!lazy.isDecoded && lazy.width == upright.width && lazy.height == upright.height)
        #expect(try lazy.decoded().pixels == applied.pixels)
        #expect(stored.oriented().pixels == applied.pixels)
    }

    /// The difference between `rows` of two images of the same width.
    static func difference(_ image: Image, _ reference: Image, rows: Range<Int>) -> Difference {
        let bytes = (rows.lowerBound * image.width * 4)..<(rows.upperBound * image.width * 4)
        return Difference(
            Image(width: image.width, height: rows.count, pixels: Array(image.pixels[bytes]), format: .jpeg),
            Image(width: image.width, height: rows.count, pixels: Array(reference.pixels[bytes]), format: .jpeg))
    }

    static let partial = ImageDecodingOptions(allowsPartialImages: true)

    /// A body cut off in its entropy-coded data is `truncatedBody`; with `allowsPartialImages`, the image decoded so
    /// far, flagged partial, whose rows that arrived match Pillow's rendering of the whole file. Progressive bodies
    /// cut after a few scans give every row at a coarser quality.
    @Test(arguments: [("q90_420", 0.6, 10, 1.0), ("q90_444", 0.5, 8, 1.0), ("progressive_420", 0.55, 40, 12.0)])
    func aCutBodyIsPartialOnRequest(name: String, kept: Double, wholeRows: Int, meanTolerance: Double) throws {
        let full = try Self.fixture(name)
        let reference = try Self.decode(Data(contentsOf: Self.fixtures.appendingPathComponent(name + ".png")))
        let cut = full.prefix(Int(Double(full.count) * kept))
        let error = #expect(throws: SerializationError.self) { try Self.decode(Data(cut)) }
        #expect(error?.code == .truncatedBody)
        let image = try Self.decode(Data(cut), options: Self.partial)
        #expect(image.isPartial)
        #expect(image.width == reference.width && image.height == reference.height)
        let difference = Self.difference(image, reference, rows: 0..<wholeRows)
        #expect(difference.maximum <= 4 || difference.mean <= meanTolerance, "\(difference)")
        #expect(difference.mean <= meanTolerance, "\(difference)")
        // The whole body with the option on is the same image, not partial.
        let whole = try Self.decode(full, options: Self.partial)
        #expect(!whole.isPartial)
        #expect(whole.pixels == (try Self.decode(full)).pixels)
    }

    /// A damaged restart interval (its data overwritten with 1 bits, which start no Huffman code) is `invalidBody`;
    /// with `allowsPartialImages` decoding resumes at the next restart marker, so the MCU rows after it match
    /// Pillow's rendering of the undamaged file.
    @Test func aDamagedRestartIntervalIsSkippedOnRequest() throws {
        var bytes = [UInt8](try Self.fixture("restart_420"))
        let reference = try Self.decode(Data(contentsOf: Self.fixtures.appendingPathComponent("restart_420.png")))
        // The first interval lies between the end of the SOS segment and RST0 (FF D0); the restart interval is one
        // MCU row of 16 pixel rows (3 MCUs of 16×16).
        let sos = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let dataStart = sos + 2 + (Int(bytes[sos + 2]) << 8 | Int(bytes[sos + 3]))
        let rst0 = try #require((dataStart..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD0 })
        for offset in stride(from: dataStart + 20, to: rst0 - 1, by: 2) {
            bytes[offset] = 0xFF
            bytes[offset + 1] = 0x00
        }
        let error = #expect(throws: SerializationError.self) { try Self.decode(Data(bytes)) }
        #expect(error?.code == .invalidBody)
        let image = try Self.decode(Data(bytes), options: Self.partial)
        #expect(image.isPartial)
        // Fancy upsampling blends chroma rows across the MCU boundary: pixel row 16 still sees the damaged row's
        // last chroma row, so the comparison starts at row 17.
        let after = Self.difference(image, reference, rows: 17..<reference.height)
        #expect(after.isWithinTolerance, "\(after)")
        #expect(!Self.difference(image, reference, rows: 0..<16).isWithinTolerance)
    }

    static func response(_ data: Data, _ type: String = "image/jpeg") -> Response {
        Response(status: 200, headers: ["Content-Type": type], body: data)
    }

    /// Pixels written into a caller's storage are the same pixels, in the same memory from one decode to the next
    /// (once the storage is large enough), whatever the order of sizes.
    @Test func callerStorageIsReused() throws {
        let serializer = ImageResponseSerializer()
        var storage: [UInt8] = []
        var addresses: [UnsafeRawPointer?] = []
        for name in ["q90_444", "q90_420", "odd_17x9_420", "q90_444", "progressive_420", "q90_422"] {
            let data = try Self.fixture(name)
            let image = try serializer.serialize(Self.response(data), reusing: &storage)
            #expect(storage.isEmpty)
            #expect(image.pixels == (try Self.decode(data)).pixels, "\(name)")
            addresses.append(image.pixels.withUnsafeBytes { $0.baseAddress })
            storage = (consume image).pixels
        }
        // The first decode allocated; every later one wrote into that memory (the largest image came first).
        #expect(Set(addresses.dropFirst()).count == 1)
        #expect(addresses[1] == addresses[0])
    }

    /// A failed decode leaves the storage with the caller; other formats do not take it.
    @Test func storageStaysWithTheCallerWhenNotUsed() throws {
        let serializer = ImageResponseSerializer()
        var storage = [UInt8](repeating: 7, count: 1000)
        let cut = try Self.fixture("q90_420").prefix(300)
        #expect(throws: SerializationError.self) {
            try serializer.serialize(Self.response(Data(cut)), reusing: &storage)
        }
        #expect(storage.count == 1000)
        let png = try Data(contentsOf: Self.fixtures.appendingPathComponent("q90_420.png"))
        let image = try serializer.serialize(Self.response(png, "image/png"), reusing: &storage)
        #expect(image.width == 48 && storage.count == 1000)
    }

    @Test func qtables16FixtureHas16BitTables() throws {
        // The fixture must exercise Pq = 1 for its comparison to mean anything: FF DB, length, then Pq/Tq.
        let bytes = [UInt8](try Self.fixture("qtables16"))
        let dqt = try #require((0..<(bytes.count - 4)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDB })
        #expect(bytes[dqt + 4] >> 4 == 1)
    }

    @Test func withoutInflateReadsOnlyTheHeader() throws {
        let image = try Self.decode(Self.fixture("odd_17x9_420"), options: ImageDecodingOptions(inflate: false))
        #expect(!image.isDecoded && image.width == 17 && image.height == 9 && image.format == .jpeg)
        #expect(try image.decoded().pixels.count == 17 * 9 * 4)
    }

    // MARK: - Unsupported modes and limits

    /// SOI, then a frame header with marker `sof`, precision `precision`, size and one 1×1 component.
    static func header(sof: UInt8 = 0xC0, precision: UInt8 = 8, width: Int = 8, height: Int = 8) -> [UInt8] {
        [
            0xFF, 0xD8, 0xFF, sof, 0, 11, precision, UInt8(height >> 8), UInt8(height & 255), UInt8(width >> 8),
            UInt8(width & 255), 1, 1, 0x11, 0,
        ]
    }

    @Test(arguments: [
        (UInt8(0xC3), "lossless"), (0xC5, "hierarchical"), (0xC6, "hierarchical"), (0xC7, "hierarchical"),
        (0xC9, "arithmetic"), (0xCA, "arithmetic"), (0xCB, "arithmetic"), (0xCD, "arithmetic"),
    ])
    func unsupportedModesNameTheMode(sof: UInt8, mode: String) {
        #expect {
            try Self.decode(Data(Self.header(sof: sof)))
        } throws: { error in
            let error = error as? SerializationError
            return error?.code == .unsupportedFeature && error?.message.contains(mode) == true
        }
    }

    @Test func twelveBitSamplesAreUnsupported() {
        #expect {
            try Self.decode(Data(Self.header(precision: 12)))
        } throws: { error in
            let error = error as? SerializationError
            return error?.code == .unsupportedFeature && error?.message.contains("12-bit") == true
        }
    }

    /// A frame this size would need gigabytes: the header alone is refused, and the message names the frame's size,
    /// so the refusal came from the frame header and not from an allocation that failed later.
    @Test func hugeFrameThrowsLimitExceededBeforeAllocating() {
        #expect {
            try Self.decode(Data(Self.header(width: 65535, height: 65535)))
        } throws: { error in
            let error = error as? SerializationError
            return error?.code == .limitExceeded && error?.message.contains("65535") == true
        }
    }

    @Test func smallBodyClaimingALargeFrameHitsThePixelsPerByteLimit() {
        #expect {
            try Self.decode(Data(Self.header(width: 8000, height: 8000)))
        } throws: { error in
            (error as? SerializationError)?.code == .limitExceeded
        }
    }

    @Test func overflowingHuffmanCodeLengthsAreInvalid() {
        // Three codes of length 1 cannot exist: only "0" and "1" are 1 bit long.
        var bytes = Self.header()
        bytes += [0xFF, 0xC4, 0, 22, 0x00, 3] + [UInt8](repeating: 0, count: 15) + [0, 1, 2]
        #expect {
            try Self.decode(Data(bytes + [0xFF, 0xD9]))
        } throws: { error in
            let error = error as? SerializationError
            return error?.code == .invalidBody && error?.message.contains("DHT") == true
        }
    }

    // MARK: - Hostile input

    @Test func randomBytesAfterSOIThrow() {
        var generator = SplitMix64(state: 0x4A50_4547)
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes.reserveCapacity(1 << 20)
        while bytes.count < 1 << 20 {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        #expect(throws: SerializationError.self) { try Self.decode(Data(bytes)) }
    }

    /// A real frame and scan header followed by a megabyte of random entropy-coded data (FF bytes turned into FE, so
    /// that no marker ends it early; then EOI): the decoder reads it as Huffman codes in long runs without stuffing,
    /// and must end with an image or an explained error, with and without partial images allowed.
    @Test(arguments: ["q90_420", "progressive_420", "restart_420"])
    func aMegabyteOfRandomScanDataEnds(name: String) throws {
        let fixture = [UInt8](try Self.fixture(name))
        var index = 2
        var scanStart: Int?
        while index + 4 <= fixture.count, fixture[index] == 0xFF {
            let length = Int(fixture[index + 2]) << 8 | Int(fixture[index + 3])
            if fixture[index + 1] == 0xDA {
                scanStart = index + 2 + length
                break
            }
            index += 2 + length
        }
        var bytes = Array(fixture[..<(try #require(scanStart))])
        var generator = SplitMix64(state: 0x5343_414E)
        while bytes.count < (1 << 20) + fixture.count {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) {
                let byte = UInt8(truncatingIfNeeded: word >> shift)
                bytes.append(byte == 0xFF ? 0xFE : byte)
            }
        }
        bytes += [0xFF, 0xD9]
        for partial in [false, true] {
            var options = ImageDecodingOptions()
            options.allowsPartialImages = partial
            do {
                let image = try Self.decode(Data(bytes), options: options)
                #expect(image.pixels.count == image.width * image.height * 4)
            } catch {
                #expect([.invalidBody, .truncatedBody].contains(error.code), "\(name): \(error)")
                #expect(!error.message.isEmpty)
            }
        }
    }

    @Test(arguments: ["q90_420", "progressive_420", "restart_420"])
    func everyTruncationThrows(name: String) throws {
        let data = try Self.fixture(name)
        for length in 0..<(data.count - 1) {
            #expect(throws: SerializationError.self, "\(name) cut to \(length) bytes") {
                try Self.decode(data.prefix(length))
            }
        }
    }

    @Test(arguments: ["q90_420", "progressive_420", "restart_progressive", "gray"])
    func corruptBytesGiveAnErrorOrAnImage(name: String) throws {
        let original = [UInt8](try Self.fixture(name))
        var generator = SplitMix64(state: 7)
        for position in 2..<original.count {
            var bytes = original
            bytes[position] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
            do {
                let image = try Self.decode(Data(bytes))
                #expect(image.pixels.count == image.width * image.height * 4)
            } catch {
                // An error is a fine outcome for corrupt data; the test is that nothing crashes or hangs.
            }
        }
    }

    /// Inputs the fuzzer (Tests/Fuzz/FuzzJPEG.swift) found crashing, in hexadecimal: each must
    /// give an error or an image.
    static let fuzzFindings: [String] = [
        // Found by FuzzJPEG in its first minutes.
        [
            "ffd8ffe000104a46494600010101004800480000ffdb00430001010101010101010101010101010101010101010101010101",
            "010101000101010101010101010101010101010101010101010101010101010101010101010101ffdb004301010101010101",
            "010101010101010101010101010101010101017e010101010101010101010101010101010101010101010101010101010101",
            "010101010101010101ffc00011080020002003012200021101031101ffc40016000101010000000000000000000000000008",
            "070affc400351000000205080804070000000000000000012102071131420003062432415161051222233371a1b191d1e1f0",
            "4352628182c1c2ffc4001701010003000000000000000000000000000a070809ffc4003411000001060a0904030000000000",
            "0000000102081121314100030405071213222461061425323542435153238191c13471f0ffda000c03010002110311003f00",
            "d2252d5b073b590725175ed0272b1b602f5af8130d020b17534ac28e74f1db6f38652dd20bef28d5425ab2671618a71c90ee",
            "ef379e38277c3055ab50eab10f07194054548579b102b8ce80365a5342acb684ec64f65381632400000000000000000096e7",
            "72938659c2175ed0272b1b0c72abd5837086adadadadadadadadadadadadadadadadadadadadadadadadadadadadadadadad",
            "adadadadadadadadadadadadadadadadadadadadadadadadadad791d18e5f1c84256dce1b6ef7bf5142bce1b6cf5ff0048af",
            "cf115f3707f64c93ce8ec06edcd7b35a1bc144187259d1d49b9f5fad09d8a6faef37dac8f4d212bdd6be2511755d50b09afe",
            "8ebb19a3c5ad1fbc5ee7ffd9e13c6d1112c143369fffd9",
        ].joined()
    ]

    @Test(arguments: fuzzFindings)
    func fuzzFindingsDoNotCrash(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        if let image = try? Self.decode(Data(bytes)) {
            #expect(image.pixels.count == image.width * image.height * 4)
        }
    }
}

/// The JPEG decoder against the corpora's reference renderings (decoded with Decant's PNG decoder).
@Suite struct JPEGCorpusTests {
    /// jpeg-decoder's reftest images: each `.jpg` with a `.png` rendering beside it.
    static let reftest = "images/jpeg-decoder/tests/reftest/images"
    /// libjpeg-turbo's test images.
    static let libjpegTurbo = "images/libjpeg-turbo/testimages"

    /// Whether the reftest file at `relative` (to ``reftest``) uses a mode Decant does not decode (lossless), so
    /// that it must throw `unsupportedFeature`.
    static func isUnsupported(_ relative: String) -> Bool { relative.hasPrefix("lossless/") }

    /// Reftest files (relative to ``reftest``) whose reference Decant does not match, with the reason.
    static let exceptions: [String: String] = [
        "mozilla/jpg-cmyk-1.jpg":
            "the reference (jpeg-decoder's) converts CMYK to RGB with other rounding: max |Δ| 1 but mean |Δ| 0.16; "
            + "Pillow's conversion, which Decant follows, differs from the reference by exactly as much"
    ]

    /// Corpus files (relative to the corpus folder) whose scan data runs out before the scan's last block, EOI
    /// following: libjpeg decodes zero bits for the rest (with a warning), so Pillow gives a full image. Decant throws
    /// `truncatedBody` unless ``ImageDecodingOptions/allowsPartialImages`` is set, and then gives Pillow's image,
    /// flagged partial.
    static let cutScans: Set<String> = ["tests/reftest/images/partial_progressive.jpg"]

    /// The options for the corpus file at `path` (relative to its corpus folder): partial images allowed for
    /// ``cutScans``, after checking that without them the file is `truncatedBody`.
    static func options(for path: String, _ data: Data) -> ImageDecodingOptions {
        var options = ImageDecodingOptions()
        guard cutScans.contains(path) else { return options }
        #expect("\(path)") {
            _ = try ImageDecoder.decode(data, options: options)
        } throws: { error in
            (error as? SerializationError)?.code == .truncatedBody
        }
        options.allowsPartialImages = true
        return options
    }

    /// Decodes `jpeg` and compares it with `png`: `nil` when within tolerance, else what differs.
    static func compare(_ jpeg: URL, with png: URL) -> String? {
        do {
            let data = try Data(contentsOf: jpeg)
            let relative = Corpora.relativePath(of: jpeg).replacingOccurrences(of: "images/jpeg-decoder/", with: "")
            let options = Self.options(for: relative, data)
            let image = try ImageDecoder.decode(data, options: options)
            #expect(image.isPartial == options.allowsPartialImages, "\(relative)")
            let reference = try ImageDecoder.decode(Data(contentsOf: png), options: ImageDecodingOptions())
            guard image.width == reference.width && image.height == reference.height else {
                return "\(image.width)×\(image.height), reference \(reference.width)×\(reference.height)"
            }
            let difference = JPEGTests.Difference(image, reference)
            return difference.isWithinTolerance ? nil : difference.description
        } catch {
            return "\(error)"
        }
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func reftestImagesMatchTheirReferences() throws {
        let files = Corpora.files(under: Self.reftest, extension: "jpg")
        #expect(files.count >= 30)
        var failures: [String: String] = [:]
        for file in files {
            let relative = Corpora.relativePath(of: file).replacingOccurrences(of: Self.reftest + "/", with: "")
            if Self.isUnsupported(relative) {
                #expect("\(relative)") {
                    _ = try ImageDecoder.decode(Data(contentsOf: file), options: ImageDecodingOptions())
                } throws: { error in
                    (error as? SerializationError)?.code == .unsupportedFeature
                }
                continue
            }
            let png = file.deletingPathExtension().appendingPathExtension("png")
            guard FileManager.default.fileExists(atPath: png.path) else { continue }
            if let problem = Self.compare(file, with: png) { failures[relative] = problem }
        }
        #expect(Set(failures.keys) == Set(Self.exceptions.keys), "\(failures)")
    }

    /// Corpus JPEG files (relative to their corpus folder) in modes Decant does not decode: lossless, arithmetic,
    /// 12-bit. Pillow's libjpeg-turbo decodes some of them; Decant must throw `unsupportedFeature`.
    static func isUnsupportedMode(_ path: String) -> Bool {
        path.contains("/lossless/") || path == "testimages/testimgari.jpg" || path == "testimages/monkey12.jpg"
    }

    /// Corpus folders with a `_pillow_reference/pillow_reference.json`, and how many of their JPEG files at least
    /// must match Pillow's rendering exactly (so that a missing corpus cannot pass silently).
    static let pillowFolders: [(folder: String, minimumMatches: Int)] = [
        ("images/jpeg-decoder", 41), ("images/image-rs", 6), ("images/golang-image", 1), ("images/libjpeg-turbo", 2),
    ]

    @Test(
        .enabled(if: Corpora.isAvailable, "needs ../shared/corpora"),
        arguments: pillowFolders)
    func corpusFilesMatchPillowExactly(folder: String, minimumMatches: Int) throws {
        let url = try #require(Corpora.url(folder + "/_pillow_reference/pillow_reference.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let files = try #require(json["files"] as? [[String: Any]])
        var matched = 0
        var attempted = 0
        var mismatches: [String: String] = [:]
        for file in files {
            guard let path = file["file"] as? String,
                path.lowercased().hasSuffix(".jpg") || path.lowercased().hasSuffix(".jpeg"),
                let source = Corpora.url(folder + "/" + path)
            else { continue }
            attempted += 1
            let decoded = Result { () throws(SerializationError) -> Image in
                let data = try Self.read(source)
                let options = Self.options(for: path, data)
                let image = try ImageDecoder.decode(data, options: options)
                #expect(image.isPartial == options.allowsPartialImages, "\(path)")
                return image
            }
            if Self.isUnsupportedMode(path) {
                if case .failure(let error) = decoded, error.code == .unsupportedFeature { continue }
                mismatches[path] = "not refused with unsupportedFeature"
                continue
            }
            // Files Pillow fails on (truncated, damaged) need only not crash Decant.
            guard file["pillow"] as? String == "ok", let crc = file["crc32_rgba"] as? Int else { continue }
            switch decoded {
            case .success(let image):
                let actual = Checksum.crc32(image.pixels)
                if actual == UInt32(crc) && image.width == file["width"] as? Int {
                    matched += 1
                } else {
                    mismatches[path] = "\(image.width)×\(image.height), CRC-32 \(actual), Pillow's \(crc)"
                }
            case .failure(let error):
                mismatches[path] = "\(error.code): \(error.message)"
            }
        }
        #expect(matched >= minimumMatches, "\(matched) of \(attempted) files match")
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// The bytes of `url`, a `SerializationError` when it cannot be read.
    static func read(_ url: URL) throws(SerializationError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw SerializationError(code: .invalidBody, message: "cannot read \(url.path)")
        }
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func libjpegTurboTestImages() throws {
        let original = try ImageDecoder.decode(
            Data(contentsOf: try #require(Corpora.url(Self.libjpegTurbo + "/testorig.jpg"))),
            options: ImageDecodingOptions())
        #expect(original.width == 227 && original.height == 149)
        // testorig.png is not a rendering of testorig.jpg (Pillow's decoding differs from it by up to 183 too), and
        // the corpus has no rendering of testimgint.jpg, the same picture encoded differently: only sizes are checked.
        let interleaved = try ImageDecoder.decode(
            Data(contentsOf: try #require(Corpora.url(Self.libjpegTurbo + "/testimgint.jpg"))),
            options: ImageDecodingOptions())
        #expect(interleaved.width == 227 && interleaved.height == 149)
        #expect {
            try ImageDecoder.decode(
                Data(contentsOf: try #require(Corpora.url(Self.libjpegTurbo + "/testimgari.jpg"))),
                options: ImageDecodingOptions())
        } throws: { error in
            (error as? SerializationError)?.code == .unsupportedFeature
        }
    }
}

/// The vectorised YCbCr to RGBA conversion against JFIF's formula as libjpeg rounds it (ITU-T T.871 §7, 16-bit fixed
/// point), written out here lane by lane: every Cb and Cr for luma levels across the range, edges included.
@Suite struct YCbCrConversionTests {
    /// One pixel by the formula: R = Y + 1.402 (Cr - 128), G = Y - 0.344136 (Cb - 128) - 0.714136 (Cr - 128),
    /// B = Y + 1.772 (Cb - 128), with libjpeg's constants (rounded to 2^-16) and rounding, clamped to 0...255.
    static func expected(y: Int, cb: Int, cr: Int) -> [UInt8] {
        func clamp(_ value: Int) -> UInt8 { UInt8(max(0, min(255, value))) }
        let one = 1 << 16
        let red = y + (Int((1.40200 * Double(one)).rounded()) * (cr - 128) + one / 2) >> 16
        let green =
            y
            + (one / 2 - Int((0.71414 * Double(one)).rounded()) * (cr - 128)
                - Int((0.34414 * Double(one)).rounded()) * (cb - 128)) >> 16
        let blue = y + (Int((1.77200 * Double(one)).rounded()) * (cb - 128) + one / 2) >> 16
        return [clamp(red), clamp(green), clamp(blue), 255]
    }

    @Test(arguments: [0, 1, 16, 77, 128, 200, 235, 254, 255])
    func everyChromaPairMatchesTheFormula(luma: Int) {
        let count = 256 * 256
        let y = [UInt8](repeating: UInt8(luma), count: count)
        let cb = (0..<count).map { UInt8($0 & 255) }
        let cr = (0..<count).map { UInt8($0 >> 8) }
        var out = [UInt8](repeating: 0, count: 4 * count)
        y.withUnsafeBufferPointer { y in
            cb.withUnsafeBufferPointer { cb in
                cr.withUnsafeBufferPointer { cr in
                    out.withUnsafeMutableBufferPointer { out in
                        JPEGDecoder.convert(
                            .yCbCr, count: count, y.baseAddress!, cb.baseAddress!, cr.baseAddress!, y.baseAddress!,
                            into: out.baseAddress!)
                    }
                }
            }
        }
        var mismatches = 0
        for index in 0..<count
        where Array(out[4 * index..<4 * index + 4])
            != Self.expected(y: luma, cb: Int(cb[index]), cr: Int(cr[index]))
        {
            mismatches += 1
        }
        #expect(mismatches == 0)
    }
}
