import DecantCore
import Foundation

@testable import DecantPropertyList

/// Helpers shared by the property list tests.
enum PlistTestSupport {
    /// Parses `data` with the given options.
    static func parse(
        _ data: Data, options: PropertyListParsingOptions = PropertyListParsingOptions()
    ) throws
        -> PropertyListValue
    {
        try PropertyListParser(options: options).parse(data)
    }

    /// A comparable rendering of typed canonical JSON: keys sorted, dates without a trailing `Z` (the libplist
    /// expectations write naive datetimes, the CPython ones UTC with `Z`).
    static func render(_ object: Any, key: String? = nil) -> String {
        switch object {
        case let dictionary as [String: Any]:
            let parts = dictionary.keys.sorted().map { name in
                "\(name)=>" + render(dictionary[name]!, key: name)
            }
            return "{" + parts.joined(separator: ",") + "}"
        case let array as [Any]:
            return "[" + array.map { render($0) }.joined(separator: ",") + "]"
        case let string as String:
            if key == "date", string.hasSuffix("Z") { return "'" + string.dropLast() + "'" }
            return "'" + string + "'"
        default:
            if key == "bool", let bool = object as? Bool { return bool ? "true" : "false" }
            return "\(object)"
        }
    }

    /// The rendering of a JSON text.
    static func render(jsonText: Data) throws -> String {
        render(try JSONSerialization.jsonObject(with: jsonText, options: [.fragmentsAllowed]))
    }

    /// The rendering of a value's canonical JSON.
    static func render(_ value: PropertyListValue) throws -> String {
        try render(jsonText: Data(value.canonicalJSONText().utf8))
    }

    /// A binary property list of `objects` (raw encoded objects), with 1-byte references (fewer than 256 objects).
    static func binaryPlist(_ objects: [[UInt8]], top: Int = 0) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableOffset = bytes.count
        let offsetSize = tableOffset > 0xFFFF ? 4 : (tableOffset > 0xFF ? 2 : 1)
        for offset in offsets {
            for shift in stride(from: (offsetSize - 1) * 8, through: 0, by: -8) {
                bytes.append(UInt8(offset >> shift & 0xFF))
            }
        }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), 1]
        for value in [objects.count, top, tableOffset] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(value >> shift & 0xFF)) }
        }
        return Data(bytes)
    }
}
