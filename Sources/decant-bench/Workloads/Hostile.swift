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
