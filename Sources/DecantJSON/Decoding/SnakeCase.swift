import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `JSONDecoder`'s `.convertFromSnakeCase` key conversion: `one_two_three` → `oneTwoThree`, `_private_key_` →
/// `_privateKey_`, `UPPER_CASE` → `upperCase`, `camelCase` unchanged.
///
/// The first word is lowercased and the others capitalized (`String.capitalized`: a letter after a cased letter is
/// lowercased, any other letter titlecased, and `'`, `^` and `` ` `` do not end a word). ASCII keys are converted
/// byte by byte without allocating; others take the general path, which is `JSONDecoder`'s own algorithm.
enum SnakeCase {
    /// The converted key, exactly as `JSONDecoder` converts it.
    static func convert(_ key: String) -> String {
        DecodingOptions.KeyDecodingStrategy.convertFromSnakeCase(key)
    }

    /// The converted key of UTF-8 key bytes.
    static func convert(_ key: UnsafeBufferPointer<UInt8>) -> String {
        withConverted(key) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 of the converted key.
    static func withConverted<R>(_ key: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if key.count <= 256 {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(key.count, 1)) { buffer in
                if let count = convertASCII(key, into: buffer) {
                    return body(UnsafeBufferPointer(rebasing: buffer[..<count]))
                }
                var converted = convert(String(decoding: key, as: UTF8.self))
                return converted.withUTF8(body)
            }
        }
        var converted = convert(String(decoding: key, as: UTF8.self))
        return converted.withUTF8(body)
    }

    /// Whether the key bytes `key` convert to exactly `target`.
    @inline(__always)
    static func matches(_ key: UnsafeBufferPointer<UInt8>, _ target: UnsafeBufferPointer<UInt8>) -> Bool {
        // Converting never lengthens an ASCII key, and keys without underscores are unchanged.
        if key.count < target.count && isASCII(key) { return false }
        return withConverted(key) { JSONBytes.equal($0, target) }
    }

    private static func isASCII(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        !key.contains { $0 >= 0x80 }
    }

    /// Converts an ASCII key into `output` (at least as large as `key`), returning the length; `nil` when the key is
    /// not ASCII.
    static func convertASCII(_ key: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int?
    {
        let underscore = UInt8(ascii: "_")
        let count = key.count
        var first = 0
        var hasInnerUnderscore = false
        if key.contains(where: { $0 >= 0x80 }) { return nil }
        while first < count && key[first] == underscore { first += 1 }
        guard first < count else {
            _ = output.initialize(from: key)
            return count
        }
        var last = count - 1
        while last > first && key[last] == underscore { last -= 1 }
        for index in first...last where key[index] == underscore {
            hasInnerUnderscore = true
            break
        }
        guard hasInnerUnderscore else {
            _ = output.initialize(from: key)
            return count
        }
        var written = 0
        for _ in 0..<first {
            output[written] = underscore
            written += 1
        }
        var index = first
        var isFirstWord = true
        var lastCased = false
        while index <= last {
            let byte = key[index]
            index += 1
            if byte == underscore {
                if written > first { isFirstWord = false }
                lastCased = false
                continue
            }
            let isUpper = byte &- UInt8(ascii: "A") < 26
            let isLower = byte &- UInt8(ascii: "a") < 26
            var converted = byte
            if isFirstWord {
                if isUpper { converted = byte | 0x20 }
            } else if isUpper {
                if lastCased { converted = byte | 0x20 }
                lastCased = true
            } else if isLower {
                if !lastCased { converted = byte & ~0x20 }
                lastCased = true
            } else if byte != UInt8(ascii: "'") && byte != UInt8(ascii: "^") && byte != UInt8(ascii: "`") {
                // Not case-ignorable: the next letter starts a word.
                lastCased = false
            }
            output[written] = converted
            written += 1
        }
        for _ in (last + 1)..<count {
            output[written] = underscore
            written += 1
        }
        return written
    }
}
