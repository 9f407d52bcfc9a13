public import DecantCore
import DecantValueTree

extension MessagePackItem {
    /// The item at `pointer` (RFC 6901) inside this one, found on the tape without reading anything beside the path.
    ///
    /// A token selects the value of the first map entry whose key is that str (as ``MessagePackDecoder``'s keyed
    /// containers choose among duplicates), or an element of an array by its index. Each token costs a pass over one
    /// map's entries or a skip over the elements before the index, one step each whatever they hold.
    ///
    /// ```swift
    /// let name = try MessagePackParser().read(body).item(at: "/data/0/name").stringValue
    /// ```
    ///
    /// - Throws: `SerializationError` with code `pointerNotFound`, naming the deepest part that matched.
    public func item(at pointer: JSONPointer) throws(SerializationError) -> MessagePackItem {
        var path: [any CodingKey] = []
        return try resolve(pointer, path: &path)
    }

    /// Walks to `pointer`'s item, collecting the coding path of the tokens.
    func resolve(_ pointer: JSONPointer, path: inout [any CodingKey]) throws(SerializationError) -> MessagePackItem {
        try pointer.resolve(from: self) { (node: MessagePackItem, token: String) -> JSONPointer.Step<MessagePackItem> in
            switch node.kind {
            case .map:
                guard let value = node[token] else { return .noMember("a map of \(node.count) entries") }
                path.append(DecodingKey(token))
                return .found(value)
            case .array:
                guard let index = JSONPointer.arrayIndex(token), let element = node[index] else {
                    return .noElement("an array of \(node.count) elements", count: node.count)
                }
                path.append(DecodingKey(index: index))
                return .found(element)
            default:
                return .leaf(node.kindPhrase)
            }
        }
    }

    /// What a value without members or elements is, for errors.
    var kindPhrase: String {
        switch kind {
        case .nil: "nil"
        case .bool: "a boolean"
        case .int, .uint: "an integer"
        case .float32, .float64: "a float"
        case .string: "a str"
        case .binary: "a bin"
        case .array: "an array"
        case .map: "a map"
        case .ext: "an extension value"
        case .timestamp: "a timestamp"
        }
    }
}
