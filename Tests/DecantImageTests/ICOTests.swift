import DecantCompression
import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// ICO/CUR: image-rs's icons against their reference PNGs; bad and regression inputs never crash.
@Suite struct ICOTests {
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func iconsMatchTheirReferences() throws {
        var passed = 0
        var failed: [String] = []
        for file in Corpora.files(under: "images/image-rs/tests/images/ico", extension: "ico") {
            let name = file.lastPathComponent
            guard let referenceURL = Corpora.url("images/image-rs/tests/reference/ico/images/\(name).png") else {
                print("image-rs ico: \(name): no reference PNG, decoded for no-crash only")
                _ = try? ImageDecoder.decode(Data(contentsOf: file), options: ImageDecodingOptions())
                continue
            }
            do {
                let image = try ImageDecoder.decode(Data(contentsOf: file), options: ImageDecodingOptions())
                let reference = try ImageDecoder.decode(Data(contentsOf: referenceURL), options: ImageDecodingOptions())
                #expect(image.format == .ico)
                #expect(image.chosenEntry != nil && !image.entries.isEmpty)
                if image.width == reference.width && image.height == reference.height
                    && image.pixels == reference.pixels
                {
                    passed += 1
                } else {
                    let differing = zip(image.pixels, reference.pixels).filter { $0 != $1 }.count
                    failed.append(
                        "\(name): \(image.width)×\(image.height) vs \(reference.width)×\(reference.height), "
                            + "\(differing) samples differ")
                }
            } catch {
                failed.append("\(name): \(error)")
            }
        }
        print("image-rs ico: \(passed) passed, \(failed.count) failed")
        for failure in failed { print("  " + failure) }
        #expect(failed.isEmpty)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func badAndRegressionIconsNeverCrash() throws {
        let files =
            Corpora.files(under: "images/image-rs/tests/bad/ico", extension: "ico")
            + Corpora.files(under: "images/image-rs/tests/regression/ico", extension: "ico")
        for file in files {
            let outcome: String
            do {
                let image = try ImageDecoder.decode(Data(contentsOf: file), options: ImageDecodingOptions())
                outcome = "decoded \(image.width)×\(image.height)"
            } catch {
                outcome = (error as? SerializationError).map { "[\($0.code)] \($0.message)" } ?? "\(error)"
            }
            print("image-rs ico: \(file.lastPathComponent): \(outcome)")
        }
        let failed = try files.compactMap { file in decodeProblem(try Data(contentsOf: file)).map { "\(file): \($0)" } }
        print("image-rs ico bad/regression: \(files.count - failed.count) passed (no crash), \(failed.count) failed")
        #expect(failed.isEmpty, "\(failed)")
        // The count found in the corpus when this test was written: fewer means files went missing.
        #expect(files.count >= 4, "expected at least 4 bad/regression icons, found \(files.count)")
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func seededMutationsNeverCrash() throws {
        var sources: [[UInt8]] = []
        for name in ["smile.ico", "png-32bpp-alpha.ico"] {
            let url = try #require(Corpora.url("images/image-rs/tests/images/ico/images/\(name)"), "\(name) is missing")
            sources.append([UInt8](try Data(contentsOf: url)))
        }
        var generator = SplitMix64(state: 0x1C0)
        var failed: [String] = []
        for round in 0..<1000 {
            var bytes = sources[round % sources.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 4..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if let problem = decodeProblem(Data(bytes)) { failed.append("round \(round): \(problem)") }
        }
        #expect(failed.isEmpty, "\(failed)")
    }

    /// Expected sizes and CRC-32s of the RGBA8 pixels (fully transparent pixels zeroed) from Pillow 13: `Image.open`
    /// then `im.size = (16, 16)` for smile.ico, `im.ico.getimage((w, h), 32)` for the multi-entry icon.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func preferredSizeChoosesTheClosestEntry() throws {
        let directory = "images/image-rs/tests/images/ico/images/"
        let smile = try Data(contentsOf: try #require(Corpora.url(directory + "smile.ico")))
        let multiple = try Data(
            contentsOf: try #require(Corpora.url(directory + "multiple_entries_with_different_bit_depth.ico")))
        let cases: [(Data, Int?, Int, Int, UInt32)] = [
            (smile, nil, 32, 0, 0x291E_3BB0),  // the largest by default
            (smile, 16, 16, 1, 0x485D_79BF),
            (smile, 20, 16, 1, 0x485D_79BF),  // 16 is closer than 32
            (smile, 24, 32, 0, 0x291E_3BB0),  // a tie between 16 and 32: the larger
            (multiple, nil, 48, 5, 0x3690_21E9),  // 48×48 at 8 and 32 bits: the deeper
            (multiple, 24, 24, 7, 0x3F07_9481),
            (multiple, 16, 16, 8, 0x2375_1AC9),  // three 16×16 entries: the 32-bit one
            (multiple, 1000, 48, 5, 0x3690_21E9),
        ]
        for (data, preferred, size, entry, crc) in cases {
            let options = ImageDecodingOptions(icoPreferredSize: preferred)
            let image = try ImageDecoder.decode(data, options: options)
            #expect(image.width == size && image.height == size, "preferred \(String(describing: preferred))")
            #expect(image.chosenEntry == entry, "preferred \(String(describing: preferred))")
            var pixels = image.pixels
            for index in stride(from: 0, to: pixels.count, by: 4) where pixels[index + 3] == 0 {
                pixels[index] = 0
                pixels[index + 1] = 0
                pixels[index + 2] = 0
            }
            #expect(Checksum.crc32(pixels) == crc, "preferred \(String(describing: preferred))")
            var lazy = options
            lazy.inflate = false
            let pending = try ImageDecoder.decode(data, options: lazy)
            #expect(pending.chosenEntry == entry && pending.width == size)
        }
        let factory = ImageSerializerFactory()
        #expect(try factory.makeSerializer(configuration: ["icoPreferredSize": 16]).options.icoPreferredSize == 16)
        #expect(try factory.makeSerializer(configuration: ["icoPreferredSize": 0]).options.icoPreferredSize == nil)
        #expect(try factory.makeSerializer(configuration: [:]).options.icoPreferredSize == nil)
    }

    /// Fuzzer finding (FuzzICO): a directory entry claiming 32×256 for a 32×32 bitmap made the lazy image (inflate
    /// off) report the directory's size while decoding gave the bitmap's. Both now report the entry's own header.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func lazySizeComesFromTheEntryHeader() throws {
        let url = try #require(Corpora.url("images/image-rs/tests/images/ico/images/smile.ico"))
        var bytes = [UInt8](try Data(contentsOf: url))
        bytes[7] = 0  // entry 0's height: 0 means 256
        var lazy = ImageDecodingOptions()
        lazy.inflate = false
        let pending = try ImageDecoder.decode(Data(bytes), options: lazy)
        let decoded = try ImageDecoder.decode(Data(bytes), options: ImageDecodingOptions())
        #expect(decoded.width == 32 && decoded.height == 32)
        #expect(pending.width == decoded.width && pending.height == decoded.height)
        #expect(try pending.decoded().pixels == decoded.pixels)
    }

    /// A one-entry icon: `dib` (a BITMAPINFOHEADER, twice the height, then palette, XOR rows and AND mask) at offset
    /// 22, with `directorySize` as the entry's size in the directory.
    static func icon(width: Int, height: Int, bitsPerPixel: Int, body: [UInt8], directorySize: Int) -> Data {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
        let directory = le16(0) + le16(1) + le16(1)
        let entry = [UInt8(width), UInt8(height), 0, 0] + le16(1) + le16(bitsPerPixel) + le32(directorySize) + le32(22)
        var dib = le32(40) + le32(width) + le32(height * 2) + le16(1) + le16(bitsPerPixel)
        dib += le32(0) + le32(0) + le32(0) + le32(0) + le32(0) + le32(0)
        return Data(directory + entry + dib + body)
    }

    /// A 32-bit entry uses its alpha bytes; when every alpha byte is 0 (as old 32-bit icons are written), the AND mask
    /// decides instead: masked pixels are transparent black, the others opaque (the ICO format as Windows draws it).
    @Test(arguments: [true, false])
    func thirtyTwoBitEntriesUseAlphaOrTheMask(withAlpha: Bool) throws {
        // 2×2, rows bottom-up, BGRA: bottom row blue, green; top row red, white.
        let alpha: UInt8 = withAlpha ? 0x80 : 0
        let rows: [UInt8] = [255, 0, 0, alpha, 0, 255, 0, alpha, 0, 0, 255, alpha, 255, 255, 255, alpha]
        let mask: [UInt8] = [0, 0, 0, 0, 0x40, 0, 0, 0]  // the top row's second pixel is masked
        let image = try ImageDecoder.decode(
            Self.icon(width: 2, height: 2, bitsPerPixel: 32, body: rows + mask, directorySize: 40 + 16 + 8),
            options: ImageDecodingOptions())
        #expect(image.width == 2 && image.height == 2)
        if withAlpha {
            #expect(image.pixels == [255, 0, 0, 128, 255, 255, 255, 128, 0, 0, 255, 128, 0, 255, 0, 128])
        } else {
            #expect(image.pixels == [255, 0, 0, 255, 0, 0, 0, 0, 0, 0, 255, 255, 0, 255, 0, 255])
        }
        #expect(image.metadata.hasTransparency && image.metadata.bitDepth == 32)
    }

    /// A DIB entry must hold its header, palette, XOR rows and (but for 32-bit entries, whose alpha channel carries
    /// the transparency) its AND mask; a shorter one is rejected, saying which entry and how many bytes it lacks.
    @Test func entryShorterThanItsBitmapIsRejected() throws {
        // 2×2 at 1 bit: 40 header + 8 palette + 2 rows × 4 (XOR) = 56, + 2 rows × 4 (AND mask) = 64 bytes.
        let palette: [UInt8] = [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0]
        let rows: [UInt8] = [0x40, 0, 0, 0, 0x80, 0, 0, 0]  // bottom row: black, white; top row: white, black
        let mask: [UInt8] = [0, 0, 0, 0, 0x40, 0, 0, 0]  // the top row's second pixel is transparent
        let complete = try ImageDecoder.decode(
            Self.icon(width: 2, height: 2, bitsPerPixel: 1, body: palette + rows + mask, directorySize: 64),
            options: ImageDecodingOptions())
        #expect(complete.pixels == [255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255])
        func rejection(_ data: Data) -> SerializationError? {
            do {
                _ = try ImageDecoder.decode(data, options: ImageDecodingOptions())
                return nil
            } catch {
                return error
            }
        }
        // The directory gives 60 bytes, cutting the AND mask.
        let short = rejection(
            Self.icon(width: 2, height: 2, bitsPerPixel: 1, body: palette + rows + mask, directorySize: 60))
        #expect(short?.code == .truncatedBody)
        #expect(
            short?.message
                == "The icon's entry 0 (2×2, 1-bit) is too short for its bitmap: the directory gives it 60 bytes, "
                + "but the bitmap needs 64: 56 for its header, palette and pixel rows, 8 for its AND mask. The file "
                + "is cut short or its directory entry's size is wrong; re-export the icon.")
        // The file ends first.
        let cut = rejection(
            Self.icon(width: 2, height: 2, bitsPerPixel: 1, body: palette + rows + mask.prefix(2), directorySize: 64))
        #expect(cut?.code == .truncatedBody)
        #expect(
            cut?.message.contains("the directory gives it 64 bytes (the file ends after 58), but the bitmap needs 64")
                == true)
        // 1×1 at 32 bits: 40 + 4 = 44 bytes without the 4-byte AND mask, which may be cut; the pixel rows may not.
        let pixel: [UInt8] = [0x10, 0x20, 0x30, 0x80]
        let noMask = try ImageDecoder.decode(
            Self.icon(width: 1, height: 1, bitsPerPixel: 32, body: pixel, directorySize: 44),
            options: ImageDecodingOptions())
        #expect(noMask.pixels == [0x30, 0x20, 0x10, 0x80])
        let noPixel = rejection(Self.icon(width: 1, height: 1, bitsPerPixel: 32, body: pixel, directorySize: 43))
        #expect(noPixel?.code == .truncatedBody)
        #expect(
            noPixel?.message.contains(
                "gives it 43 bytes, but the bitmap needs 44 for its header, palette and pixel rows") == true)
    }

    /// image-rs's icons whose entries are too short or whose AND mask is cut short.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func imageRSShortEntries() throws {
        // image-rs's bad/ icon: a 32×32 4-bit entry of 372 bytes, which needs 40 + 16 × 4 + 32 rows × 16 = 616 bytes,
        // and 32 × 4 more for its AND mask.
        let bad = try Data(
            contentsOf: try #require(
                Corpora.url("images/image-rs/tests/bad/ico/Bad_smile-incorrect-image-length.ico")))
        let error = #expect(throws: SerializationError.self) {
            try ImageDecoder.decode(bad, options: ImageDecodingOptions())
        }
        #expect(error?.code == .truncatedBody)
        #expect(error?.message.contains("entry 0 (32×32, 4-bit)") == true)
        #expect(error?.message.contains("gives it 372 bytes, but the bitmap needs 744: 616 for") == true)
        // image-rs's truncated_mask_32bpp.ico: a 64×64 32-bit entry of 16680 bytes, its AND mask (512 bytes after
        // 16424) cut short, decodes.
        let truncatedMask = try ImageDecoder.decode(
            Data(
                contentsOf: try #require(
                    Corpora.url("images/image-rs/tests/images/ico/images/truncated_mask_32bpp.ico"))),
            options: ImageDecodingOptions())
        #expect(truncatedMask.width == 64 && truncatedMask.height == 64)
    }
}
