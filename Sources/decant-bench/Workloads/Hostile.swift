import Decant
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Peak memory of hostile bodies: for each format, the ~1 MiB body known to cost the most memory per input byte,
/// decoded through `SerializerRegistry.standard` as a response (what an app does), in a fresh child process, against
/// Foundation's decoder of the same format on the same bytes. The row is the peak RSS growth over the body size;
/// the note adds the wall time of the decode. A hostile body must end (in a value or an error) within a second and
/// under 10× its size plus the limits the README documents.
enum HostileWorkloads {
    /// One hostile body.
    struct Case: Sendable {
        /// The row's suffix: `memory.hostile.<name>`.
        var name: String
        /// The `Content-Type` it is sent with.
        var contentType: String
        /// What the body is, for `--list`.
        var summary: String
        /// Foundation's decoder of the same format, or `nil` when Foundation has none.
        var foundationName: String?
        /// Builds the body.
        var make: @Sendable () -> Data
    }

    /// The size the bodies are built to.
    static let size = 1 << 20

    /// The bodies, one or two per format.
    static let cases: [Case] = [
        Case(
            name: "json", contentType: "application/json", summary: "[0,0,0,...]: one value per two bytes",
            foundationName: "JSONSerialization"
        ) {
            var bytes = [UInt8]("[0".utf8)
            while bytes.count < size - 1 { bytes += Array(",0".utf8) }
            return Data(bytes + [UInt8(ascii: "]")])
        },
        Case(
            name: "text", contentType: "text/plain; charset=utf-8",
            summary: "0xFF bytes as UTF-8 text: one replacement character (3 bytes) per byte",
            foundationName: "String(decoding:as:)"
        ) { Data(repeating: 0xFF, count: size) },
        Case(
            name: "xml", contentType: "application/xml", summary: "<r><a/><a/>...</r>: one element per four bytes",
            foundationName: "XMLDocument"
        ) { flood(open: "<r>", unit: "<a/>", close: "</r>") },
        Case(
            name: "xml.mixed", contentType: "application/xml",
            summary: "<r><a/>x<a/>x...</r>: an element and a text node per five bytes", foundationName: "XMLDocument"
        ) { flood(open: "<r>", unit: "<a/>x", close: "</r>") },
        Case(
            name: "xml.attributes", contentType: "application/xml",
            summary: "<r><a b='1' c='2'/>...</r>: an element and two attributes per 18 bytes",
            foundationName: "XMLDocument"
        ) { flood(open: "<r>", unit: "<a b='1' c='2'/>", close: "</r>") },
        Case(
            name: "plist.binary", contentType: "application/x-bplist",
            summary: "a binary plist array of 999,000 one-byte references to one string (maxObjects is 1,000,000)",
            foundationName: "PropertyListSerialization"
        ) { sharedReferenceBinaryPlist() },
        Case(
            name: "plist.xml", contentType: "application/x-plist",
            summary: "<plist><array><true/><true/>...: one value per seven bytes",
            foundationName: "PropertyListSerialization"
        ) {
            flood(
                open: "<?xml version=\"1.0\"?><plist version=\"1.0\"><array>", unit: "<true/>",
                close: "</array></plist>")
        },
        // Images: within the default limits a 1 MiB body may decode to `maxPixels` (10⁸ pixels, 400 MB of RGBA8); a
        // smaller one to `maxPixelsPerByte` (1,024) pixels per byte, at least 4096×4096. These are at the ceiling.
        Case(
            name: "png", contentType: "image/png",
            summary: "a 10000×10000 1-bit PNG of zeros, padded to 1 MiB with an ancillary chunk (at maxPixels)",
            foundationName: nil
        ) { zeroPNG() },
        Case(
            name: "gif", contentType: "image/gif",
            summary: "a 10000×10000 GIF screen with one 1×1 frame, padded to 1 MiB with a comment (at maxPixels)",
            foundationName: nil
        ) { screenGIF() },
        Case(
            name: "bmp", contentType: "image/bmp",
            summary: "a 10000×10000 RLE8 BMP ending at once, padded to 1 MiB (at maxPixels)", foundationName: nil
        ) { emptyRLEBMP() },
    ]

    /// `memory.hostile.<name>` for every case.
    static var all: [Workload] {
        cases.map { hostile in
            Workload(
                name: "memory.hostile.\(hostile.name)", unit: .multipleOfInput, baselineName: hostile.foundationName,
                summary: "peak RSS growth over the body for \(hostile.summary), through the standard registry"
            ) { settings in try measure(hostile, settings) }
        }
    }

    /// `open` + as many `unit`s as fit in ``size`` + `close`.
    private static func flood(open: String, unit: String, close: String) -> Data {
        let count = (size - open.utf8.count - close.utf8.count) / unit.utf8.count
        return Data((open + String(repeating: unit, count: count) + close).utf8)
    }

    /// `bplist00`, an array of 999,000 one-byte references all naming object 1 (the string "x"), the offset table
    /// and the trailer: every byte of the body is a value of the result, just under the default `maxObjects`.
    private static func sharedReferenceBinaryPlist() -> Data {
        let count = 999_000
        var bytes = [UInt8]("bplist00".utf8)
        let arrayOffset = bytes.count
        bytes += [0xAF, 0x12] + withUnsafeBytes(of: UInt32(count).bigEndian, Array.init)
        bytes += [UInt8](repeating: 1, count: count)
        let stringOffset = bytes.count
        bytes += [0x51, UInt8(ascii: "x")]
        let tableOffset = bytes.count
        bytes += withUnsafeBytes(of: UInt32(arrayOffset).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt32(stringOffset).bigEndian, Array.init)
        // Trailer: 5 unused bytes, sort version, offset size 4, reference size 1, 2 objects, top 0, table offset.
        bytes += [0, 0, 0, 0, 0, 0, 4, 1]
        bytes += withUnsafeBytes(of: UInt64(2).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(0).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(tableOffset).bigEndian, Array.init)
        return Data(bytes)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
    private static func littleEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }

    /// A PNG chunk with its CRC.
    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(Checksum.crc32(typed))
    }

    /// A zlib stream of `count` zero bytes in one fixed-Huffman block (RFC 1951 §3.2.6): a literal 0, then matches
    /// of 258 at distance 1 (13 bits each), the rest as literals.
    private static func zeroZlib(count: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var buffer: UInt64 = 0
        var bits = 0
        func put(_ value: UInt64, _ width: Int) {
            buffer |= value << UInt64(bits)
            bits += width
            while bits >= 8 {
                out.append(UInt8(truncatingIfNeeded: buffer))
                buffer >>= 8
                bits -= 8
            }
        }
        /// A Huffman code, most significant bit first.
        func code(_ value: UInt64, _ width: Int) {
            var reversed: UInt64 = 0
            for bit in 0..<width { reversed |= (value >> UInt64(bit) & 1) << UInt64(width - 1 - bit) }
            put(reversed, width)
        }
        put(0b011, 3)  // final block, fixed Huffman
        code(0x30, 8)  // literal 0
        var left = count - 1
        while left >= 258 {
            code(0b1100_0101, 8)  // length code 285: 258
            code(0, 5)  // distance code 0: 1
            left -= 258
        }
        for _ in 0..<left { code(0x30, 8) }
        code(0, 7)  // end of block
        if bits > 0 { put(0, 8 - bits) }
        // Adler-32 of zeros: the byte sum stays 1, the sum of sums is `count` (RFC 1950 §8.2).
        return out + bigEndian(UInt32(count % 65521) << 16 | 1)
    }

    /// Pads `bytes` to ``size`` with `filler(remaining)` inserted before the final `trailer` bytes.
    private static func padded(_ bytes: [UInt8], trailer: Int, _ filler: (Int) -> [UInt8]) -> Data {
        let head = bytes.dropLast(trailer)
        return Data(head + filler(size - bytes.count) + bytes.suffix(trailer))
    }

    private static func zeroPNG() -> Data {
        let (width, height) = (10_000, 10_000)
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [1, 0, 0, 0, 0]
        let png =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", zeroZlib(count: height * (1 + width / 8))) + chunk("IEND", [])
        // An ancillary private chunk (`deCa`, lower-case first letter) before IEND fills the rest.
        return padded(png, trailer: 12) { room in chunk("deCa", [UInt8](repeating: 0, count: room - 12)) }
    }

    private static func screenGIF() -> Data {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        let gif =
            Array("GIF89a".utf8) + le16(10_000) + le16(10_000) + [0x80, 0, 0, 0, 0, 0, 255, 255, 255]
            + [0x2C] + le16(0) + le16(0) + le16(1) + le16(1) + [0] + [2, 2, 0x44, 0x01, 0] + [0x3B]
        // A comment extension (0x21 0xFE) of 255-byte sub-blocks before the trailer fills the rest.
        return padded(gif, trailer: 1) { room in
            var comment: [UInt8] = [0x21, 0xFE]
            while room - comment.count > 257 { comment += [255] + [UInt8](repeating: 0x20, count: 255) }
            return comment + [0]
        }
    }

    private static func emptyRLEBMP() -> Data {
        let (width, height) = (10_000, 10_000)
        var info = littleEndian(40) + littleEndian(UInt32(width)) + littleEndian(UInt32(height))
        info += [1, 0, 8, 0] + littleEndian(1) + [UInt8](repeating: 0, count: 20)
        let palette = [UInt8](repeating: 0, count: 1024)
        let pixels: [UInt8] = [0, 1]  // end of bitmap
        let offset = 14 + info.count + palette.count
        let bmp =
            [0x42, 0x4D] + littleEndian(UInt32(size)) + [0, 0, 0, 0] + littleEndian(UInt32(offset)) + info
            + palette + pixels
        return padded(bmp, trailer: 0) { room in [UInt8](repeating: 0, count: room) }
    }

    private static func measure(_ hostile: Case, _ settings: RunSettings) throws -> Prepared {
        let data = hostile.make()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "decant-hostile-\(hostile.name)-\(ProcessInfo.processInfo.processIdentifier)"
        ).path
        try data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let repetitions = settings.quick ? 1 : 3
        var decant: [MemoryWorkloads.Probe] = []
        var foundation: [MemoryWorkloads.Probe] = []
        for _ in 0..<repetitions {
            decant.append(try MemoryWorkloads.probe(side: "hostile-decant-\(hostile.name)", path: path))
            if hostile.foundationName != nil {
                foundation.append(try MemoryWorkloads.probe(side: "hostile-foundation-\(hostile.name)", path: path))
            }
        }
        let size = Double(data.count)
        let decantGrowth = decant.map { Double($0.growth) / size }
        let foundationGrowth = foundation.map { Double($0.growth) / size }
        let milliseconds = Statistics.median(decant.map(\.seconds)) * 1000
        let outcome = decant.last?.outcome ?? "?"
        var note =
            "memory.hostile.\(hostile.name): \(Int(size)) bytes; Decant \(outcome) in "
            + String(format: "%.0f ms", milliseconds)
        if !foundation.isEmpty {
            note +=
                String(
                    format: ", %@ in %.0f ms", hostile.foundationName ?? "",
                    Statistics.median(foundation.map(\.seconds)) * 1000)
        }
        return .direct(
            DirectResult(
                decant: Statistics.median(decantGrowth),
                baseline: foundation.isEmpty ? nil : Statistics.median(foundationGrowth),
                baselineName: hostile.foundationName, rounds: repetitions,
                spread: MemoryWorkloads.spread(decantGrowth), baselineSpread: MemoryWorkloads.spread(foundationGrowth),
                note: note))
    }

    /// The child's side of `hostile-<decant|foundation>-<name>`: decodes `data` once and keeps the result alive
    /// while the peak is read. Returns what came out ("a value" or "an error: <code>") or `nil` for an unknown side.
    static func decode(side: String, data: Data) -> (keepAlive: Any, outcome: String)? {
        for hostile in cases {
            if side == "hostile-decant-\(hostile.name)" {
                var headers = HTTPHeaderFields()
                headers.append(name: "Content-Type", value: hostile.contentType)
                let response = Response(status: 200, headers: headers, body: data)
                do {
                    let value = try SerializerRegistry.standard.serialize(response)
                    return (value, "decoded a value with \(value.serializerID)")
                } catch {
                    return (error, "stopped with \(error.code.rawValue)")
                }
            }
            if side == "hostile-foundation-\(hostile.name)" {
                return foundationDecode(hostile.name, data)
            }
        }
        return nil
    }

    private static func foundationDecode(_ name: String, _ data: Data) -> (keepAlive: Any, outcome: String) {
        do {
            switch name {
            case "json":
                return (try JSONSerialization.jsonObject(with: data), "decoded a value")
            case "text":
                return (String(decoding: data, as: UTF8.self), "decoded a value")
            case "plist.binary", "plist.xml":
                return (try PropertyListSerialization.propertyList(from: data, format: nil), "decoded a value")
            default:
                #if canImport(FoundationXML) || os(macOS)
                    return (try XMLDocument(data: data, options: [.nodeLoadExternalEntitiesNever]), "decoded a value")
                #else
                    return ((), "not available")
                #endif
            }
        } catch {
            return (error, "stopped with an error")
        }
    }
}
