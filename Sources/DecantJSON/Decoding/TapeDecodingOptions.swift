#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The strategies of a ``JSONValueDecoder``, in the form the tape decoder reads them on its hot paths.
struct TapeDecodingOptions {
    enum KeyMode {
        case useDefaultKeys, convertFromSnakeCase, custom
    }

    let keyMode: KeyMode
    let keyConverter: (@Sendable ([any CodingKey]) -> any CodingKey)?
    let dateStrategy: JSONValueDecoder.DateDecodingStrategy
    let dataStrategy: JSONValueDecoder.DataDecodingStrategy
    /// The UTF-8 of the positive infinity, negative infinity and NaN strings, when converting from strings.
    let nonConformingStrings: (positiveInfinity: [UInt8], negativeInfinity: [UInt8], nan: [UInt8])?
    let userInfo: [CodingUserInfoKey: Any]

    init(_ decoder: JSONValueDecoder) {
        switch decoder.keyDecodingStrategy {
        case .useDefaultKeys:
            keyMode = .useDefaultKeys
            keyConverter = nil
        case .convertFromSnakeCase:
            keyMode = .convertFromSnakeCase
            keyConverter = nil
        case .custom(let converter):
            keyMode = .custom
            keyConverter = converter
        }
        dateStrategy = decoder.dateDecodingStrategy
        dataStrategy = decoder.dataDecodingStrategy
        switch decoder.nonConformingFloatDecodingStrategy {
        case .throw:
            nonConformingStrings = nil
        case .convertFromString(let positiveInfinity, let negativeInfinity, let nan):
            nonConformingStrings = (Array(positiveInfinity.utf8), Array(negativeInfinity.utf8), Array(nan.utf8))
        }
        var userInfo: [CodingUserInfoKey: Any] = [:]
        if !decoder.userInfo.isEmpty {
            userInfo.reserveCapacity(decoder.userInfo.count)
            for (key, value) in decoder.userInfo { userInfo[key] = value }
        }
        self.userInfo = userInfo
    }
}

/// One component of a coding path: a key, or an index in an array.
enum CodingPathComponent {
    case key(any CodingKey)
    case index(Int)

    var codingKey: any CodingKey {
        switch self {
        case .key(let key): key
        case .index(let index): JSONIndexKey(index)
        }
    }
}

/// The coding key of an array element, as `JSONDecoder` spells it: `Index 2`, with the integer value 2.
struct JSONIndexKey: CodingKey {
    let index: Int

    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.index = intValue }

    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

/// A coding key made from a JSON object key or a fixed name such as `super`.
struct JSONStringKey: CodingKey {
    let stringValue: String

    init(_ stringValue: String) { self.stringValue = stringValue }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { self.stringValue = String(intValue) }

    var intValue: Int? { nil }

    /// The key `superDecoder()` uses.
    static let `super` = JSONStringKey("super")
}

/// Where a container's coding path comes from.
///
/// Containers made while a value is being decoded share the decoder's path stack: their path is its first `depth`
/// components, which stay in place for as long as the container is used (decoding is nested). Containers returned by
/// `nestedContainer` or `nestedUnkeyedContainer` outlive the call that made them, so the decoder keeps a copy of their
/// path for them (``TapeDecoder/detach(_:)``). Plain integers, so that copying a container retains nothing but its
/// decoder.
struct PathBase {
    /// The number of components of the path.
    let depth: Int
    /// The index of the path in the decoder's detached paths, or -1 for the path stack.
    let detached: Int

    static func stack(depth: Int) -> PathBase { PathBase(depth: depth, detached: -1) }
}
