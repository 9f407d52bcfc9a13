#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The settings of a ``JSONValueEncoder``, in the form the stream encoder reads them on its hot paths.
struct StreamEncodingOptions {
    enum KeyMode {
        case useDefaultKeys, convertToSnakeCase, custom
    }

    let keyMode: KeyMode
    let keyStrategy: JSONValueEncoder.KeyEncodingStrategy
    let dateStrategy: JSONValueEncoder.DateEncodingStrategy
    let dataStrategy: JSONValueEncoder.DataEncodingStrategy
    /// The strings written for positive infinity, negative infinity and NaN, when converting to strings.
    let nonConformingStrings: (positiveInfinity: String, negativeInfinity: String, nan: String)?
    let pretty: Bool
    let sortsKeys: Bool
    let maxDepth: Int
    let userInfo: [CodingUserInfoKey: Any]

    init(_ encoder: JSONValueEncoder) {
        switch encoder.keyEncodingStrategy {
        case .useDefaultKeys: keyMode = .useDefaultKeys
        case .convertToSnakeCase: keyMode = .convertToSnakeCase
        case .custom: keyMode = .custom
        }
        keyStrategy = encoder.keyEncodingStrategy
        dateStrategy = encoder.dateEncodingStrategy
        dataStrategy = encoder.dataEncodingStrategy
        switch encoder.nonConformingFloatEncodingStrategy {
        case .throw: nonConformingStrings = nil
        case .convertToString(let positiveInfinity, let negativeInfinity, let nan):
            nonConformingStrings = (positiveInfinity, negativeInfinity, nan)
        }
        pretty = encoder.outputFormatting.contains(.prettyPrinted)
        sortsKeys = encoder.outputFormatting.contains(.sortedKeys)
        maxDepth = max(1, encoder.maxDepth)
        var userInfo: [CodingUserInfoKey: Any] = [:]
        if !encoder.userInfo.isEmpty {
            userInfo.reserveCapacity(encoder.userInfo.count)
            for (key, value) in encoder.userInfo { userInfo[key] = value }
        }
        self.userInfo = userInfo
    }
}
