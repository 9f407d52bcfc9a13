import DecantCompression
import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// Builds small PNG files for tests: chunks with their CRCs, image data in stored (uncompressed) zlib blocks.
enum PNGBuilder {
    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        let length = UInt32(body.count)
        let crc = Checksum.crc32(typeBytes + body)
        return bigEndian(length) + typeBytes + body + bigEndian(crc)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func header(width: UInt32, height: UInt32, depth: UInt8, colorType: UInt8, interlace: UInt8 = 0) -> [UInt8] {
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [depth, colorType, 0, 0, interlace])
    }

    /// A zlib stream of stored blocks (RFC 1950, RFC 1951 §3.2.4).
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var index = 0
        repeat {
            let count = min(65535, data.count - index)
            let isFinal: UInt8 = index + count == data.count ? 1 : 0
            out += [isFinal, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            out += data[index..<(index + count)]
            index += count
        } while index < data.count
        return out + bigEndian(data.withUnsafeBytes { Checksum.adler32($0) })
    }

    static func png(
        width: Int, height: Int, depth: UInt8 = 8, colorType: UInt8, rows: [UInt8], extra: [[UInt8]] = []
    ) -> [UInt8] {
        PNGDecoder.signature + header(width: UInt32(width), height: UInt32(height), depth: depth, colorType: colorType)
            + extra.flatMap { $0 } + chunk("IDAT", storedZlib(rows)) + chunk("IEND", [])
    }

    /// A 2×2 RGBA image: red, green / blue, half-transparent white; rows filtered with None and Sub.
    static let small: [UInt8] = png(
        width: 2, height: 2, colorType: 6,
        rows: [0, 255, 0, 0, 255, 0, 255, 0, 255] + [1, 0, 0, 255, 255, 255, 255, 0, 129])
}

@Suite struct PNGTests {
    static func response(_ body: [UInt8], type: String = "image/png", url: String? = nil) -> Response {
        var headers = HTTPHeaderFields()
        headers.append(name: "Content-Type", value: type)
        return Response(status: 200, headers: headers, body: Data(body), url: url.flatMap(URL.init(string:)))
    }

    @Test func decodesFiltersAndAlpha() throws {
        let image = try ImageResponseSerializer().serialize(Self.response(PNGBuilder.small))
        #expect(image.width == 2 && image.height == 2)
        #expect(image.format == .png)
        #expect(image.isDecoded)
        #expect(image.pixels == [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128])
        #expect(image.metadata.colorType == .rgba)
        #expect(image.metadata.bitDepth == 8)
        #expect(image[1, 1] == (255, 255, 255, 128))
    }

    @Test func premultipliedAlpha() throws {
        let serializer = ImageResponseSerializer(options: ImageDecodingOptions(premultipliedAlpha: true))
        let image = try serializer.serialize(Self.response(PNGBuilder.small))
        #expect(image.isPremultiplied)
        #expect(Array(image.pixels[12...]) == [128, 128, 128, 128])
    }

    @Test func hugeHeaderFailsFastWithLimitExceeded() throws {
        // 100000 × 100000 RGBA would need 40 GB: the limit is checked from IHDR, before anything is allocated.
        let body =
            PNGDecoder.signature + PNGBuilder.header(width: 100_000, height: 100_000, depth: 8, colorType: 6)
            + PNGBuilder.chunk("IDAT", PNGBuilder.storedZlib([0])) + PNGBuilder.chunk("IEND", [])
        let error = try #require(throws: SerializationError.self) {
            try ImageResponseSerializer().serialize(Self.response(body))
        }
        #expect(error.code == .limitExceeded)
        #expect(error.serializerID == "image")
        #expect(error.message.contains("100000×100000"))
        // The same with inflate off: the limit still applies.
        let lazy = ImageResponseSerializer(options: ImageDecodingOptions(inflate: false))
        let lazyError = #expect(throws: SerializationError.self) { try lazy.serialize(Self.response(body)) }
        #expect(lazyError?.code == .limitExceeded)
        // And a lower maxPixels rejects the small image.
        let strict = ImageResponseSerializer(options: ImageDecodingOptions(limits: ImageLimits(maxPixels: 3)))
        let small = try #require(throws: SerializationError.self) {
            try strict.serialize(Self.response(PNGBuilder.small))
        }
        #expect(small.code == .limitExceeded)
    }

    @Test func inflateOffReturnsSizeWithoutPixels() throws {
        let serializer = ImageResponseSerializer(options: ImageDecodingOptions(inflate: false))
        let image = try serializer.serialize(Self.response(PNGBuilder.small))
        #expect(!image.isDecoded)
        #expect(image.pixels.isEmpty)
        #expect(image.width == 2 && image.height == 2 && image.frameCount == 1 && image.format == .png)
        let decoded = try image.decoded()
        #expect(decoded.isDecoded)
        #expect(decoded.pixels.count == 16)
    }

    @Test(arguments: [
        ("https://example.com/a/icon@2x.png", 2.0), ("https://example.com/icon@3x.png?x=1", 3.0),
        ("https://example.com/icon.png", 1.0), ("https://example.com/icon@2x", 2.0),
    ])
    func scaleFromURL(url: String, scale: Double) throws {
        let image = try ImageResponseSerializer().serialize(Self.response(PNGBuilder.small, url: url))
        #expect(image.scale == scale)
        #expect(image.pointSize.width == 2 / scale)
    }

    @Test func explicitScaleWithoutSuffix() throws {
        let serializer = ImageResponseSerializer(options: ImageDecodingOptions(imageScale: 2))
        #expect(try serializer.serialize(Self.response(PNGBuilder.small)).scale == 2)
    }

    @Test func throughARegistry() throws {
        var registry = SerializerRegistry()
        registry.install(.image)
        let image = try registry.serialize(Self.response(PNGBuilder.small, type: "image/x-icon"), as: Image.self)
        #expect(image.width == 2)
        // The format comes from the signature, not the header.
        #expect(image.format == .png)
        let result = try registry.serialize(Self.response(PNGBuilder.small))
        #expect(result.serializerID == "image")
    }

    @Test(arguments: [
        ("II*\u{0}", Image.Format.tiff),
        ("MM\u{0}*", .tiff),
        ("II+\u{0}", .tiff),
        ("MM\u{0}+", .tiff),
    ])
    func tiffSignaturesGoToTheTIFFDecoder(signature: String, format: Image.Format) throws {
        let bytes = signature.unicodeScalars.map { UInt8($0.value) } + [UInt8](repeating: 0, count: 32)
        #expect(Image.Format.detect(bytes) == format)
        let error = try #require(throws: SerializationError.self) {
            try ImageResponseSerializer().serialize(Self.response(bytes))
        }
        // Zeros after the signature: no image file directory (classic) or no 8-byte offsets (BigTIFF).
        #expect(error.code == .invalidBody)
        #expect(error.message.contains("TIFF"))
    }

    @Test func unknownBytesAreInvalid() throws {
        let error = try #require(throws: SerializationError.self) {
            try ImageResponseSerializer().serialize(Self.response(Array("hello".utf8)))
        }
        #expect(error.code == .invalidBody)
    }

    /// Indices past a two-entry palette (2 and 200) are opaque black, with or without a tRNS chunk, as Pillow gives
    /// them (Pillow 13, `Image.open(...).convert("RGBA")` on these files: `(10, 20, 30, a0), (40, 50, 60, a1),
    /// (0, 0, 0, 255), (0, 0, 0, 255)`, where tRNS gives a0 and a1, 255 where it is absent or short).
    @Test(arguments: [[], [128], [128, 64]] as [[UInt8]])
    func indicesPastThePaletteAreOpaqueBlack(transparency: [UInt8]) throws {
        let palette = PNGBuilder.chunk("PLTE", [10, 20, 30, 40, 50, 60])
        let extra = [palette] + (transparency.isEmpty ? [] : [PNGBuilder.chunk("tRNS", transparency)])
        let body = PNGBuilder.png(width: 4, height: 1, colorType: 3, rows: [0, 0, 1, 2, 200], extra: extra)
        let image = try ImageResponseSerializer().serialize(Self.response(body))
        let alpha = transparency + [UInt8](repeating: 255, count: 2 - transparency.count)
        #expect(image.pixels == [10, 20, 30, alpha[0], 40, 50, 60, alpha[1], 0, 0, 0, 255, 0, 0, 0, 255])
    }

    @Test func factoryAndOptions() throws {
        let factory = ImageSerializerFactory()
        #expect(factory.id == "image")
        #expect(factory.mediaRanges.count == 13)
        #expect(
            factory.optionSchema.map(\.name) == [
                "imageScale", "inflate", "maxPixels", "maxFrames", "premultipliedAlpha", "maxTotalBytes",
                "maxPixelsPerByte", "maxScanWorkPerByte", "icoPreferredSize", "appliesOrientation",
                "allowsPartialImages",
            ])
        let serializer = try factory.makeSerializer(configuration: [
            "imageScale": 2, "inflate": false, "maxPixels": 10, "maxFrames": 5, "premultipliedAlpha": true,
            "maxPixelsPerByte": 7, "appliesOrientation": true,
            "allowsPartialImages": true,
        ])
        #expect(serializer.options.imageScale == 2)
        #expect(!serializer.options.inflate)
        #expect(serializer.options.limits.maxPixels == 10)
        #expect(serializer.options.limits.maxFrames == 5)
        #expect(serializer.options.limits.maxPixelsPerByte == 7)
        #expect(serializer.options.premultipliedAlpha)
        #expect(serializer.options.appliesOrientation)
        #expect(serializer.options.allowsPartialImages)
        #expect(try !factory.makeSerializer(configuration: [:]).options.appliesOrientation)
        let unknown = try #require(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["inflates": true])
        }
        #expect(unknown.code == .unknownOption)
        #expect(ImageResponseSerializer().accepts(try MediaType(parsing: "image/vnd.microsoft.icon")))
        #expect(!ImageResponseSerializer().accepts(try MediaType(parsing: "image/webp")))
    }

    @Test func truncatedPrefixesFail() {
        let bytes = PNGBuilder.small
        for length in 0..<bytes.count {
            let error = #expect(throws: SerializationError.self) {
                try ImageResponseSerializer().serialize(Self.response(Array(bytes[..<length])))
            }
            // Under 4 bytes the body is no image Decant recognises; from `\x89PNG` on, the PNG decoder says where it
            // was cut.
            #expect(error?.code == (length < 4 ? .invalidBody : .truncatedBody), "\(length) bytes")
        }
    }

    @Test func sixteenBitReductionMatchesTheRoundingFormula() {
        // (v * 255 + 32895) >> 16 is round(v / 257): exact for multiples of 257, rounding half up elsewhere.
        for value in stride(from: 0, through: 65535, by: 1) {
            let expected = UInt8((Double(value) / 257).rounded(.toNearestOrAwayFromZero))
            if RowConverter.reduce(UInt32(value)) != expected { Issue.record("\(value)") }
        }
    }

    @Test func seededMutationsNeverCrash() throws {
        var sources = [PNGBuilder.small]
        for name in ["basn6a08", "basi3p02", "basn0g16", "tbrn2c08"] {
            if let url = Corpora.url("images/pngsuite/lunapaint/png/\(name).png") {
                sources.append([UInt8](try Data(contentsOf: url)))
            }
        }
        var generator = SplitMix64(state: 0x504E_47)
        var failed: [String] = []
        for round in 0..<2000 {
            var bytes = sources[round % sources.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 8..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if let problem = decodeProblem(Data(bytes)) { failed.append("round \(round): \(problem)") }
        }
        #expect(failed.isEmpty, "\(failed)")
    }
}
