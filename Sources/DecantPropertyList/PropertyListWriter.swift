public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Writes a ``PropertyListValue`` as an XML or binary property list: the inverse of ``PropertyListParser``.
///
/// Both layouts are the ones Python's `plistlib` writes (`plistlib.dumps(value, fmt=..., sort_keys=False)`, or with
/// ``PropertyListWritingOptions/sortedKeys`` its default `sort_keys=True`), byte for byte except where noted below.
///
/// XML (`FMT_XML`): the XML declaration, the Apple DOCTYPE and `<plist version="1.0">`, one element per line indented
/// by tabs, `<dict/>` and `<array/>` for empty containers; `&`, `<` and `>` escaped; integers in decimal, reals as the
/// shortest text that reads back as the same `Double` (`0.5`, `1e+16`, `inf`, `nan`), dates as
/// `YYYY-MM-DDTHH:MM:SSZ` in UTC, data as Base64 lines of at most 76 characters less the indentation (tabs counted
/// as 8, never fewer than 16) at the indentation of `<data>`.
/// - A date is written in whole seconds, rounded down (XML property lists, `plistlib` and Apple's writers carry no
///   fraction); a date outside the years 1 to 9999 cannot be written (`encodingFailed`).
/// - A carriage return is written as `&#13;`, so that it reads back as itself (`plistlib` turns it into a line feed).
/// - A character XML 1.0 cannot carry (U+0000 to U+001F other than tab, line feed and carriage return; U+FFFE;
///   U+FFFF), in a string or a key, is an `encodingFailed` error, as in `plistlib`.
/// - A UID cannot be written in XML (`encodingFailed`); with ``PropertyListWritingOptions/Format/auto`` such a value
///   is written as a binary property list instead.
/// - Integers of the whole 128-bit range are written (`plistlib` stops at 64 bits).
///
/// Binary (`FMT_BINARY`): `bplist00`, the objects in the order `plistlib` numbers them (depth first, a dictionary's
/// keys before its values), then the offset table with the smallest offset size for its position, and the 32-byte
/// trailer; object references take the smallest size for the number of objects. Strings, integers, reals, Booleans,
/// dates and data that are equal are written once and shared (strings compare by their Unicode scalars, reals and
/// dates by their bits); arrays, dictionaries and UIDs never are. Integers take 1, 2, 4 or 8 bytes (negative ones 8),
/// and those outside the 64-bit signed range the 16-byte form; reals are 8-byte doubles; strings are ASCII or
/// UTF-16BE.
/// - `plistlib` shares `0.0` and `-0.0` as one object (and writes whichever came first); Decant keeps both.
///
/// Writing is iterative, so no value can exhaust the stack; a value nested deeper than
/// ``PropertyListWritingOptions/maxDepth`` fails with `limitExceeded`. Errors carry the path of the value at fault
/// (`codingPath`, such as `["items", "2", "name"]`).
public struct PropertyListWriter: Sendable {
    /// The format, key order and depth limit.
    public var options: PropertyListWritingOptions

    /// A writer with `options`.
    public init(options: PropertyListWritingOptions = PropertyListWritingOptions()) {
        self.options = options
    }

    /// The bytes of `value` as a property list in ``PropertyListWritingOptions/format``.
    ///
    /// - Throws: `SerializationError` with code `encodingFailed` (a character XML cannot carry, a date outside the
    ///   years 1 to 9999 or a UID in XML) or `limitExceeded` (nesting deeper than
    ///   ``PropertyListWritingOptions/maxDepth``), with the value's path as `codingPath`.
    public func write(_ value: PropertyListValue) throws(SerializationError) -> Data {
        Data(try writeBytes(value))
    }

    /// The bytes ``write(_:)`` returns, as an array.
    func writeBytes(_ value: PropertyListValue) throws(SerializationError) -> [UInt8] {
        switch options.format {
        case .binary:
            return try BinaryPropertyListWriter.write(value, options: options)
        case .xml:
            return try XMLPropertyListWriter.write(value, options: options, allowingFallback: false)
        case .auto:
            do {
                return try XMLPropertyListWriter.write(value, options: options, allowingFallback: true)
            } catch let error where error.code == PropertyListWriting.holdsUID {
                return try BinaryPropertyListWriter.write(value, options: options)
            }
        }
    }
}

/// What the writers share: the errors they throw and the search for the path of the value at fault.
enum PropertyListWriting {
    /// The internal code that makes ``PropertyListWritingOptions/Format/auto`` write binary instead of XML.
    static let holdsUID = SerializationError.Code("propertyList.holdsUID")

    /// One element of a value, as the writers meet them: a dictionary key, or a value at a nesting depth (the number
    /// of arrays and dictionaries around it, itself included).
    enum Element {
        case key(String)
        case value(PropertyListValue, depth: Int)
    }

    /// The path to the first element of `root`, in document order, that `isAtFault` accepts: the keys and indices
    /// leading to it, as `codingPath` writes them. Iterative; only called once writing has failed.
    static func path(in root: PropertyListValue, where isAtFault: (Element) -> Bool) -> [String] {
        var pending: [(value: PropertyListValue, depth: Int, path: [String])] = [(root, 0, [])]
        while let (value, depth, path) = pending.popLast() {
            let nested = depth + (value.isContainer ? 1 : 0)
            if isAtFault(.value(value, depth: nested)) { return path }
            switch value {
            case .array(let array):
                for index in array.indices.reversed() { pending.append((array[index], nested, path + [String(index)])) }
            case .dictionary(let dictionary):
                for index in dictionary.indices.reversed() {
                    let key = dictionary.keys[index]
                    if isAtFault(.key(key)) { return path + [key] }
                    pending.append((dictionary.values[index], nested, path + [key]))
                }
            default:
                break
            }
        }
        return []
    }

    /// The error for a value nested deeper than `limit`.
    static func tooDeep(_ limit: Int, in root: PropertyListValue) -> SerializationError {
        SerializationError(
            code: .limitExceeded,
            message: "The property list nests arrays and dictionaries deeper than the limit of \(limit) levels, so it "
                + "is not written. Raise the option 'maxDepth' if such a value is expected (readers need the same "
                + "limit to read it back).",
            serializerID: "propertyList",
            codingPath: path(in: root) { element in
                if case .value(let value, let depth) = element { return value.isContainer && depth > limit }
                return false
            })
    }

    /// The dictionary's entry indices in the order they are written: as they are, or sorted by the UTF-8 bytes of
    /// their keys (a stable sort, as `plistlib` sorts).
    static func order(_ dictionary: PropertyListDictionary, sorted: Bool) -> [Int] {
        let indices = Array(dictionary.indices)
        guard sorted else { return indices }
        return indices.sorted { dictionary.keys[$0].utf8.lexicographicallyPrecedes(dictionary.keys[$1].utf8) }
    }
}

extension PropertyListValue {
    /// Whether this is an array or a dictionary.
    var isContainer: Bool {
        switch self {
        case .array, .dictionary: return true
        default: return false
        }
    }
}
