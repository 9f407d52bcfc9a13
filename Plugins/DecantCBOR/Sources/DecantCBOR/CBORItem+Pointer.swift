public import DecantCore
import DecantValueTree

extension CBORItem {
    /// The item at `pointer` (RFC 6901) inside this one, found on the tape without reading anything beside the path.
    ///
    /// A token selects the entry of a map whose key is that text string (other keys are never matched, as
    /// ``CBORDecoder``'s keyed containers read only text keys), or an element of an array by its index. Tags are
    /// looked through to their content, as ``CBORDecoder`` does. Each token costs a pass over one map's entries or a
    /// skip over the elements before the index, one step each whatever they hold.
    ///
    /// ```swift
    /// let name = try CBORParser().read(body).item(at: "/data/0/name").stringValue
    /// ```
    ///
    /// - Throws: `SerializationError` with code `pointerNotFound`, naming the deepest part that matched.
    public func item(at pointer: JSONPointer) throws(SerializationError) -> CBORItem {
        var path: [any CodingKey] = []
        return try Self.resolve(pointer, from: self, sequence: nil, path: &path)
    }

    /// Walks from `root`, or from the items of a CBOR sequence when `sequence` is given (an array of them, as
    /// ``CBORResponseDecoder`` decodes it), collecting the coding path of the tokens.
    static func resolve(
        _ pointer: JSONPointer, from root: CBORItem?, sequence: [CBORItem]?, path: inout [any CodingKey]
    ) throws(SerializationError) -> CBORItem {
        let found = try pointer.resolve(from: root) { (node: CBORItem?, token: String) -> JSONPointer.Step<CBORItem?> in
            guard var node else {
                let items = sequence ?? []
                guard let index = JSONPointer.arrayIndex(token), index < items.count else {
                    return .noElement("a CBOR sequence of \(items.count) items", count: items.count)
                }
                path.append(DecodingKey(index: index))
                return .found(items[index])
            }
            while let content = node.tagContent { node = content }
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
        // Nil only for the empty pointer into a sequence, which callers answer before walking.
        guard let found else {
            throw SerializationError(
                code: .pointerNotFound, message: "The empty JSON Pointer names the whole CBOR sequence, not one item.")
        }
        return found
    }

    /// What a value without members or elements is, for errors.
    var kindPhrase: String {
        switch kind {
        case .unsignedInteger, .negativeInteger, .bignum: "an integer"
        case .bytes: "a byte string"
        case .text: "a text string"
        case .array: "an array"
        case .map: "a map"
        case .tag: "a tag"
        case .simple: "a simple value"
        case .bool: "a boolean"
        case .null: "null"
        case .undefined: "undefined"
        case .float: "a float"
        }
    }
}
