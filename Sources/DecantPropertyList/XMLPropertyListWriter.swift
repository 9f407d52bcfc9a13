import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes XML property lists as ``PropertyListWriter`` describes: `plistlib`'s layout, iteratively.
struct XMLPropertyListWriter {
    private var output: [UInt8] = []
    private let options: PropertyListWritingOptions

    private static let header = Array(
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
            + "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n").utf8)
    private static let footer = Array("</plist>\n".utf8)

    /// What is left to write: a value or a key at an indentation level, or the end tag of a container.
    private enum Step {
        case value(PropertyListValue, level: Int)
        case key(String, level: Int)
        case endArray(level: Int)
        case endDictionary(level: Int)
    }

    private init(options: PropertyListWritingOptions) {
        self.options = options
    }

    /// The XML property list of `value`. With `allowingFallback`, a UID throws ``PropertyListWriting/holdsUID``
    /// rather than `encodingFailed`.
    static func write(
        _ value: PropertyListValue, options: PropertyListWritingOptions, allowingFallback: Bool
    ) throws(SerializationError) -> [UInt8] {
        var writer = XMLPropertyListWriter(options: options)
        writer.output.reserveCapacity(4096)
        writer.output += header
        do throws(Failure) {
            try writer.write(value)
        } catch {
            throw error.serializationError(in: value, options: options, allowingFallback: allowingFallback)
        }
        writer.output += footer
        return writer.output
    }

    private mutating func write(_ root: PropertyListValue) throws(Failure) {
        var steps: [Step] = [.value(root, level: 0)]
        while let step = steps.popLast() {
            switch step {
            case .key(let key, let level):
                indent(level)
                append("<key>")
                try escape(key)
                append("</key>\n")
            case .endArray(let level):
                indent(level)
                append("</array>\n")
            case .endDictionary(let level):
                indent(level)
                append("</dict>\n")
            case .value(let value, let level):
                indent(level)
                switch value {
                case .dictionary(let dictionary):
                    guard level < options.maxDepth else { throw .tooDeep }
                    if dictionary.isEmpty {
                        append("<dict/>\n")
                        continue
                    }
                    append("<dict>\n")
                    steps.append(.endDictionary(level: level))
                    if options.sortedKeys {
                        for index in PropertyListWriting.order(dictionary, sorted: true).reversed() {
                            steps.append(.value(dictionary.values[index], level: level + 1))
                            steps.append(.key(dictionary.keys[index], level: level + 1))
                        }
                    } else {
                        for index in dictionary.indices.reversed() {
                            steps.append(.value(dictionary.values[index], level: level + 1))
                            steps.append(.key(dictionary.keys[index], level: level + 1))
                        }
                    }
                case .array(let array):
                    guard level < options.maxDepth else { throw .tooDeep }
                    if array.isEmpty {
                        append("<array/>\n")
                        continue
                    }
                    append("<array>\n")
                    steps.append(.endArray(level: level))
                    for element in array.reversed() { steps.append(.value(element, level: level + 1)) }
                case .string(let string):
                    append("<string>")
                    try escape(string)
                    append("</string>\n")
                case .integer(let integer):
                    append("<integer>")
                    if let small = integer.int64Value {
                        appendDecimal(small)
                    } else {
                        append(integer.description)
                    }
                    append("</integer>\n")
                case .real(let real):
                    append("<real>")
                    append(PropertyListValue.realText(real))
                    append("</real>\n")
                case .bool(let bool):
                    append(bool ? "<true/>\n" : "<false/>\n")
                case .date(let date):
                    append("<date>")
                    try appendDate(date)
                    append("</date>\n")
                case .data(let data):
                    append("<data>\n")
                    appendBase64(data, level: level)
                    indent(level)
                    append("</data>\n")
                case .uid:
                    throw .uid
                }
            }
        }
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    private mutating func append(_ text: String) {
        output.append(contentsOf: text.utf8)
    }

    private mutating func indent(_ level: Int) {
        for _ in 0..<level { output.append(UInt8(ascii: "\t")) }
    }

    private mutating func appendDecimal(_ value: Int64) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits, written backwards
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[24 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: buffer[(24 - count)...])
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the seconds rounded down.
    private mutating func appendDate(_ date: Date) throws(Failure) {
        let seconds = date.timeIntervalSince1970
        guard PropertyListDates.isRepresentable(seconds) else { throw .date }
        let whole = Int(seconds.rounded(.down))
        let (quotient, remainder) = whole.quotientAndRemainder(dividingBy: 86_400)
        let days = remainder < 0 ? quotient - 1 : quotient
        let second = remainder < 0 ? remainder + 86_400 : remainder
        let (year, month, day) = PropertyListDates.civil(days: days)
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                output.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, 4)
        output.append(UInt8(ascii: "-"))
        digits(month, 2)
        output.append(UInt8(ascii: "-"))
        digits(day, 2)
        output.append(UInt8(ascii: "T"))
        digits(second / 3600, 2)
        output.append(UInt8(ascii: ":"))
        digits(second / 60 % 60, 2)
        output.append(UInt8(ascii: ":"))
        digits(second % 60, 2)
        output.append(UInt8(ascii: "Z"))
    }

    /// Base64 lines as `plistlib` writes them: at most `max(16, 76 - 8 × level)` characters, each at `level`.
    private mutating func appendBase64(_ data: Data, level: Int) {
        let lineLength = max(16, 76 - 8 * level)
        let chunk = lineLength / 4 * 3
        data.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                let end = min(start + chunk, bytes.count)
                indent(level)
                PropertyListBase64.encode(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), into: &output)
                output.append(UInt8(ascii: "\n"))
                start = end
            }
        }
    }

    /// `text` escaped: `&`, `<`, `>` as entities, a carriage return as `&#13;`; a character XML 1.0 cannot carry
    /// throws.
    private mutating func escape(_ text: String) throws(Failure) {
        var text = text
        var escaped = text.utf8.withContiguousStorageIfAvailable { escape($0) }
        if escaped == nil {
            text.makeContiguousUTF8()
            escaped = text.utf8.withContiguousStorageIfAvailable { escape($0) }
        }
        guard escaped == true else { throw .character }
    }

    /// Appends `bytes` escaped; `false` (having appended part of them) at a character XML cannot carry.
    private mutating func escape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let replacement: StaticString
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\r"): replacement = "&#13;"
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"):
                index += 1
                continue
            case 0..<0x20:
                return false
            case 0xEF:
                // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                if index + 2 < bytes.count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE { return false }
                index += 1
                continue
            default:
                index += 1
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            replacement.withUTF8Buffer { output.append(contentsOf: $0) }
            index += 1
            start = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        return true
    }

    /// Why writing stopped; turned into a `SerializationError` with the path found afterwards.
    private enum Failure: Error {
        case tooDeep
        case character
        case date
        case uid

        func serializationError(
            in root: PropertyListValue, options: PropertyListWritingOptions, allowingFallback: Bool
        ) -> SerializationError {
            switch self {
            case .tooDeep:
                return PropertyListWriting.tooDeep(options.maxDepth, in: root)
            case .character:
                let path = PropertyListWriting.path(in: root) { element in
                    switch element {
                    case .key(let key): return !XMLPropertyListWriter.isXMLText(key)
                    case .value(.string(let string), _): return !XMLPropertyListWriter.isXMLText(string)
                    default: return false
                    }
                }
                return SerializationError(
                    code: .encodingFailed,
                    message: "A string holds a character XML 1.0 cannot carry (a control character other than tab, "
                        + "line feed and carriage return, or U+FFFE or U+FFFF), so it cannot be written in an XML "
                        + "property list. Remove it, store the bytes as data, or write a binary property list.",
                    serializerID: "propertyList", codingPath: path)
            case .date:
                let path = PropertyListWriting.path(in: root) { element in
                    guard case .value(.date(let date), _) = element else { return false }
                    return !PropertyListDates.isRepresentable(date.timeIntervalSince1970)
                }
                return SerializationError(
                    code: .encodingFailed,
                    message: "A date lies outside the years 1 to 9999, which XML property list dates cannot express. "
                        + "Write a binary property list, or store the date as a number.",
                    serializerID: "propertyList", codingPath: path)
            case .uid:
                let path = PropertyListWriting.path(in: root) { element in
                    if case .value(.uid, _) = element { return true }
                    return false
                }
                return SerializationError(
                    code: allowingFallback ? PropertyListWriting.holdsUID : .encodingFailed,
                    message: "The value holds a UID (a keyed-archiver reference), which only binary property lists "
                        + "can carry. Write it as application/x-bplist, or with the format 'binary' or 'auto'.",
                    serializerID: "propertyList", codingPath: path)
            }
        }
    }

    /// Whether every character of `text` is one XML 1.0 can carry.
    static func isXMLText(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            scalar.value >= 0x20
                ? scalar.value != 0xFFFE && scalar.value != 0xFFFF : "\t\n\r".unicodeScalars.contains(scalar)
        }
    }
}
