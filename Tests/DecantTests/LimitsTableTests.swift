import Decant
import Foundation
import Testing

/// Every row of the README's limits table has a case here that exceeds that limit (lowered where the default would
/// need a large input) and gets the error code the table names, with a message naming the option to raise; and every
/// case here has a row. The table and the code cannot drift apart.
@Suite struct LimitsTableTests {
    /// One row: the limit's name as the table writes it (in backticks, first cell) and its error code (last cell).
    struct Row: Sendable, Hashable, CustomTestStringConvertible {
        let name: String
        let code: String
        var testDescription: String { name }
    }

    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    /// The rows of the table under `## Limits` in README.md.
    static let rows: [Row] = {
        guard let readme = try? String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8),
            let start = readme.range(of: "\n## Limits\n")
        else { return [] }
        let section = readme[start.upperBound...].prefix { _ in true }
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        return section[..<end].split(separator: "\n").compactMap { line -> Row? in
            guard line.hasPrefix("| `") else { return nil }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = cells.first, let last = cells.last,
                let name = first.split(separator: "`").first.map(String.init),
                let code = last.split(separator: "`").first.map(String.init)
            else { return nil }
            return Row(name: name, code: code)
        }
    }()

    /// Limits of the `decant` tool, exceeded in `DecantToolTests` (they need the built executable) and, for `get`,
    /// in `GetCommandTests` (a loopback server sends a body over the limit).
    static let toolRows: Set<String> = [
        "decant decode", "decant get", "decant archive", "decant sniff", "decant media-type",
    ]

    @Test func theTableListsEveryCaseAndNothingElse() {
        let names = Set(Self.rows.map(\.name))
        #expect(!names.isEmpty, "README.md has no limits table")
        #expect(names.subtracting(Self.toolRows) == Set(Self.cases.keys))
        #expect(names.isSuperset(of: Self.toolRows))
    }

    @Test(arguments: rows.filter { !toolRows.contains($0.name) })
    func eachLimitIsHitWithTheTablesCode(_ row: Row) throws {
        let trigger = try #require(Self.cases[row.name], "no case exceeds \(row.name)")
        let error = try #require(trigger(), "\(row.name) was not exceeded")
        #expect(error.code.rawValue == row.code, "\(row.name): \(error.message)")
        let option = row.name.split(separator: ".").last.map(String.init) ?? row.name
        #expect(error.message.contains(option), "\(row.name): the message should name the option: \(error.message)")
    }

    // MARK: - The cases

    /// The error of `body`, or `nil` when it succeeded.
    static func failure(_ body: () throws -> Void) -> SerializationError? {
        do {
            try body()
            return nil
        } catch let error as SerializationError {
            return error
        } catch {
            return SerializationError(code: .init("unexpected"), message: "\(error)")
        }
    }

    /// A 512×512 progressive greyscale JPEG: a DC scan, then 399 empty first AC scans of the whole band.
    static let scanJPEG: [UInt8] = {
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 255)] + payload
        }
        var bytes: [UInt8] = [0xFF, 0xD8] + segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        bytes += segment(0xC2, [8, 2, 0, 2, 0, 1, 1, 0x11, 0])
        bytes += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
        bytes += segment(0xC4, [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0xE0])
        bytes += segment(0xDA, [1, 1, 0, 0, 0, 1]) + [UInt8](repeating: 0, count: 512)
        for _ in 0..<399 { bytes += segment(0xDA, [1, 1, 0, 1, 63, 0]) + [0x7F, 0xFF, 0x00] }
        return bytes + [0xFF, 0xD9]
    }()

    static func xml(_ text: String, _ configure: (inout XMLParsingOptions) -> Void) -> SerializationError? {
        var options = XMLParsingOptions()
        configure(&options)
        return failure { try XMLStreamParser(data: Data(text.utf8), options: options).forEachEvent { _, _ in } }
    }

    static func plist(_ data: Data, _ configure: (inout PropertyListParsingOptions) -> Void) -> SerializationError? {
        var options = PropertyListParsingOptions()
        configure(&options)
        return failure { _ = try PropertyListParser(options: options).parse(data) }
    }

    static func hex(_ text: String) -> Data {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return Data(bytes)
    }

    /// `python3 -c 'import gzip; print(gzip.compress(b"a" * 1000, mtime=0).hex())'`.
    static let gzipOf1000As = hex("1f8b08000000000002034b4c1c05a360140c77000003da389ae8030000")

    static func gzipResponse() -> Response {
        Response(
            status: 200, headers: ["Content-Type": "text/plain", "Content-Encoding": "gzip"], body: gzipOf1000As)
    }

    static func image(_ bytes: [UInt8], _ configure: (inout ImageLimits) -> Void) -> SerializationError? {
        var options = ImageDecodingOptions()
        configure(&options.limits)
        var headers = HTTPHeaderFields()
        headers.append(name: "Content-Type", value: "image/gif")
        return failure {
            _ = try ImageResponseSerializer(options: options).serialize(
                Response(status: 200, headers: headers, body: Data(bytes)))
        }
    }

    /// A GIF89a file of `frames` 1×1 frames on a `width` by `height` screen (the LZW data: clear, index 0, end).
    static func gif(width: Int, height: Int, frames: Int = 1) -> [UInt8] {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        let screen = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        let frame = [0x2C] + le16(0) + le16(0) + le16(1) + le16(1) + [0] + [2, 2, 0x44, 0x01, 0]
        return screen + Array([[UInt8]](repeating: frame, count: frames).joined()) + [0x3B]
    }

    static let cases: [String: @Sendable () -> SerializationError?] = [
        "ImageLimits.maxPixels": { image(gif(width: 4, height: 4)) { $0.maxPixels = 15 } },
        "ImageLimits.maxFrames": { image(gif(width: 1, height: 1, frames: 3)) { $0.maxFrames = 2 } },
        "ImageLimits.maxTotalBytes": { image(gif(width: 4, height: 4)) { $0.maxTotalBytes = 63 } },
        // About 5.9 KB whose scans take 119 million units of work: past the floor of 67,108,864.
        "ImageLimits.maxScanWorkPerByte": { image(scanJPEG) { _ in } },
        // A 4×4 GIF keeps 64 bytes of RGBA: over a budget of 63, which caps maxTotalBytes.
        "DecodingBudget.maxBytes": {
            DecodingBudget.withBudget(DecodingBudget(maxBytes: 63)) { image(gif(width: 4, height: 4)) { _ in } }
        },
        "DecodingBudget.maxExpansionBytes": {
            DecodingBudget.withBudget(DecodingBudget(maxExpansionBytes: 10)) {
                xml("<!DOCTYPE a [<!ENTITY e '0123456789abc'>]><a>&e;</a>") { _ in }
            }
        },
        // A 10000×10000 screen from 35 bytes: 100 million pixels, over the 16,777,216 the ratio always allows.
        "ImageLimits.maxPixelsPerByte": { image(gif(width: 10_000, height: 10_000)) { _ in } },
        "BodySizeLimit.maxBytes": {
            failure {
                var chain = ResponseChain(DataResponseSerializer())
                chain.preprocessors = [BodySizeLimit(maxBytes: 4)]
                _ = try chain.serialize(Response(status: 200, headers: [:], body: Data("12345".utf8)))
            }
        },
        "RawMessageLimits.maxHeaderBytes": {
            failure {
                _ = try Response(
                    raw: Data("HTTP/1.1 200 OK\r\nX-Long: \(String(repeating: "a", count: 100))\r\n\r\n".utf8),
                    limits: .init(maxHeaderBytes: 32))
            }
        },
        "RawMessageLimits.maxHeaderFields": {
            failure {
                _ = try Response(
                    raw: Data("HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n".utf8), limits: .init(maxHeaderFields: 2)
                )
            }
        },
        "RawMessageLimits.maxBodyBytes": {
            failure {
                _ = try Response(raw: Data("HTTP/1.1 200 OK\r\n\r\n12345".utf8), limits: .init(maxBodyBytes: 4))
            }
        },
        "ContentDecoding.maxDecodedBytes": {
            failure { _ = try ContentDecoding(maxDecodedBytes: 999).process(gzipResponse()) }
        },
        "ContentDecoding.maxExpansionRatio": {
            failure { _ = try ContentDecoding(maxExpansionRatio: 10).process(gzipResponse()) }
        },
        "JSONParsingOptions.maxDepth": {
            failure { _ = try JSONParser(options: JSONParsingOptions(maxDepth: 2)).parse(Data("[[[1]]]".utf8)) }
        },
        "JSONValueEncoder.maxDepth": {
            failure { _ = try JSONValueEncoder(maxDepth: 2).encode([[[1]]]) }
        },
        "JSONParsingOptions.maxBytes": {
            failure { _ = try JSONParser(options: JSONParsingOptions(maxBytes: 4)).parse(Data("[1,2,3]".utf8)) }
        },
        "PropertyListParsingOptions.maxDepth": {
            plist(Data("<plist><array><array><array/></array></array></plist>".utf8)) { $0.maxDepth = 2 }
        },
        "PropertyListWritingOptions.maxDepth": {
            failure {
                let nested: PropertyListValue = .array([.array([.array([])])])
                _ = try PropertyListWriter(options: PropertyListWritingOptions(maxDepth: 2)).write(nested)
            }
        },
        "PropertyListValueEncoder.maxDepth": {
            failure { _ = try PropertyListValueEncoder(maxDepth: 2).encode([[[1]]]) }
        },
        "PropertyListParsingOptions.maxObjects": {
            plist(Data("<plist><array><integer>1</integer><integer>2</integer></array></plist>".utf8)) {
                $0.maxObjects = 2
            }
        },
        // `python3 -c 'import plistlib; print(plistlib.dumps("abcdefghij", fmt=plistlib.FMT_BINARY).hex())'`.
        "PropertyListParsingOptions.maxValueBytes": {
            plist(
                hex(
                    "62706c69737430305a6162636465666768696a080000000000000101"
                        + "000000000000000100000000000000000000000000000013")
            ) { $0.maxValueBytes = 4 }
        },
        "XMLParsingOptions.maxDepth": { xml("<a><b><c/></b></a>") { $0.maxDepth = 2 } },
        "XMLParsingOptions.maxAttributesPerElement": {
            xml("<a x='1' y='2'/>") { $0.maxAttributesPerElement = 1 }
        },
        "XMLParsingOptions.maxNameLength": { xml("<abcd/>") { $0.maxNameLength = 3 } },
        "XMLParsingOptions.maxAttributeValueLength": { xml("<a x='abcd'/>") { $0.maxAttributeValueLength = 3 } },
        "XMLParsingOptions.maxTextLength": { xml("<a>abcd</a>") { $0.maxTextLength = 3 } },
        "XMLParsingOptions.maxEntityExpansionBytes": {
            xml("<!DOCTYPE a [<!ENTITY e '0123456789abc'>]><a>&e;</a>") { $0.maxEntityExpansionBytes = 10 }
        },
        "XMLParsingOptions.maxEntityExpansionRatio": {
            // 2 MB of expansion from a body of about 1 KB: over the 1 MiB floor, under the 10 MB byte limit.
            let kilobyte = String(repeating: "x", count: 1000)
            let dtd =
                "<!ENTITY e0 '\(kilobyte)'><!ENTITY e1 '\(String(repeating: "&e0;", count: 10))'>"
                + "<!ENTITY e2 '\(String(repeating: "&e1;", count: 10))'>"
                + "<!ENTITY e3 '\(String(repeating: "&e2;", count: 10))'>"
            return xml("<!DOCTYPE a [\(dtd)]><a>&e3;&e3;</a>") { $0.maxEntityExpansionRatio = 1 }
        },
        "XMLParsingOptions.maxEntityNestingDepth": {
            xml("<!DOCTYPE a [<!ENTITY e1 'x'><!ENTITY e2 '&e1;'><!ENTITY e3 '&e2;'>]><a>&e3;</a>") {
                $0.maxEntityNestingDepth = 2
            }
        },
        "XMLParsingOptions.maxNodeCount": { xml("<a><b/><c/><d/></a>") { $0.maxNodeCount = 3 } },
        "XMLParsingOptions.maxNodesPerByte": {
            // 21 nodes per 4-byte element (20 defaulted attributes): over one node per byte and the 100,000 floor.
            let attributes = (1...20).map { "x\($0) CDATA '1'" }.joined(separator: " ")
            let elements = String(repeating: "<a/>", count: 10_000)
            return xml("<!DOCTYPE r [<!ATTLIST a \(attributes)>]><r>\(elements)</r>") { _ in }
        },
        "XMLParsingOptions.maxOutputBytes": { xml("<a>0123456789ab</a>") { $0.maxOutputBytes = 10 } },
        "XMLParsingOptions.maxOutputRatio": {
            // A 1,000-byte literal default on 5,000 elements: 5 MB from about 21 KB, over the 4 MiB floor.
            let value = String(repeating: "v", count: 1000)
            let elements = String(repeating: "<a/>", count: 5000)
            return xml("<!DOCTYPE r [<!ATTLIST a x CDATA '\(value)'>]><r>\(elements)</r>") { _ in }
        },
    ]
}
