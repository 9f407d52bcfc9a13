/// The parameters of a ``MediaType``, in the order they were written, with unique lowercased names.
///
/// Lookup by name is ASCII case-insensitive. Two parameter lists are equal when they hold the same names with the
/// same values in any order; the value of `charset` is compared case-insensitively (RFC 9110 §8.3.2), every other
/// value exactly.
public struct MediaTypeParameters: Sendable, Hashable, RandomAccessCollection, CustomStringConvertible {
    /// One `name=value` pair. The name is lowercased; the value is kept as written (unquoted).
    public struct Parameter: Sendable, Hashable {
        /// The lowercased parameter name.
        public let name: String
        /// The parameter value with any quoting and escapes removed.
        public let value: String
    }

    private(set) var storage: [Parameter]

    /// Creates an empty parameter list.
    public init() { storage = [] }

    init(unchecked storage: [Parameter]) { self.storage = storage }

    /// The position of the first parameter.
    public var startIndex: Int { storage.startIndex }
    /// The position one past the last parameter.
    public var endIndex: Int { storage.endIndex }
    /// The parameter at `position`.
    public subscript(position: Int) -> Parameter { storage[position] }

    /// The value of the parameter called `name` (ASCII case-insensitive), or `nil`.
    public subscript(name: String) -> String? {
        storage.first { HTTPBytes.equalsIgnoringASCIICase($0.name, name) }?.value
    }

    /// Sets, replaces or (with `nil`) removes the parameter called `name`, keeping the order of the others.
    ///
    /// A new parameter is appended. The name is lowercased.
    public mutating func set(_ value: String?, forName name: String) {
        let lowered = HTTPBytes.lowercasedString(name.utf8)
        if let index = storage.firstIndex(where: { $0.name == lowered }) {
            if let value {
                storage[index] = Parameter(name: lowered, value: value)
            } else {
                storage.remove(at: index)
            }
        } else if let value {
            storage.append(Parameter(name: lowered, value: value))
        }
    }

    /// The WHATWG serialization of the parameters, each preceded by `;`.
    public var description: String {
        var result = ""
        for parameter in storage {
            result += ";"
            result += parameter.name
            result += "="
            MediaTypeParameters.appendSerializedValue(parameter.value, to: &result)
        }
        return result
    }

    /// Appends `value` as a token when it is one, else as a quoted string with `"` and `\` escaped.
    static func appendSerializedValue(_ value: String, to result: inout String) {
        if HTTPBytes.isToken(value.utf8) {
            result += value
            return
        }
        result += "\""
        for character in value.unicodeScalars {
            if character == "\"" || character == "\\" { result += "\\" }
            result.unicodeScalars.append(character)
        }
        result += "\""
    }

    /// The comparison key of a value: `charset` values are case-insensitive, every other value is exact.
    private static func normalizedValue(of parameter: Parameter) -> String {
        parameter.name == "charset" ? HTTPBytes.lowercasedString(parameter.value.utf8) : parameter.value
    }

    /// Order-independent equality: same names, same (normalised) values.
    public static func == (lhs: MediaTypeParameters, rhs: MediaTypeParameters) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        for parameter in lhs.storage {
            guard let other = rhs.storage.first(where: { $0.name == parameter.name }),
                normalizedValue(of: other) == normalizedValue(of: parameter)
            else { return false }
        }
        return true
    }

    /// Hashes the parameters sorted by name, so the hash does not depend on the written order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.count)
        for parameter in storage.sorted(by: { $0.name < $1.name }) {
            hasher.combine(parameter.name)
            hasher.combine(MediaTypeParameters.normalizedValue(of: parameter))
        }
    }
}

extension MediaTypeParameters: ExpressibleByDictionaryLiteral {
    /// Creates parameters from `name: value` pairs; names are lowercased and the first of duplicates wins.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init()
        for (name, value) in elements where self[name] == nil {
            set(value, forName: name)
        }
    }
}
