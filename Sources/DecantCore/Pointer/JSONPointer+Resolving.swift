extension JSONPointer {
    /// What following one reference token from a value finds: the child, or what the value is when it has no such
    /// child (for the error). A format answers it for its own values in
    /// ``resolve(from:step:)``.
    public enum Step<Node> {
        /// The member or element the token names.
        case found(Node)
        /// The value is an object (a map, a dictionary) without a member of that key; the associated text describes
        /// it, such as `an object of 3 members`.
        case noMember(String)
        /// The value is an array without the element the token names (it is not an array index, it is `-`, or it is
        /// past the end); the text describes it (`an array of 3 elements`) and `count` is its number of elements.
        case noElement(String, count: Int)
        /// The value has no members or elements at all; the text says what it is, such as `a string`.
        case leaf(String)
    }

    /// Follows the pointer from `root`, one token at a time, with `step` saying what each token finds: the one walk
    /// of every format, so that a missing path is reported the same way everywhere.
    ///
    /// The walk is a loop (no recursion), so a pointer of any length is safe; its cost is the tokens' steps.
    ///
    /// ```swift
    /// let node = try pointer.resolve(from: document) { value, token in
    ///     switch value {
    ///     case .object(let members): members[token].map { .found($0) } ?? .noMember("an object")
    ///     case .array(let elements):
    ///         JSONPointer.arrayIndex(token).flatMap { elements.indices.contains($0) ? .found(elements[$0]) : nil }
    ///             ?? .noElement("an array of \(elements.count) elements", count: elements.count)
    ///     default: .leaf("a scalar")
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/pointerNotFound``, a message naming the
    ///   deepest part of the pointer that matched and what is there (`'/data/0' is an array of 3 elements; 'name'
    ///   is not an array index`), and the matched tokens plus the one that failed as its coding path.
    public func resolve<Node>(from root: Node, step: (Node, String) -> Step<Node>) throws(SerializationError) -> Node {
        var node = root
        for (depth, token) in tokens.enumerated() {
            let why: String
            switch step(node, token) {
            case .found(let child):
                node = child
                continue
            case .noMember(let what):
                why = "is \(what) with no member '\(token)'"
            case .noElement(let what, let count):
                if token == "-" {
                    why = "is \(what); '-' names the element after the last, which never exists when reading"
                } else if let index = Self.arrayIndex(token) {
                    let range = count == 0 ? "it is empty" : "its indexes are 0 to \(count - 1)"
                    why = "is \(what) with no element \(index) (\(range))"
                } else {
                    why = "is \(what); '\(token)' is not an array index (0, or digits without a leading zero)"
                }
            case .leaf(let what):
                why = "is \(what), which has no member or element '\(token)'"
            }
            throw notFound(depth: depth, why)
        }
        return node
    }

    /// The error for a walk that stopped at token `depth`: the matched prefix and `why`.
    private func notFound(depth: Int, _ why: String) -> SerializationError {
        let matched = prefix(depth)
        let place = matched.isRoot ? "the whole document ('')" : "'\(matched)'"
        return SerializationError(
            code: .pointerNotFound,
            message: "There is no value at the JSON Pointer '\(self)': the deepest part that matched, \(place), "
                + "\(why). Check the pointer against the document.",
            codingPath: Array(tokens.prefix(depth + 1)))
    }
}
